/**
 * The question log as a service runs it: made with the domain's context (it is the context's
 * AskRecorder), reading the robots' retention settings from the directory the context holds;
 * once the robots are loaded, retention is enforced at start and every hour.
 * @module
 */
import type { RobotDirectory } from '../domain/robot-directory';
import type { Logger } from '../logger';
import type { QuestionLogRepository } from '../store/contract/question-log';
import { QuestionLog } from './question-log';

const HOUR_MS = 60 * 60 * 1000;
/** A BESTMATCH this close above the robot's threshold is shown in the inbox (low score). */
const LOW_SCORE_MARGIN = 0.03;

/** What the log reads of the service: the context's parts, before the context is built. */
export interface QuestionLogParts {
  /** The robots' directory (loaded after the log is made). */
  robots: RobotDirectory;
  now: () => number;
  logger: Logger;
}

export interface RunningQuestionLog {
  log: QuestionLog;
  /** Enforces retention now (once the robots are loaded) and every hour from then on. */
  keepRetention(): Promise<void>;
  /** Stops the retention timer and writes what is buffered. */
  stop(): Promise<void>;
}

export function startQuestionLog(
  parts: QuestionLogParts,
  repository: QuestionLogRepository,
): RunningQuestionLog {
  const log = new QuestionLog({
    repository,
    now: parts.now,
    logger: parts.logger,
    robot: (key) => {
      const [tenantId = '', robotId = ''] = key.split('/');
      const robot = parts.robots.get(Number(tenantId), robotId);
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
      (removed) => removed > 0 && parts.logger.info(`question log: ${removed} old entries removed`),
      (error: unknown) => parts.logger.error('could not apply the question log retention', error),
    );
  let timer: NodeJS.Timeout | undefined;
  return {
    log,
    async keepRetention() {
      await retain();
      timer = setInterval(() => void retain(), HOUR_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await log.close();
    },
  };
}
