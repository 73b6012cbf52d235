/**
 * What every domain operation needs, passed explicitly (no module-level singletons).
 * @module
 */
import type { Logger } from '../logger';
import type { KbStore } from '../repositories/store';
import type { AnswerCache } from './answer-cache';
import type { PublishingHooks } from './editions';
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
  /** The published editions of robots in review mode (publishing/, set by index.ts). */
  publishing?: PublishingHooks;
}
