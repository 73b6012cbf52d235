/**
 * What a publish changes for customers, over real HTTP on either store: the logged questions
 * replayed against two targets, counted by kind with their ask weights, and the publish gate
 * that refuses a publish changing too many of them (docs/publishing.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type {
  ImpactJob,
  ImpactReport,
  VersionRecord,
} from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('publish impact preview and gate', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  const ids: Record<string, string> = {};

  const publish = (note: string, extra: object = {}) =>
    api.call<{ version: VersionRecord }>('POST', `${R}/versions`, {
      note,
      author: 'admin',
      ...extra,
    });
  const impact = (query = '') => api.ok<ImpactReport>('GET', `${R}/versions/impact${query}`);
  const askTimes = async (question: string, times: number) => {
    for (let i = 0; i < times; i++) await robot.ask(question);
  };

  before(async () => {
    // Every preview replays on the worker thread (impact-thread.ts), however few its questions:
    // its report and its job are the loop's (tests/unit/publishing/impact-thread.test.ts).
    h = await startTestService({ impactWorkerMinQuestions: 0 });
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
    assert.equal((await publish('v1')).status, 200);
    // Customers' asks of the published knowledge: 15 in all, over 5 distinct questions.
    await askTimes('几点开门', 5);
    await askTimes('怎么退货', 3);
    await askTimes('发票怎么开', 2);
    await askTimes('包邮吗', 4);
    await askTimes('运费多少', 1);
    // The try pane's asks are the editor's, not customers': they do not count.
    for (let i = 0; i < 6; i++) {
      await api.ok('POST', `${R}/try`, { question: '几点开门' });
    }
    // The draft: a changed answer, a rule deleted, a new rule, a phrasing moved to another rule.
    await api.ok('PATCH', `${R}/rules/${ids['营业时间']}`, { answer: '每天十点开门。' });
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [ids['退货']] });
    await api.ok('POST', `${R}/rules`, {
      ruleName: '发票',
      questions: ['发票怎么开'],
      answer: '可以开电子发票。',
    });
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { questions: ['运费多少'] });
    await api.ok('POST', `${R}/rules`, {
      ruleName: '包邮',
      questions: ['包邮吗'],
      answer: '满99元包邮。',
    });
  });
  after(() => h.close());

  test('the draft against the published version: each kind counted with its asks', async () => {
    const report = await impact();
    assert.equal(report.from, 'published');
    assert.equal(report.to, 'draft');
    assert.equal(report.days, 7);
    assert.equal(report.asks, 15);
    assert.equal(report.questions, 5);
    assert.equal(report.replayed, 5);
    assert.equal(report.replayedAsks, 15);
    assert.equal(report.capped, false);
    const { newlyAnswered, newlyUnanswered, otherRule, otherAnswer } = report.kinds;
    assert.deepEqual(
      [newlyAnswered.asks, newlyUnanswered.asks, otherRule.asks, otherAnswer.asks],
      [2, 3, 4, 5],
    );
    assert.deepEqual(
      [newlyAnswered.questions, newlyUnanswered.questions, otherRule.questions],
      [1, 1, 1],
    );
    assert.equal(otherAnswer.share, Math.round((5 / 15) * 10_000) / 10_000);
    assert.deepEqual(report.changed, {
      questions: 4,
      asks: 14,
      share: Math.round((14 / 15) * 10_000) / 10_000,
    });
    const [moved] = otherRule.examples;
    assert.equal(moved?.question, '包邮吗');
    assert.equal(moved?.asks, 4);
    assert.deepEqual(moved?.before, { kind: 'bestmatch', ruleId: ids['运费'], ruleName: '运费' });
    assert.equal(moved?.after.ruleName, '包邮');
    const [gone] = newlyUnanswered.examples;
    assert.equal(gone?.question, '怎么退货');
    assert.equal(gone?.before.ruleId, ids['退货']);
    assert.equal(gone?.after.ruleId, null);
    assert.equal(newlyAnswered.examples[0]?.after.ruleName, '发票');
    assert.equal(otherAnswer.examples[0]?.question, '几点开门');
  });

  /** Starts a preview as a job, then polls it until it ends (each poll a request). */
  const runJob = async (body: object): Promise<ImpactJob> => {
    const started = await api.ok<ImpactJob>('POST', `${R}/versions/impact/jobs`, body);
    assert.equal(started.state, 'running');
    let job: ImpactJob = started;
    while (job.state === 'running') {
      job = await api.ok<ImpactJob>('GET', `${R}/versions/impact/jobs/${started.jobId}`);
    }
    return job;
  };

  test('run as a job the editor polls: the same report, after its progress', async () => {
    // Without what depends on the moment it ran (its time, the start of its window).
    const timeless = ({ ms: _ms, since: _since, ...rest }: ImpactReport) => rest;
    const direct = timeless(await impact());
    const job = await runJob({});
    assert.equal(job.state, 'done', JSON.stringify(job));
    assert.equal(job.done, job.total);
    assert.deepEqual(job.state === 'done' && timeless(job.report), direct);
    const failed = await runJob({ from: '9' });
    assert.equal(failed.state, 'failed');
    assert.match(failed.state === 'failed' ? failed.message : '', /Version 9/);
    const bad = await api.call('POST', `${R}/versions/impact/jobs`, { days: 0 });
    assert.equal(bad.status, 400);
    const unknown = await api.call('GET', `${R}/versions/impact/jobs/999`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'impact-job-not-found');
  });

  test('a one-day window holds the asks of today; a bad day count or version is refused', async () => {
    // Every ask was made just now: a window of 1 day still holds them.
    assert.equal((await impact('?days=1')).asks, 15);
    const bad = await api.call('GET', `${R}/versions/impact?days=0`);
    assert.equal(bad.status, 400);
    const missing = await api.call('GET', `${R}/versions/impact?from=9`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'version-not-found');
  });

  test('the gate refuses a publish above its share, with the figures, and passes below', async () => {
    await api.ok('PATCH', R, { settings: { impactGatePercent: 50 } });
    const refused = await publish('too much');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'publish-impact-too-large');
    const data = refused.body.data as unknown as { params: Record<string, number> };
    assert.equal(data.params.percent, 93.3);
    assert.equal(data.params.limit, 50);
    assert.equal(data.params.asks, 15);
    assert.equal(data.params.changedAsks, 14);
    assert.equal(
      (await api.ok<{ versions: unknown[] }>('GET', `${R}/versions`)).versions.length,
      1,
    );
    await api.ok('PATCH', R, { settings: { impactGatePercent: 95 } });
    const passed = await publish('within the gate');
    assert.equal(passed.status, 200, JSON.stringify(passed.body));
    assert.equal(passed.body.data.version.version, 2);
  });

  test('between two versions, either way round', async () => {
    const forward = await impact('?from=1&to=v2');
    assert.equal(forward.from, 'v1');
    assert.equal(forward.to, 'v2');
    assert.equal(forward.changed.asks, 14);
    const back = await impact('?from=2&to=1');
    assert.equal(back.kinds.newlyAnswered.asks, 3);
    assert.equal(back.kinds.newlyUnanswered.asks, 2);
    assert.equal(back.kinds.otherRule.asks, 4);
    assert.equal(back.kinds.otherAnswer.asks, 5);
  });

  test('a refused publish goes through when confirmed; null turns the gate off', async () => {
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { answer: '满88元包邮。' });
    await api.ok('PATCH', R, { settings: { impactGatePercent: 5 } });
    const refused = await publish('one in fifteen');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'publish-impact-too-large');
    const confirmed = await publish('confirmed', { confirmImpact: true });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { answer: '满77元包邮。' });
    const robotView = await api.ok<{ settings: { impactGatePercent: number } }>('PATCH', R, {
      settings: { impactGatePercent: null },
    });
    assert.equal(robotView.settings.impactGatePercent, 100);
    assert.equal((await publish('gate off')).status, 200);
  });

  test('only the questions a changed rule can reach are asked again', async () => {
    // The draft is the latest version: nothing differs, nothing is asked.
    const same = await impact();
    assert.equal(same.replayed, same.questions);
    assert.equal(same.matched, 0);
    assert.equal(same.changed.questions, 0);
    // One rule's answer changes: only its question (运费多少) shares a term with it.
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { answer: '满66元包邮。' });
    const one = await impact();
    assert.equal(one.matched, 1);
    assert.equal(one.kinds.otherAnswer.questions, 1);
    assert.equal(one.kinds.otherAnswer.examples[0]?.question, '运费多少');
    assert.equal(one.changed.questions, 1);
  });
});
