/**
 * The question log as a service runs it: made with the domain's context (it is the context's
 * AskRecorder), reading the robots' log settings from the directory the context holds; once the
 * robots are loaded, every log is opened and its budgets applied, then every hour (and at once
 * when a robot's budget settings change).
 * @module
 */
import type { RobotDirectory } from '../domain/robot-directory';
import type { Logger } from '../logger';
import type { QuestionLogRepository } from '../store/contract/question-log';
import { QuestionLog } from './question-log';

const HOUR_MS = 60 * 60 * 1000;
/** A BESTMATCH this close above the robot's threshold is shown in the inbox (low score). */
const LOW_SCORE_MARGIN = 0.03;
/**
 * A RECOMMEND's first item is evidence of the rule meant (a suggestion in the inbox) from this
 * share of the robot's BESTMATCH threshold on, when it leads the second by the robot's margin.
 */
const EVIDENCE_SHARE = 0.75;

/** What the log reads of the service: the context's parts, before the context is built. */
export interface QuestionLogParts {
  /** The robots' directory (loaded after the log is made). */
  robots: RobotDirectory;
  now: () => number;
  logger: Logger;
}

export interface RunningQuestionLog {
  log: QuestionLog;
  /**
   * Opens every log and applies its budgets (once the robots are loaded), in the background: a
   * log whose figures must be rebuilt from its entries (an upgrade) takes a while, and the
   * service answers meanwhile. Then every hour.
   */
  keepRetention(): Promise<void>;
  /** Stops the retention timer, writes what is buffered and saves the figures. */
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
      const { settings } = robot;
      return {
        retentionDays: settings.logRetentionDays,
        maxBytes: settings.logMaxMegabytes * 1024 * 1024,
        lowScore: Math.min(1, settings.bestmatchThreshold + LOW_SCORE_MARGIN),
        evidenceScore: settings.bestmatchThreshold * EVIDENCE_SHARE,
        margin: settings.margin,
      };
    },
  });
  const retain = (started?: () => void) =>
    log.enforceRetention(started).then(
      (removed) => removed > 0 && parts.logger.info(`question log: ${removed} old entries removed`),
      (error: unknown) => parts.logger.error('could not apply the question log retention', error),
    );
  let timer: NodeJS.Timeout | undefined;
  return {
    log,
    async keepRetention() {
      // Under way (each read waits for its log's first pass), not done: rebuilding the figures
      // of a log after an upgrade takes a while, and the service answers meanwhile.
      await new Promise<void>((started) => void retain(started).finally(started));
      timer = setInterval(() => void retain(), HOUR_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await log.close();
    },
  };
}
