/**
 * Whole rule analytics, its rules' facts kept between reads until the store's next write
 * (decision 168), is the bytes of `JSON.stringify(success(…))` of what the figures and the rules
 * hold: it equals the pages of rule analytics (decision 118: read by another path, a page of
 * rules at a time) put together, for more rules than a slice, names that need escaping and
 * windows ending soon; and it follows every kind of write (a rename, a window set, a rule
 * deleted, rules added) and new asks. Rule hits agree with it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type {
  RuleAnalytics,
  RuleAnalyticsPage,
  RuleHits,
} from '../../electron/service/question-log-types';
import { success } from '../../electron/service/http/envelope';
import { consoleClient } from '../helpers/console-client';
import type { TestService } from '../helpers/service';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';

const DAY = 86_400_000;
/** More than the 2,000 rules written per turn. */
const RULES = 2300;
/** Names a JSON text must escape, and others it must not. */
const NAMES = [
  'plain',
  'a "quoted" name',
  'back\\slash',
  'tab\tand\u0007bell',
  'é 中文 😀',
  'del\u007f /slash/',
];
const nameOf = (i: number) => `${NAMES[i % NAMES.length]} ${i}`;
const questionOf = (i: number) => `question number ${i} about topic ${i}`;

describe("whole rule analytics with the rules' facts kept (decision 168)", () => {
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
    const rules = Array.from({ length: RULES }, (_, i) => ruleInput(nameOf(i), [questionOf(i)]));
    for (let i = 0; i < rules.length; i += 1000) {
      const { succeed } = await robot.importRules(rules.slice(i, i + 1000));
      assert.equal(succeed.length, Math.min(1000, rules.length - i));
    }
  });
  after(() => h.close());

  /** The raw body of a console GET. */
  async function text(path: string): Promise<string> {
    const response = await fetch(`${h.service.url}/console/api${R}${path}`, {
      headers: { authorization: `Bearer ${h.service.consoleToken}` },
    });
    assert.equal(response.status, 200);
    return response.text();
  }

  /** Whole analytics as the pages of 1,000 rules say it, put together. */
  async function fromPages(): Promise<RuleAnalytics> {
    const whole: RuleAnalytics = {
      rules: [],
      neverHit: [],
      confusable: [],
      expiring: [],
      hitsByDay: [],
    };
    for (let offset = 0; ; offset += 1000) {
      const page = await api.ok<RuleAnalyticsPage>(
        'GET',
        `${R}/analytics?offset=${offset}&limit=1000`,
      );
      whole.rules.push(...page.rules);
      whole.neverHit.push(...page.neverHit);
      whole.expiring.push(...page.expiring);
      whole.confusable = page.confusable;
      whole.hitsByDay = page.hitsByDay;
      if (offset + 1000 >= page.total) return whole;
    }
  }

  async function assertSameBytes(when: string) {
    const expected = JSON.stringify(success(await fromPages()));
    assert.equal(await text('/analytics'), expected, `whole analytics, ${when}`);
    // Rule hits: the rows of the rules hit or recommended, each as analytics has it.
    const hitsText = await text('/rule-hits');
    const { rules } = JSON.parse(hitsText).data as { rules: RuleHits[] };
    assert.equal(hitsText, JSON.stringify(success({ rules })), `rule hits, ${when}`);
    const byId = new Map(JSON.parse(expected).data.rules.map((r: RuleHits) => [r.ruleId, r]));
    assert.ok(rules.length > 0);
    for (const row of rules) {
      const item = byId.get(row.ruleId) as
        (RuleHits & { ruleName: string; effectEnd: string | null }) | undefined;
      // A deleted rule keeps its figures in the rule hits, not in analytics.
      if (item === undefined) continue;
      const counts = Object.entries(item).filter(
        ([key]) => key !== 'ruleName' && key !== 'effectEnd',
      );
      assert.deepEqual(Object.entries(row), counts, `rule hits of ${row.ruleId}`);
    }
  }

  test('the same bytes as the pages put together, as rules and asks change', async () => {
    for (let i = 0; i < 40; i++) await robot.ask(questionOf(i % 13), `user-${i % 7}`);
    await robot.ask('question number about topic', 'recommended');
    await robot.ask('something nobody wrote a rule for', 'missed');
    const listed = await robot.listRules(0, 20);
    const [first, second, third] = listed.list;
    assert.ok(first && second && third);
    await api.ok('PATCH', `${R}/rules/${first.ruleId}`, {
      effectEndDate: new Date(clock.now + 10 * DAY).toISOString().replace('Z', '+00:00'),
    });
    await assertSameBytes('after asks');

    // The facts are kept between reads: each kind of write shows in the next read.
    await api.ok('PATCH', `${R}/rules/${second.ruleId}`, { ruleName: 'renamed "now" \\ \u0001' });
    await assertSameBytes('after a rename');
    await api.ok('PATCH', `${R}/rules/${third.ruleId}`, {
      effectEndDate: new Date(clock.now + 3 * DAY).toISOString().replace('Z', '+00:00'),
    });
    await assertSameBytes('after a window set');
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [first.ruleId] });
    await assertSameBytes('after a rule deleted');
    await robot.importRules([ruleInput('added "late"', ['a question added late'])]);
    await robot.ask('a question added late', 'late');
    await assertSameBytes('after a rule added and asked');
    clock.now += 2 * DAY;
    await robot.ask(questionOf(5), 'another-day');
    await assertSameBytes('on another day');
  });
});
