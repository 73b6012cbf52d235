/**
 * What every domain operation needs, passed explicitly (no module-level singletons). The host
 * builds it once, complete (electron/service/index.ts): nothing is plugged in afterwards.
 * @module
 */
import type { Logger } from '../logger';
import type { KbStore } from '../store/contract/store';
import type { AnswerCache } from './answer-cache';
import type { AskRecorder, OpenMenus, PublishingHooks, SemanticSearch, SmallTalk } from './ports';
import type { RobotDirectory } from './robot-directory';
import type { RobotIndexes } from './robot-indexes';
import type { RuleMenus } from './rule-menus';
import type { RuleOrders } from './rule-order';
import type { WriteQueue } from './write-queue';

export interface DomainContext {
  readonly store: KbStore;
  /** Robots with their secrets and settings. */
  readonly robots: RobotDirectory;
  /** Matching indexes of the robots. */
  readonly indexes: RobotIndexes;
  /** Answers of recently answered rules. */
  readonly answers: AnswerCache;
  /** The rules' menus (rule-menus.ts); absent: no rule is answered as a menu. */
  readonly menus?: RuleMenus;
  /** Small talk answered when no rule matches (module CHAT); absent: none. */
  readonly smallTalk?: SmallTalk;
  /**
   * The menu each user was last shown (conversation.ts): a reply choosing one of its entries is
   * answered with that entry's rule. Absent: menu entries are not followed up.
   */
  readonly openMenus?: OpenMenus;
  /** Creation order of the robots' rules (list paging). */
  readonly orders: RuleOrders;
  /** Orders the writes of each robot (write-queue.ts). */
  readonly writes: WriteQueue;
  readonly now: () => number;
  readonly logger: Logger;
  /** Told of every answered question (the question log); none when the log is off. */
  readonly questionLog?: AskRecorder;
  /** The published editions of robots in review mode (publishing/); none: the draft answers. */
  readonly publishing?: PublishingHooks;
  /** The robots' embedding models (embedding/); none: lexical matching alone. */
  readonly semantic?: SemanticSearch;
}
