/**
 * The seam between the service and the matching engine. The service owns storage and the HTTP
 * shape of answers; the engine owns normalisation, retrieval, scoring and the decision.
 * @module
 */

import type { CollisionFinding, MatchPolicy } from '../console-types';

export type { CollisionCause, CollisionCheckAsked } from '../console-types';
export type { MatchPolicy };

/** What the engine needs to know about one rule. Answers stay in the database. */
export interface MatchableRule {
  ruleId: string;
  ruleName: string;
  questions: readonly string[];
  active: boolean;
  /** Effective window in ms since the epoch; null means open on that side. */
  effectBeginMs: number | null;
  effectEndMs: number | null;
  /** Absent: `similarity`. */
  matchPolicy?: MatchPolicy;
  /** The rule is never a candidate for a question containing one of them. */
  negativeKeywords?: readonly string[];
}

/** Per-robot decision settings (stored with the robot, editable in the editor). */
export interface MatchSettings {
  /** A top score at or above this (and clear of the runner-up by `margin`) is a BESTMATCH. */
  bestmatchThreshold: number;
  /** A top score at or above this (but not a BESTMATCH) gives RECOMMEND; below it, NONE. */
  recommendThreshold: number;
  /** The top rule must beat the runner-up by at least this much to be a BESTMATCH. */
  margin: number;
  /** Most rules listed in a RECOMMEND answer (N of the contract). */
  maxRecommend: number;
}

/** One candidate rule with the reasons for its score (shown in the try pane). */
export interface Candidate {
  ruleId: string;
  /** The rule's phrasing (or its name) that matched best, as written in the rule. */
  question: string;
  /** Calibrated score in 0..1; the same number the API reports. */
  score: number;
  /** Named score components, e.g. { lexical: 0.8, fuzzy: 0.6 }; for explanation only. */
  parts: Record<string, number>;
  /** Set when the rule was found by its policy (`exact`, `contains`) rather than by its score. */
  policy?: MatchPolicy;
  /** For `contains`: the phrasing found in the question. */
  keyword?: string;
  /** With an embedding model: the rule's phrasing nearest the question, and its cosine. */
  nearest?: { question: string; cosine: number };
}

/** Told of every rule an index takes in or lets go (the vectors of its rules follow them). */
export interface RuleObserver {
  upsert(rule: MatchableRule): void;
  remove(ruleId: string): void;
}

/**
 * A second channel of evidence for one question (an embedding model's nearest phrasings): it
 * turns the lexical candidates into the fused ones, before the decision.
 */
export interface CandidateChannel {
  fuse(candidates: readonly Candidate[], nowMs: number): Candidate[];
}

/** Rules left out of a decision because the question contains one of their negative keywords. */
export interface Exclusion {
  ruleId: string;
  /** The negative keyword found, as written in the rule. */
  keyword: string;
}

/** A decision's kind and the rule a BESTMATCH answers with (null for the other kinds). */
export interface DecidedKind {
  kind: MatchDecision['kind'];
  ruleId: string | null;
}

export type MatchDecision = (
  | { kind: 'bestmatch'; top: Candidate; candidates: Candidate[] }
  | { kind: 'recommend'; items: Candidate[]; candidates: Candidate[] }
  | { kind: 'none'; candidates: Candidate[] }
) & { excluded?: Exclusion[] };

/** The robot's self-calibration (docs/matching.md, "Calibration per robot"). */
export interface CalibrationState {
  /** Added to every inexact candidate's log-odds; 0 until a self-test has run, never above 0. */
  offset: number;
  /** Phrasings asked by the self-test the offset comes from (0: none yet). */
  probes: number;
  /** The offset was fitted on the rules as they are now. */
  current: boolean;
  /** A self-test is waiting or under way in the background. */
  pending: boolean;
}

