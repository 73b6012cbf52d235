/**
 * What every domain operation needs, passed explicitly (no module-level singletons).
 * @module
 */
import type { Logger } from '../logger';
import type { KbStore } from '../repositories/store';
import type { AnswerCache } from './answer-cache';
import type { AskRecorder } from './ask';
import type { RobotDirectory } from './robot-directory';
import type { RobotIndexes } from './robot-indexes';
import type { RuleOrders } from './rule-order';
import type { WriteQueue } from './write-queue';

export interface DomainContext {
  store: KbStore;
  /** Robots with their secrets and settings. */
  robots: RobotDirectory;
  /** Matching indexes of the robots. */
  indexes: RobotIndexes;
  /** Answers of recently answered rules. */
  answers: AnswerCache;
  /** Creation order of the robots' rules (list paging). */
  orders: RuleOrders;
  /** Orders the writes of each robot (write-queue.ts). */
  writes: WriteQueue;
  now: () => number;
  logger: Logger;
  /** Told of every answered question (the question log); none when the log is off. */
  questionLog?: AskRecorder;
}
