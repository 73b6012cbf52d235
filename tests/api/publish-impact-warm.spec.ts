/**
 * The impact preview's published side worked out ahead (decision 179), over real HTTP on either
 * store: a robot in review mode whose published index was just built (the switch of mode) or
 * followed a publish has last week's questions answered by it in the background, so the first
 * preview the editor runs asks the draft only (`fromAsked` 0) and counts what a cold one does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ImpactJob, ImpactReport } from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('impact preview: the published side warmed before the first preview', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  const ids: Record<string, string> = {};

  /** A preview as the editor runs it: a job, polled until it ends. */
  const preview = async (): Promise<ImpactReport> => {
    const started = await api.ok<ImpactJob>('POST', `${R}/versions/impact/jobs`, {});
    let job: ImpactJob = started;
    while (job.state === 'running') {
      job = await api.ok<ImpactJob>('GET', `${R}/versions/impact/jobs/${started.jobId}`);
    }
    assert.equal(job.state, 'done', JSON.stringify(job));
    return (job as Extract<ImpactJob, { state: 'done' }>).report;
  };
  const askTimes = async (question: string, times: number) => {
    for (let i = 0; i < times; i++) await robot.ask(question);
  };

  before(async () => {
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
    // Customers' asks, 14 over 4 distinct questions, before the robot goes into review mode.
    await askTimes('几点开门', 5);
    await askTimes('怎么退货', 3);
    await askTimes('发票怎么开', 2);
    await askTimes('包邮吗', 4);
  });
  after(() => h.close());

  test('after the switch to review mode builds the published index, the first preview asks the draft only', async () => {
    // The switch publishes the draft and builds the published index: its warm-up is scheduled.
    await api.ok('PATCH', R, { settings: { publishMode: 'review' } });
    await api.ok('PATCH', `${R}/rules/${ids['营业时间']}`, { answer: '每天十点开门。' });
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [ids['退货']] });
    const report = await preview();
    assert.equal(report.replayed, 4);
    assert.equal(report.fromAsked, 0, 'no question asked of the published side');
    assert.ok(report.matched > 0, 'the draft was asked');
    assert.deepEqual(
      [report.kinds.otherAnswer.asks, report.kinds.newlyUnanswered.asks],
      [5, 3],
      JSON.stringify(report.kinds),
    );
    assert.equal(report.changed.asks, 8);
  });

  test('after a publish the published side is warmed again', async () => {
    // Logged before the publish: the warm-up it schedules reads them.
    await askTimes('运费多少', 2);
    const published = await api.call('POST', `${R}/versions`, { note: 'v2', author: 'admin' });
    assert.equal(published.status, 200);
    await api.ok('PATCH', `${R}/rules/${ids['运费']}`, { answer: '满66元包邮。' });
    const report = await preview();
    assert.equal(report.replayed, 5);
    assert.equal(report.fromAsked, 0, 'no question asked of the published side');
    assert.equal(report.kinds.otherAnswer.asks, 6, JSON.stringify(report.kinds));
    assert.equal(report.changed.asks, 6);
  });
});
