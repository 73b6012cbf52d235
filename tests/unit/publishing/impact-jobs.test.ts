import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_ROBOT_SETTINGS } from '../../../electron/service/domain/robot-settings';
import type { Robot } from '../../../electron/service/domain/robot-directory';
import { createRobotIndex } from '../../../electron/service/matching/index';
import { ImpactJobs } from '../../../electron/service/publishing/impact-jobs';
import type { ImpactJobContext } from '../../../electron/service/publishing/impact-jobs';
import type { ImpactWatch } from '../../../electron/service/publishing/impact';
import type { ImpactReport } from '../../../electron/service/publishing-types';

const robot: Robot = {
  tenantId: 1,
  robotId: 'default',
  name: 'r',
  secret: 's',
  settings: DEFAULT_ROBOT_SETTINGS,
  storedSettings: {},
};
const rule = (phrasing: string) => ({
  ruleId: 'r1',
  ruleName: phrasing,
  questions: [phrasing],
  active: true,
  effectBeginMs: null,
  effectEndMs: null,
});

/** A service of one robot, and a preview that replays two slices when the test says so. */
function harness() {
  const index = createRobotIndex({ selfCalibration: false });
  index.upsert(rule('opening hours'));
  let current: Robot = robot;
  const ctx: ImpactJobContext = {
    indexes: { peek: () => index },
    robots: { get: () => current },
    logger: { error: () => undefined },
  };
  const waiting: (() => void)[] = [];
  const runs: { request: unknown }[] = [];
  const jobs = new ImpactJobs(ctx, async (_robot, request, watch: ImpactWatch) => {
    runs.push({ request });
    watch.progress?.(1, 2);
    await new Promise<void>((resolve) => waiting.push(resolve));
    watch.progress?.(2, 2);
    watch.signal?.throwIfAborted();
    return { to: 'draft' } as ImpactReport;
  });
  const settle = async () => {
    for (const release of waiting.splice(0)) release();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    jobs,
    runs,
    settle,
    index,
    renameRobot: () => (current = { ...robot }),
  };
}

const request = { from: 'published' as const, to: 'draft' as const, days: 7 };

test('a job reports its progress, then its report; the same pair while it runs is the same job', async () => {
  const h = harness();
  const started = h.jobs.start(robot, request);
  assert.equal(started.state, 'running');
  assert.deepEqual(h.jobs.get(robot, started.jobId), {
    jobId: started.jobId,
    state: 'running',
    done: 1,
    total: 2,
  });
  assert.equal(h.jobs.start(robot, request).jobId, started.jobId);
  assert.equal(h.runs.length, 1);
  const other = h.jobs.start(robot, { ...request, days: 1 });
  assert.notEqual(other.jobId, started.jobId);
  await h.settle();
  const done = h.jobs.get(robot, started.jobId);
  assert.equal(done.state, 'done');
  assert.deepEqual(done.state === 'done' && done.report, { to: 'draft' });
  // Done: starting again is a new run.
  assert.notEqual(h.jobs.start(robot, request).jobId, started.jobId);
});

test('a change of the draft cancels the job under way', async () => {
  const h = harness();
  const { jobId } = h.jobs.start(robot, request);
  h.index.upsert(rule('opening hours today'));
  await h.settle();
  const job = h.jobs.get(robot, jobId);
  assert.equal(job.state, 'cancelled');
  assert.match(job.state === 'cancelled' ? job.message : '', /changed/);
});

test("a change of the robot's settings cancels the job under way", async () => {
  const h = harness();
  const { jobId } = h.jobs.start(robot, request);
  h.renameRobot();
  await h.settle();
  assert.equal(h.jobs.get(robot, jobId).state, 'cancelled');
});

test("another robot's job, or an unknown one, is not found", () => {
  const h = harness();
  const { jobId } = h.jobs.start(robot, request);
  assert.throws(() => h.jobs.get({ ...robot, robotId: 'other' }, jobId), {
    code: 'impact-job-not-found',
  });
  assert.throws(() => h.jobs.get(robot, '999'), { code: 'impact-job-not-found' });
});
