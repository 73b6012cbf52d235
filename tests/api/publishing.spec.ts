/**
 * Draft and published knowledge over real HTTP: review mode, versions, publish and its gate,
 * diffs, rollback, test sets and runs, threshold curves (docs/publishing.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRobot, TryResult } from '../../electron/service/console-types';
import type {
  GateReport,
  RulesDiff,
  RunComparison,
  TestRun,
  ThresholdCurves,
  VersionHistory,
  VersionRecord,
} from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { runTestSet } from '../helpers/test-runs';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('publishing (draft, versions, test sets)', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  const ids: Record<string, string> = {};

  const answerOf = async (question: string) => (await robot.ask(question)).answer;
  const publish = (note: string, extra: object = {}) =>
    api.call<{ version: VersionRecord; gate: GateReport }>('POST', `${R}/versions`, {
      note,
      author: 'admin',
      ...extra,
    });
  const runTests = (target = 'draft'): Promise<TestRun> => runTestSet(api, R, target);

  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    let tenantId: number;
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    R = `/tenants/${tenantId}/robots/default`;
    const { succeed } = await robot.importRules([
      ruleInput('营业时间', ['几点开门', '营业时间是什么'], '每天九点开门。'),
      ruleInput('退货', ['怎么退货', '如何退货'], '七天无理由退货。'),
      ruleInput('运费', ['运费多少', '包邮吗'], '满99元包邮。'),
    ]);
    for (const rule of succeed) ids[rule.ruleName] = rule.ruleId;
  });
  after(() => h.close());

  test('a new robot is live: saved changes are answered at once, no version needed', async () => {
    const history = await api.ok<VersionHistory>('GET', `${R}/versions`);
    assert.equal(history.publishMode, 'live');
    assert.deepEqual(history.versions, []);
    assert.equal(history.draftChanged, true);
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { answer: '满88元包邮。' });
    assert.equal(await answerOf('运费多少'), '满88元包邮。');
  });

  test('in live mode a publish records a version of the whole draft', async () => {
    const { status, body } = await publish('first');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.data.version.version, 1);
    assert.equal(body.data.version.rules, 3);
    assert.equal(body.data.version.added, 3);
    assert.equal(body.data.version.author, 'admin');
    const again = await publish('nothing new');
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'nothing-to-publish');
  });

  test('review mode: an edit is not answered by ask until published', async () => {
    const patched = await api.ok<ConsoleRobot>('PATCH', R, { settings: { publishMode: 'review' } });
    assert.equal(patched.settings.publishMode, 'review');
    // Nothing changed since version 1: switching published nothing new.
    assert.equal((await api.ok<VersionHistory>('GET', `${R}/versions`)).versions.length, 1);
    await api.ok('PATCH', `${R}/rules/${ids['营业时间']}`, {
      answer: '每天十点开门。',
      questions: ['几点开门', '几点开始营业'],
    });
    assert.equal(await answerOf('几点开门'), '每天九点开门。');
    // The try pane asks either side.
    const draft = await api.ok<TryResult>('POST', `${R}/try`, { question: '几点开门' });
    const published = await api.ok<TryResult>('POST', `${R}/try`, {
      question: '几点开门',
      edition: 'published',
    });
    assert.equal(draft.result.answer, '每天十点开门。');
    assert.equal(published.result.answer, '每天九点开门。');
    // A new rule is not answered either.
    await api.ok('POST', `${R}/rules`, {
      ruleName: '发票',
      questions: ['能开发票吗'],
      answer: '可以开电子发票。',
    });
    assert.notEqual(await answerOf('能开发票吗'), '可以开电子发票。');
    const history = await api.ok<VersionHistory>('GET', `${R}/versions`);
    assert.equal(history.draftChanged, true);
  });

  test('the diff of the draft against the published version is field by field', async () => {
    const diff = await api.ok<RulesDiff>('GET', `${R}/versions/diff?from=published&to=draft`);
    assert.deepEqual(
      diff.added.map((rule) => rule.ruleName),
      ['发票'],
    );
    assert.deepEqual(diff.removed, []);
    assert.equal(diff.changed.length, 1);
    const [changed] = diff.changed;
    assert.equal(changed?.ruleName, '营业时间');
    assert.deepEqual(changed?.fields.map((f) => f.field).sort(), ['answer', 'questions']);
    assert.deepEqual(changed?.questionsAdded, ['几点开始营业']);
    assert.deepEqual(changed?.questionsRemoved, ['营业时间是什么']);
    const bad = await api.call('GET', `${R}/versions/diff?from=published&to=latest`);
    assert.equal(bad.status, 400);
    const unknown = await api.call('GET', `${R}/versions/diff?from=v9&to=draft`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'version-not-found');
  });

  test('publishing makes the draft answered, and stores only what changed', async () => {
    const { status, body } = await publish('opening hours and invoices');
    assert.equal(status, 200, JSON.stringify(body));
    const version = body.data.version;
    assert.equal(version.version, 2);
    assert.deepEqual([version.added, version.changed, version.removed], [1, 1, 0]);
    assert.equal(version.rules, 4);
    assert.equal(await answerOf('几点开门'), '每天十点开门。');
    assert.equal(await answerOf('能开发票吗'), '可以开电子发票。');
    const diff = await api.ok<RulesDiff>('GET', `${R}/versions/diff?from=1&to=v2`);
    assert.equal(diff.added.length + diff.changed.length, 2);
  });

  test('test cases from the try pane, by rule name, and refused when they name no rule', async () => {
    const added = await api.ok<{ cases: { caseId: number }[] }>('POST', `${R}/test-cases`, {
      cases: [
        { question: '几点开门', expect: 'rule', ruleId: ids['营业时间'] },
        { question: '怎么退货', expect: 'rule', ruleName: '退货' },
        { question: '运费多少', expect: 'rule', ruleName: ' 运费 ' },
        { question: '量子色动力学的渐近自由', expect: 'fallback' },
      ],
    });
    assert.equal(added.cases.length, 4);
    const bad = await api.call<{ field: string }>('POST', `${R}/test-cases`, {
      cases: [
        { question: 'ok', expect: 'rule', ruleName: '退货' },
        { question: 'x', expect: 'rule', ruleName: 'no such rule' },
      ],
    });
    assert.equal(bad.status, 404);
    assert.equal(bad.body.data.field, 'cases[1].ruleName');
    const missing = await api.call('POST', `${R}/test-cases`, {
      cases: [{ question: 'x', expect: 'recommend' }],
    });
    assert.equal(missing.status, 400);
    const invalid = await api.call('POST', `${R}/test-cases`, {
      cases: [{ question: 'x', expect: 'maybe' }],
    });
    assert.equal(invalid.status, 400);
    const listed = await api.ok<{ cases: { ruleName: string | null }[] }>('GET', `${R}/test-cases`);
    assert.deepEqual(
      listed.cases.map((c) => c.ruleName),
      ['营业时间', '退货', '运费', null],
    );
  });

  test('a run replays every case and is kept; the next run says what changed', async () => {
    const first = await runTests();
    assert.deepEqual([first.summary.total, first.summary.passed, first.summary.failed], [4, 4, 0]);
    assert.ok(first.results.every((r) => r.change === 'new'));
    // Break a case in the draft: 运费 loses the phrasing the case asks.
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { questions: ['邮费怎么算'] });
    const second = await runTests();
    assert.equal(second.summary.failed, 1);
    assert.equal(second.summary.nowFailing, 1);
    const failure = second.results.find((r) => r.status === 'failed');
    assert.equal(failure?.question, '运费多少');
    assert.equal(failure?.change, 'now-failing');
    assert.ok(
      (failure && failure.got.kind !== 'bestmatch') || failure?.got.ruleIds[0] !== ids['运费'],
    );
    const published = await runTests('published');
    assert.equal(published.edition, 'published');
    assert.equal(published.summary.failed, 0);
    const comparison = await api.ok<RunComparison>(
      'GET',
      `${R}/test-runs/compare?a=${first.runId}&b=${second.runId}`,
    );
    assert.deepEqual(
      comparison.differences.map((d) => d.question),
      ['运费多少'],
    );
    const runs = await api.ok<{ runs: { runId: number }[] }>('GET', `${R}/test-runs`);
    assert.deepEqual(
      runs.runs.map((r) => r.runId),
      [published.runId, second.runId, first.runId],
    );
  });

  test('the gate refuses a publish over new failures unless confirmed, and records it', async () => {
    const preview = await api.ok<{ diff: RulesDiff; gate: GateReport }>(
      'GET',
      `${R}/versions/preview`,
    );
    assert.deepEqual(
      preview.gate.nowFailing.map((c) => c.question),
      ['运费多少'],
    );
    assert.equal(preview.diff.changed[0]?.ruleName, '运费');
    const refused = await publish('breaks shipping');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'publish-blocked');
    assert.equal(await answerOf('运费多少'), '满88元包邮。');
    const confirmed = await publish('breaks shipping', { confirmFailures: true });
    assert.equal(confirmed.status, 200);
    const version = confirmed.body.data.version;
    assert.equal(version.version, 3);
    assert.ok(version.confirmedFailures?.includes(String(preview.gate.nowFailing[0]?.caseId)));
    assert.notEqual(await answerOf('运费多少'), '满88元包邮。');
  });

  test('rollback is a new version with an old content, draft included', async () => {
    const rolled = await api.ok<{ version: VersionRecord }>('POST', `${R}/versions/2/rollback`, {
      author: 'admin',
    });
    assert.equal(rolled.version.version, 4);
    assert.equal(rolled.version.rolledBackTo, 2);
    assert.equal(rolled.version.changed, 1);
    assert.equal(await answerOf('运费多少'), '满88元包邮。');
    const draft = await api.ok<TryResult>('POST', `${R}/try`, { question: '运费多少' });
    assert.equal(draft.result.answer, '满88元包邮。');
    const diff = await api.ok<RulesDiff>('GET', `${R}/versions/diff?from=2&to=4`);
    assert.deepEqual(diff, { added: [], removed: [], changed: [] });
    const history = await api.ok<VersionHistory>('GET', `${R}/versions`);
    assert.deepEqual(
      history.versions.map((v) => v.version),
      [4, 3, 2, 1],
    );
    assert.equal(history.draftChanged, false);
    const unknown = await api.call('POST', `${R}/versions/99/rollback`, { author: 'admin' });
    assert.equal(unknown.status, 404);
    const rules = await api.ok<{ rules: { ruleName: string }[] }>('GET', `${R}/versions/1/rules`);
    assert.deepEqual(
      rules.rules.map((r) => r.ruleName).sort(),
      ['营业时间', '运费', '退货'].sort(),
    );
  });

  test('threshold curves count answered, right, wrong and recommended', async () => {
    const curves = await api.ok<ThresholdCurves>('GET', `${R}/thresholds`);
    assert.equal(curves.cases, 4);
    assert.equal(curves.bestmatch.length, 51);
    const strictest = curves.bestmatch.at(-1);
    const loosest = curves.bestmatch[0];
    assert.ok(strictest && loosest && strictest.answered <= loosest.answered);
    for (const point of curves.bestmatch) assert.equal(point.right + point.wrong, point.answered);
  });

  test('review mode and the published version survive a restart', async () => {
    await api.ok('PATCH', `${R}/rules/${ids['退货']}`, { answer: '十四天无理由退货。' });
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    robot = h.client.robot(robot.tenantId, robot.robotId, robot.robotSecret);
    assert.equal(await answerOf('怎么退货'), '七天无理由退货。');
    const draft = await api.ok<TryResult>('POST', `${R}/try`, { question: '怎么退货' });
    assert.equal(draft.result.answer, '十四天无理由退货。');
  });

  test('back to live mode publishes the draft, so answers are the draft’s again', async () => {
    await api.ok('PATCH', R, { settings: { publishMode: 'live' } });
    assert.equal(await answerOf('怎么退货'), '十四天无理由退货。');
    const history = await api.ok<VersionHistory>('GET', `${R}/versions`);
    assert.equal(history.versions[0]?.modeSwitch, 'live');
    assert.equal(history.versions[0]?.note, '', 'a fact, said by the editor in its language');
    assert.equal(history.versions[0]?.author, 'editor', 'the desktop editor switched');
    assert.equal(history.draftChanged, false);
  });
});
