/**
 * The try pane's asks in the question log (issue 29): they are the editor's own, asked under the
 * pane's conversation id (try-…). They are logged marked as the try pane's, listed apart by the
 * `source` filter (the log screen names them "Try pane" instead of the id), and counted nowhere a
 * customer's ask is: not in the inbox, the dashboard, the rule hits, nor the users.
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type {
  Dashboard,
  InboxGroup,
  QuestionLogPage,
  RuleHits,
} from '../../electron/service/question-log-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const PANE = 'try-k3v9q2x7ab';

describe('the try pane’s asks in the question log', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  before(async () => {
    h = await startTestService({ now: () => clock.now });
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    const { succeed } = await robot.importRules([
      ruleInput('opening hours', ['What are your opening hours']),
      ruleInput('delivery', ['How long does delivery take']),
    ]);
    assert.equal(succeed.length, 2);
    await robot.ask('What are your opening hours', 'visitor-1');
    await robot.ask('is there a student discount', 'visitor-2');
    for (const question of [
      'What are your opening hours',
      'How long does delivery take',
      'can you tell me about the weather',
    ]) {
      await api.ok('POST', `${R}/try`, { question, userId: PANE });
    }
  });
  after(() => h.close());

  const log = (query = '') => api.ok<QuestionLogPage>('GET', `${R}/question-log${query}`);

  test('logged under the pane’s conversation, marked as the try pane’s', async () => {
    const all = await log();
    assert.equal(all.total, 5);
    const tried = all.entries.filter((entry) => entry.userId === PANE);
    assert.equal(tried.length, 3);
    assert.ok(tried.every((entry) => entry.source === 'try' && entry.channel === 'TRY'));
    assert.ok(
      all.entries
        .filter((entry) => entry.userId !== PANE)
        .every((entry) => entry.source === 'api' && entry.channel === 'API'),
    );
  });

  test('the source filter lists customers’ asks and the editor’s apart, with the other filters', async () => {
    const mine = await log('?source=try');
    assert.equal(mine.total, 3);
    assert.deepEqual(new Set(mine.entries.map((entry) => entry.userId)), new Set([PANE]));
    const customers = await log('?source=api');
    assert.equal(customers.total, 2);
    assert.deepEqual(customers.entries.map((entry) => entry.userId).sort(), [
      'visitor-1',
      'visitor-2',
    ]);
    // Entries rather than totals: a text search's total may be left uncounted (null).
    const count = async (query: string) => (await log(query)).entries.length;
    assert.equal(await count('?source=try&outcome=fallback'), 1);
    assert.equal(await count('?source=api&outcome=fallback'), 1);
    assert.equal(await count('?source=api&q=opening'), 1);
    assert.equal(await count('?source=try&q=opening'), 1);
    assert.equal(await count(`?source=api&userId=${PANE}`), 0);
    const refused = await api.call<{ field: string }>('GET', `${R}/question-log?source=editor`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.data.field, 'source');
  });

  test('counted nowhere a customer’s ask is: inbox, dashboard, rule hits', async () => {
    const { groups } = await api.ok<{ groups: InboxGroup[] }>('GET', `${R}/inbox`);
    assert.deepEqual(
      groups.map((group) => group.key),
      ['is there a student discount'],
    );
    const board = await api.ok<Dashboard>('GET', `${R}/dashboard?days=1`);
    assert.deepEqual(board.days.at(-1), {
      day: '2026-11-02',
      total: 2,
      answered: 1,
      recommended: 0,
      fallback: 1,
      chat: 0,
      menu: 0,
    });
    assert.deepEqual(board.topQuestions.map((top) => `${top.question} ×${top.count}`).sort(), [
      'What are your opening hours ×1',
      'is there a student discount ×1',
    ]);
    assert.deepEqual(board.topMissed, [{ question: 'is there a student discount', count: 1 }]);
    const { rules } = await api.ok<{ rules: RuleHits[] }>('GET', `${R}/rule-hits`);
    // The customer's opening-hours ask only: the pane's delivery ask is no hit.
    assert.deepEqual(
      rules.filter((rule) => rule.hits > 0).map((rule) => rule.hits),
      [1],
    );
  });
});
