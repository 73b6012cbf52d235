/**
 * The domain's ports: what the rooms beside it (publishing/, question-log/, chitchat/,
 * conversation/) implement and the host gives to the context (context.ts). Types only, importing
 * nothing of the domain's behaviour, so that the context and the modules that use a port never
 * import each other.
 * @module
 */
import type { AskResult, MenuItem } from '../api-types';
import type { SemanticNote } from '../console-types';
import type { CandidateChannel, MatchDecision, RobotIndex } from '../matching/types';
import type { LoggedQuestion } from '../question-log-types';
import type { RobotKey } from '../store/contract/records';
import type { Robot } from './robot-directory';
import type { RobotSettings } from './robot-settings';

/**
 * Told of every question answered (the question log). Called in the ask's turn: it must only
 * buffer.
 */
export interface AskRecorder {
  record(robot: RobotKey, entry: LoggedQuestion, items: AskResult['items']): void;
}

/** The rules a question is answered from: the draft, or a published version (editions.ts). */
export interface Edition {
  readonly index: RobotIndex;
  /**
   * The published version these rules are (what the question log records as the version that
   * answered); null for the draft.
   */
  readonly version: number | null;
  answerOf(ruleId: string): Promise<string | undefined>;
  namesOf(ruleIds: readonly string[]): Promise<Map<string, string>>;
}

/** The published editions (publishing/): the domain tells them of robot changes. */
export interface PublishingHooks {
  /** The robot's published edition when it is in review mode; undefined in live mode. */
  published(robot: Robot): Edition | undefined;
  /**
   * Called in the robot's write queue after its settings changed (a new publish mode, new
   * synonyms), for the published edition to follow. `actor`: who changed them, when known.
   */
  robotChanged(before: Robot, after: Robot, actor?: string): Promise<void>;
  /** A robot (or its tenant) went to the trash: its published edition leaves memory. */
  robotRemoved(robot: Robot): void;
  /** A robot came back from the trash: its published edition is made again. */
  robotRestored(robot: Robot): Promise<void>;
  /**
   * Another node of a team server published, or changed the robot's mode or synonyms: the
   * published edition follows the store as it is now, without writing anything itself.
   */
  followStored(robot: Robot): Promise<void>;
}

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

/**
 * The menu each user was last shown, for a while (conversation/menu-memory.ts): a reply that
 * names one of its entries, by number or text, is answered with that entry's rule. Keyed by a
 * conversation (a robot and a channel) and the user's id.
 */
export interface OpenMenus {
  /** Opens a menu for the user (replacing any other). */
  remember(conversation: string, userId: string, items: readonly MenuItem[], now: number): void;
  forget(conversation: string, userId: string): void;
  /** The entry of the user's open menu that `reply` chooses; undefined when none. */
  choice(conversation: string, userId: string, reply: string, now: number): MenuItem | undefined;
}

/**
 * The robots' embedding models (embedding/): a question's second channel of evidence, fused with
 * the lexical candidates (docs/matching.md, "Fusion"). Absent, or null for a robot without a
 * provider: the lexical channel alone, as before.
 */
export interface SemanticSearch {
  /** Follows the index's rules (their vectors are made in the background) if the robot has a provider. */
  follow(robot: Robot, index: RobotIndex): void;
  /**
   * The question's channel within the robot's deadline, or a note of why there is none (the
   * question is then answered from the lexical channel alone). Never throws. `meanwhile` runs
   * once the question is on its way to the model, if it is sent (not for a vector already kept).
   */
  channel(
    robot: Robot,
    index: RobotIndex,
    question: string,
    meanwhile?: () => void,
  ): Promise<{ channel?: CandidateChannel; note: SemanticNote } | null>;
  /** The robot went away (deleted): its vectors leave memory. */
  forget(robot: RobotKey): void;
}