/** One robot's index: follows every write incrementally, answers questions. */
export interface RobotIndex {
  /** Adds or replaces a rule (by ruleId). */
  upsert(rule: MatchableRule): void;
  /** Removes a rule; unknown ids are ignored. */
  remove(ruleId: string): void;
  /** Number of rules held (active or not). */
  readonly size: number;
  /**
   * Decides the answer to a question at time `nowMs`. Only active rules inside their effective
   * window may be returned. A question equal to one of a rule's phrasings after normalisation
   * scores exactly 1.
   */
  match(
    question: string,
    nowMs: number,
    settings: MatchSettings,
    channel?: CandidateChannel,
  ): MatchDecision;
  /**
   * Works out the question's lexical candidates ahead of `match` (which then reads them from the
   * recent questions): done while an embedding model embeds the question.
   */
  prepare(question: string, nowMs: number): void;
  /**
   * `match`'s answer, found without scoring, when the question is a phrasing of exactly one
   * eligible rule and nothing else can change the decision: BESTMATCH of that rule at 1 (its
   * `candidates` hold that rule alone). Undefined otherwise: ask `match`. For test runs, which
   * need the decision, not the runners-up.
   */
  matchExact?(question: string, nowMs: number): MatchDecision | undefined;
  /**
   * `match`'s decision for a question nobody asked now (a replay): neither kept among the
   * recent questions (real traffic's cache) nor counted as traffic (the self-test's pause).
   */
  decide?(question: string, nowMs: number, settings: MatchSettings): MatchDecision;
  /**
   * What `decide` answers, reduced to its kind and BESTMATCH rule (null otherwise), without
   * the fuzzy comparison where its extremes decide alike. For the impact preview's replay.
   */
  decideKind?(question: string, nowMs: number, settings: MatchSettings): DecidedKind;
  /**
   * At least the highest score any of `ruleIds` can have as the top candidate for `question`
   * (1 for an eligible equal phrasing, 0 when none is eligible); undefined when a policy may
   * decide instead. A result below `atLeast` only says that none reaches `atLeast`. For the
   * impact preview.
   */
  scoreCeiling?(
    question: string,
    ruleIds: readonly string[],
    nowMs: number,
    atLeast?: number,
  ): number | undefined;
  /**
   * Changes with every write to the index (the recent questions' key): what a long replay
   * checks to know that the rules it was asked about changed meanwhile.
   */
  readonly generation?: number;
  /** The synonym groups in use (engines without synonyms leave both members out). */
  readonly synonyms?: readonly (readonly string[])[];
  /** Replaces the synonym groups; every rule is re-indexed with them. */
  setSynonyms?(groups: readonly (readonly string[])[]): void;
  /**
   * The robot's self-calibration. Engines that have one refit it by themselves in the
   * background after writes (never blocking `match`), and keep it in their saved index.
   */
  readonly calibration?: CalibrationState;
  /** Runs the self-test now, synchronously, and applies its calibration (tests, evaluation). */
  selfCalibrate?(nowMs?: number): void;
  /**
   * Stops the index's work in the background (a self-test waiting or under way): it left
   * memory, and a timer of its own would keep it there. It still answers if asked.
   */
  close?(): void;
  /**
   * The collision report: every phrasing (up to `limit`, else an even sample) asked as it is
   * (with `settings`, as ask decides) and against the rest of the knowledge base, in slices that
   * leave room for questions.
   */
  collisions?(options?: CollisionOptions): Promise<CollisionReport>;
  /**
   * Bumped by every write (rules, synonyms): a report computed from the index at one version
   * (with the same rules inside their effective windows) still holds while it is unchanged.
   */
  readonly version?: number;
  /**
   * The open interval of times around `nowMs` in which no rule enters or leaves its effective
   * window (empty when `nowMs` is itself such a boundary).
   */
  eligibilityWindow?(nowMs: number): { after: number; before: number };
  /**
   * Tells `observer` of every rule held now, then of every upsert and remove from now on (as the
   * index applies them). Returns a function that stops telling it.
   */
  observe?(observer: RuleObserver): () => void;
  /** A rule as the index holds it now (undefined: not held), for observers that catch up later. */
  rule?(ruleId: string): MatchableRule | undefined;
  /** The self-test's phrasings and how each is asked (for the fusion's calibration). */
  probeSource?(limit: number): ProbeSource;
}

/** Phrasings of an index asked without themselves, scored as its questions are (offset and all). */
export interface ProbeSource {
  readonly phrasings: readonly number[];
  /** The phrasing's text and rule, and the lexical candidates for it; null for a dead phrasing. */
  ask(
    phrasing: number,
    nowMs: number,
  ): { ruleId: string; text: string; candidates: Candidate[] } | null;
}

export type CreateRobotIndex = () => RobotIndex;

/*
 * The collision report (built by collisions.ts: each phrasing asked as it is and leave-one-out).
 * Its findings are the console's (console-types.ts) without the rule names. Its types live here,
 * in the seam that imports nothing, so that the engine's modules never import each other in a
 * circle through them.
 */

/** A finding of the collision report, before the service names its rules. */
export type RuleCollision = Omit<CollisionFinding, 'ruleName' | 'otherRuleName'>;

export interface CollisionOptions {
  /** Most phrasings asked (default 10,000); beyond, an even sample. */
  limit?: number;
  nowMs?: number;
  /** The robot's decision settings, with which findings are checked (default: the engine's). */
  settings?: MatchSettings;
}

export interface CollisionReport {
  /** Phrasings asked (all of them unless `complete` is false: then an even sample). */
  probed: number;
  complete: boolean;
  /** Checked causes first, then the risks; by score within a cause. */
  findings: RuleCollision[];
}
