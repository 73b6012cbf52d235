/**
 * Plugs the question log into a running service (after its robots are loaded): the robots'
 * retention settings, retention enforced at start and every hour, the domain's recorder.
 * @module
 */
import type { DomainContext } from '../domain/context';
import type { QuestionLogRepository } from '../store/contract/question-log';
import { QuestionLog } from './question-log';

const HOUR_MS = 60 * 60 * 1000;
/** A BESTMATCH this close above the robot's threshold is shown in the inbox (low score). */
const LOW_SCORE_MARGIN = 0.03;

export interface RunningQuestionLog {
  log: QuestionLog;
  /** Stops the retention timer and writes what is buffered. */
  stop(): Promise<void>;
}

export async function startQuestionLog(
  ctx: DomainContext,
  repository: QuestionLogRepository,
): Promise<RunningQuestionLog> {
  const log = new QuestionLog({
    repository,
    now: ctx.now,
    logger: ctx.logger,
    robot: (key) => {
      const [tenantId = '', robotId = ''] = key.split('/');
      const robot = ctx.robots.get(Number(tenantId), robotId);
      if (!robot) return undefined;
      return {
        retentionDays: robot.settings.logRetentionDays,
        maxBytes: robot.settings.logMaxMegabytes * 1024 * 1024,
        lowScore: Math.min(1, robot.settings.bestmatchThreshold + LOW_SCORE_MARGIN),
      };
    },
  });
  const retain = () =>
    log.enforceRetention().then(
      (removed) => removed > 0 && ctx.logger.info(`question log: ${removed} old entries removed`),
      (error: unknown) => ctx.logger.error('could not apply the question log retention', error),
    );
  await retain();
  const timer = setInterval(() => void retain(), HOUR_MS);
  timer.unref();
  ctx.questionLog = log;
  return {
    log,
    stop: async () => {
      clearInterval(timer);
      await log.close();
    },
  };
}
