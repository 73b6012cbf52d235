/**
 * What every domain operation needs, passed explicitly (no module-level singletons).
 * @module
 */
import type { Logger } from '../logger';
import type { MatchDecision } from '../matching/types';
import type { KbStore } from '../store/contract/store';
import type { AnswerCache } from './answer-cache';
import type { AskRecorder } from './ask';
import type { PublishingHooks } from './editions';
import type { RobotDirectory } from './robot-directory';
import type { RobotSettings } from './robot-settings';
import type { RobotIndexes } from './robot-indexes';
import type { RuleMenus } from './rule-menus';
import type { RuleOrders } from './rule-order';
import type { WriteQueue } from './write-queue';

/** A small-talk reply, or null when the question is not small talk or a rule matches better. */
export interface SmallTalkReply {
  /** The reply text, in the question's language, with the robot's persona and own answers. */
  answer: string;
  score: number;
  /** Which small-talk intent (`greeting.en` …): shown in the try pane. */
  intent: string;
  /** The built-in phrasing that matched. */
  question: string;
}

/** The built-in small talk (chitchat/), given the knowledge base's own decision first. */
export interface SmallTalk {
  reply(
    question: string,
    kb: MatchDecision,
    settings: RobotSettings,
    nowMs: number,
  ): SmallTalkReply | null;
}

export interface DomainContext {
  store: KbStore;
  /** Robots with their secrets and settings. */
  robots: RobotDirectory;
  /** Matching indexes of the robots. */
  indexes: RobotIndexes;
  /** Answers of recently answered rules. */
  answers: AnswerCache;
  /** The rules' menus (rule-menus.ts); absent: no rule is answered as a menu. */
  menus?: RuleMenus;
  /** Small talk answered when no rule matches (module CHAT); absent: none. */
  smallTalk?: SmallTalk;
  /** Creation order of the robots' rules (list paging). */
  orders: RuleOrders;
  /** Orders the writes of each robot (write-queue.ts). */
  writes: WriteQueue;
  now: () => number;
  logger: Logger;
  /** Told of every answered question (the question log); none when the log is off. */
  questionLog?: AskRecorder;
  /** The published editions of robots in review mode (publishing/, set by index.ts). */
  publishing?: PublishingHooks;
}
