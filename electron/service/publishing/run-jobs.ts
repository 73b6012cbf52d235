/**
 * Test runs under way, with their progress: a run is started by one request and followed by
 * others (the editor's progress bar); once done, it is read from the kept runs.
 * @module
 */
import type { RunJob } from '../publishing-types';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { ServiceError } from '../errors';
import { runTestSet } from './test-runs';
import type { Target } from './targets';

/** A finished job is remembered this long for late pollers. */
const KEEP_MS = 10 * 60 * 1000;

export class RunJobs {
  private readonly jobs = new Map<string, RunJob & { robot: string }>();
  private next = 1;

  constructor(private readonly ctx: DomainContext) {}

  start(robot: Robot, target: Target): RunJob {
    const jobId = String(this.next++);
    const key = `${robot.tenantId}/${robot.robotId}`;
    const job: RunJob & { robot: string } = {
      jobId,
      state: 'running',
      done: 0,
      total: 0,
      robot: key,
    };
    this.jobs.set(jobId, job);
    const set = (next: RunJob) => this.jobs.set(jobId, { ...next, robot: key });
    runTestSet(this.ctx, robot, target, (done, total) => {
      job.done = done;
      job.total = total;
    })
      .then(
        (run) => set({ jobId, state: 'done', done: job.done, total: job.total, runId: run.runId }),
        (error: unknown) => {
          const message = error instanceof ServiceError ? error.message : 'The test run failed.';
          if (!(error instanceof ServiceError)) this.ctx.logger.error('test run failed', error);
          set({ jobId, state: 'failed', done: job.done, total: job.total, message });
        },
      )
      .finally(() => setTimeout(() => this.jobs.delete(jobId), KEEP_MS).unref());
    return this.view(job);
  }

  get(robot: Robot, jobId: string): RunJob {
    const job = this.jobs.get(jobId);
    if (!job || job.robot !== `${robot.tenantId}/${robot.robotId}`) {
      throw new ServiceError('test-run-not-found', `Test run job ${jobId} is not known.`);
    }
    return this.view(job);
  }

  private view(job: RunJob & { robot: string }): RunJob {
    const view: RunJob & { robot?: string } = { ...job };
    delete view.robot;
    return view;
  }
}
