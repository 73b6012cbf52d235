/**
 * Impact previews run as jobs: on a large log a preview takes longer than a request should
 * wait (every question of a realistic log shares a word with some changed rule, and each is
 * asked twice), so the editor starts one and polls its progress (decision 108). One job per
 * robot and pair of targets (and days): starting it again while it runs follows the same job.
 * A job is cancelled when the robot changes under it (its draft's rules, its settings or its
 * published version), whose answer it would no longer describe.
 * @module
 */
import type { ImpactJob, ImpactReport } from '../publishing-types';
import type { PublishingHooks } from '../domain/ports';
import { robotKey } from '../domain/robot-directory';
import type { Robot, RobotDirectory } from '../domain/robot-directory';
import type { RobotIndexes } from '../domain/robot-indexes';
import type { Logger } from '../logger';
import { indexKey } from '../domain/robot-loading';
import { ServiceError } from '../errors';
import type { ImpactRequest, ImpactWatch } from './impact';

/** What a job reads of the service: the robot's state, to see it change. */
export interface ImpactJobContext {
  indexes: Pick<RobotIndexes, 'peek'>;
  robots: Pick<RobotDirectory, 'get'>;
  publishing?: Pick<PublishingHooks, 'published'>;
  logger: Pick<Logger, 'error'>;
}

/** Runs one preview (impact.ts's `impactOf`, bound to the service). */
export type ImpactRunner = (
  robot: Robot,
  request: ImpactRequest,
  watch: ImpactWatch,
) => Promise<ImpactReport>;

/** A finished job is kept this long for late pollers. */
const KEEP_MS = 10 * 60 * 1000;

const CANCELLED = 'The robot changed while the preview ran: run it again.';

interface Running {
  job: ImpactJob;
  robot: string;
  pair: string;
  abort: AbortController;
}

/** What the preview's answer depends on, read without waiting (checked after every slice). */
function robotState(ctx: ImpactJobContext, robot: Robot): readonly unknown[] {
  const draft = ctx.indexes.peek(indexKey(robot));
  return [
    // A settings change (thresholds, synonyms, mode) replaces the directory's robot.
    ctx.robots.get(robot.tenantId, robot.robotId),
    draft,
    draft?.generation,
    ctx.publishing?.published(robot)?.version,
  ];
}

const sameState = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((value, i) => value === b[i]);

export class ImpactJobs {
  private readonly jobs = new Map<string, Running>();
  private next = 1;

  constructor(
    private readonly ctx: ImpactJobContext,
    private readonly run: ImpactRunner,
  ) {}

  /** Starts the preview of `request`, or follows the one of the same pair under way. */
  start(robot: Robot, request: ImpactRequest): ImpactJob {
    const key = robotKey(robot);
    const pair = `${request.from}>${request.to}/${request.days}`;
    for (const running of this.jobs.values()) {
      if (running.robot === key && running.pair === pair && running.job.state === 'running') {
        return { ...running.job };
      }
    }
    const jobId = String(this.next++);
    const running: Running = {
      job: { jobId, state: 'running', done: 0, total: 0 },
      robot: key,
      pair,
      abort: new AbortController(),
    };
    this.jobs.set(jobId, running);
    // The state is taken once the preview has its targets (its first slice): loading the
    // draft's index on demand is not a change.
    let state: readonly unknown[] | null = null;
    const progress = (done: number, total: number) => {
      const now = robotState(this.ctx, robot);
      if (state === null) state = now;
      else if (!sameState(state, now)) running.abort.abort();
      running.job = { jobId, state: 'running', done, total };
    };
    const { signal } = running.abort;
    this.run(robot, request, { progress, signal })
      .then(
        (report) => {
          const { done, total } = running.job;
          running.job = { jobId, state: 'done', done, total, report };
        },
        (error: unknown) => {
          const { done, total } = running.job;
          if (signal.aborted) {
            running.job = { jobId, state: 'cancelled', done, total, message: CANCELLED };
            return;
          }
          if (!(error instanceof ServiceError))
            this.ctx.logger.error('impact preview failed', error);
          const message = error instanceof ServiceError ? error.message : 'The preview failed.';
          running.job = { jobId, state: 'failed', done, total, message };
        },
      )
      .finally(() => setTimeout(() => this.jobs.delete(jobId), KEEP_MS).unref());
    return { ...running.job };
  }

  /** The job's progress, or its report once done. */
  get(robot: Robot, jobId: string): ImpactJob {
    const running = this.jobs.get(jobId);
    if (!running || running.robot !== robotKey(robot)) {
      throw new ServiceError('impact-job-not-found', `Impact preview job ${jobId} is not known.`);
    }
    return { ...running.job };
  }
}
