/** Runs a robot's test set over the console API and waits for the run (tests of test sets). */
import assert from 'node:assert/strict';
import type { RunJob, TestRun } from '../../electron/service/publishing-types';
import type { consoleClient } from './console-client';

/** `R`: the robot's console path (`/tenants/{id}/robots/{id}`). */
export async function runTestSet(
  api: ReturnType<typeof consoleClient>,
  R: string,
  target = 'draft',
): Promise<TestRun> {
  let job = await api.ok<RunJob>('POST', `${R}/test-runs`, { target });
  while (job.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    job = await api.ok<RunJob>('GET', `${R}/test-runs/jobs/${job.jobId}`);
  }
  assert.equal(job.state, 'done', JSON.stringify(job));
  return api.ok<TestRun>('GET', `${R}/test-runs/${job.state === 'done' ? job.runId : 0}`);
}
