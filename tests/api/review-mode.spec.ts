/**
 * Review mode without surprises (issue 29), over real HTTP on either store: a change of mode is
 * a version credited to who made it and described by facts, not English notes; the unpublished
 * changes are listed; the draft can be discarded; a rollback's rules stay searchable (after a
 * restart too) and its counts are those of its diff; nothing is left to publish after it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RulePage } from '../../electron/service/console-types';
import type {
  DiscardResult,
  ModeSwitchResult,
  RulesDiff,
  UnpublishedChanges,
  VersionHistory,
  VersionRecord,
} from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('review mode without surprises', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  const ids: Record<string, string> = {};

  const history = () => api.ok<VersionHistory>('GET', `${R}/versions`);
  const unpublished = () => api.ok<UnpublishedChanges>('GET', `${R}/versions/unpublished`);
  const publish = (note: string) =>
    api.ok<{ version: VersionRecord }>('POST', `${R}/versions`, { note, author: 'admin_01' });
  const found = async (q: string) =>
    (await api.ok<RulePage>('GET', `${R}/rules?q=${encodeURIComponent(q)}`)).rows.map(
      (rule) => rule.ruleName,
    );
  const answerOf = async (question: string) => (await robot.ask(question)).answer;

  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    let tenantId: number;
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    R = `/tenants/${tenantId}/robots/default`;
    const { succeed } = await robot.importRules([
      ruleInput('服装退货政策', ['服装怎么退货'], '服装支持7天无理由退货。'),
      ruleInput('鞋靴退货政策', ['鞋靴怎么退货'], '鞋靴支持7天无理由退货。'),
      ruleInput('运费说明', ['运费多少'], '满99元包邮。'),
      ruleInput('发票', ['能开发票吗'], '可以开电子发票。'),
    ]);
    for (const rule of succeed) ids[rule.ruleName] = rule.ruleId;
  });
  after(() => h.close());

  test('switching to review is a version of the editor who switched, described by facts', async () => {
    const refused = await api.call('POST', `${R}/versions/mode`, { publishMode: 'draft' });
    assert.equal(refused.status, 400);
    const switched = await api.ok<ModeSwitchResult>('POST', `${R}/versions/mode`, {
      publishMode: 'review',
      author: 'admin_01',
    });
    assert.equal(switched.publishMode, 'review');
    assert.equal(switched.version?.version, 1);
    const [first] = (await history()).versions;
    assert.deepEqual(
      [first?.author, first?.note, first?.modeSwitch, first?.rolledBackTo],
      ['admin_01', '', 'review', null],
    );
    assert.deepEqual((await unpublished()).changes, []);
    // Already in review: nothing to switch, nothing published.
    const again = await api.ok<ModeSwitchResult>('POST', `${R}/versions/mode`, {
      publishMode: 'review',
      author: 'admin_01',
    });
    assert.equal(again.version, null);
    assert.equal((await history()).versions.length, 1);
  });

  test('unpublished changes are listed rule by rule: added, changed, removed', async () => {
    await api.ok('PATCH', `${R}/rules/${ids['服装退货政策']}`, {
      answer: '服装支持15天无理由退货。',
    });
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [ids['发票']] });
    await api.ok('POST', `${R}/rules`, {
      ruleName: '会员积分',
      questions: ['积分怎么用'],
      answer: '积分可以抵现。',
    });
    const listed = await unpublished();
    assert.equal(listed.publishMode, 'review');
    assert.equal(listed.latest, 1);
    assert.equal(listed.more, false);
    assert.deepEqual(listed.changes.map((c) => [c.ruleName, c.change]).sort(), [
      ['会员积分', 'added'],
      ['发票', 'removed'],
      ['服装退货政策', 'changed'],
    ]);
    // An edit undone (at another time) is no change.
    await api.ok('PATCH', `${R}/rules/${ids['运费说明']}`, { answer: '满88元包邮。' });
    await api.ok('PATCH', `${R}/rules/${ids['运费说明']}`, { answer: '满99元包邮。' });
    assert.equal((await unpublished()).changes.length, 3);
  });

  test('discarding the draft brings back the published version, edits to the trash', async () => {
    const done = await api.ok<DiscardResult>('POST', `${R}/versions/discard`, {});
    assert.deepEqual(done, { removed: 2, restored: 2 });
    assert.deepEqual((await unpublished()).changes, []);
    const after = await history();
    assert.equal(after.draftChanged, false);
    assert.equal(after.versions.length, 1, 'no version written');
    const draft = await api.ok<{ result: { answer: string } }>('POST', `${R}/try`, {
      question: '服装怎么退货',
    });
    assert.equal(draft.result.answer, '服装支持7天无理由退货。');
    assert.deepEqual(await found('发票'), ['发票'], 'the removed rule is back, and found');
    assert.deepEqual(await found('积分'), []);
    const trash = await api.ok<{ rules: { ruleName: string }[] }>('GET', `${R}/rules/trash`);
    assert.ok(
      trash.rules.some((rule) => rule.ruleName === '会员积分'),
      'the new rule is kept',
    );
    const again = await api.call('POST', `${R}/versions/discard`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'nothing-to-discard');
  });

  test('a rollback: counts equal its diff, rules found by search, nothing left to publish', async () => {
    await api.ok('PATCH', `${R}/rules/${ids['服装退货政策']}`, {
      answer: '服装支持15天无理由退货。',
    });
    const v2 = await publish('7天改为15天');
    assert.deepEqual([v2.version.added, v2.version.changed, v2.version.removed], [0, 1, 0]);
    // Unpublished edits the rollback replaces (they go to the trash).
    await api.ok('PATCH', `${R}/rules/${ids['鞋靴退货政策']}`, { answer: '鞋靴支持30天退货。' });
    await api.ok('PATCH', `${R}/rules/${ids['运费说明']}`, { questions: ['运费多少', '包邮吗'] });
    const rolled = await api.ok<{ version: VersionRecord }>('POST', `${R}/versions/1/rollback`, {
      author: 'admin_01',
    });
    const v3 = rolled.version;
    assert.deepEqual([v3.note, v3.rolledBackTo, v3.modeSwitch], ['', 1, null]);
    const diff = await api.ok<RulesDiff>('GET', `${R}/versions/diff?from=2&to=3`);
    assert.deepEqual(
      [v3.added, v3.changed, v3.removed],
      [diff.added.length, diff.changed.length, diff.removed.length],
      'the version counts what its diff shows',
    );
    assert.deepEqual([v3.changed, diff.changed[0]?.ruleName], [1, '服装退货政策']);
    assert.equal(await answerOf('服装怎么退货'), '服装支持7天无理由退货。');
    // Nothing left to publish: the publish page has nothing stale to offer.
    const after = await history();
    assert.equal(after.draftChanged, false);
    assert.deepEqual((await unpublished()).changes, []);
    const preview = await api.ok<{ diff: RulesDiff }>('GET', `${R}/versions/preview`);
    assert.deepEqual(preview.diff, { added: [], removed: [], changed: [] });
    // The rules the rollback wrote back are found by name, phrasing and answer.
    for (const [q, name] of [
      ['服装退货政策', '服装退货政策'],
      ['鞋靴怎么退货', '鞋靴退货政策'],
      ['7天无理由', '服装退货政策'],
      ['运费说明', '运费说明'],
    ] as const) {
      assert.ok((await found(q)).includes(name), `${q} finds ${name}`);
    }
  });

  test('the rules a rollback wrote back are still found after a restart', async () => {
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    robot = h.client.robot(robot.tenantId, robot.robotId, robot.robotSecret);
    assert.deepEqual(await found('服装退货政策'), ['服装退货政策']);
    assert.deepEqual(await found('鞋靴退货'), ['鞋靴退货政策']);
    assert.deepEqual(await found('运费多少'), ['运费说明']);
  });

  test('a change of mode over PATCH is credited to its actor, back to live publishes the draft', async () => {
    await api.ok('PATCH', `${R}/rules/${ids['运费说明']}`, { answer: '满66元包邮。' });
    await api.ok('PATCH', R, { settings: { publishMode: 'live' } });
    const [latest] = (await history()).versions;
    assert.deepEqual(
      [latest?.author, latest?.note, latest?.modeSwitch],
      ['editor', '', 'live'],
      'the console token is the desktop editor',
    );
    assert.equal(await answerOf('运费多少'), '满66元包邮。');
  });

  test('a switch that publishes nothing says so, whatever an earlier PATCH published', async () => {
    const before = (await history()).versions.length;
    const switched = await api.ok<ModeSwitchResult>('POST', `${R}/versions/mode`, {
      publishMode: 'review',
      author: 'admin_01',
    });
    assert.equal(switched.publishMode, 'review');
    assert.equal(switched.version, null, 'the draft was already the latest version');
    assert.equal((await history()).versions.length, before);
  });
});
