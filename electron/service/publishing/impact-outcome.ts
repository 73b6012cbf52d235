/**
 * What an impact preview's replay keeps of the matcher's decision for a question (decision
 * 172), and where it finds the `from` side's outcomes already known (impact-from-cache.ts).
 * @module
 */
import type { MatchDecision } from '../matching/types';

/**
 * A decision's kind and the rule that answered: all the count reads. The candidates and
 * recommendations are not compared, so a side's outcomes can be kept from one preview to the
 * next.
 */
export interface Outcome {
  kind: MatchDecision['kind'];
  ruleId: string | null;
}

const NONE: Outcome = Object.freeze({ kind: 'none', ruleId: null });
const RECOMMEND: Outcome = Object.freeze({ kind: 'recommend', ruleId: null });

export const outcomeOf = (decision: MatchDecision): Outcome =>
  decision.kind === 'bestmatch'
    ? { kind: 'bestmatch', ruleId: decision.top.ruleId }
    : decision.kind === 'recommend'
      ? RECOMMEND
      : NONE;

/** Where a replay finds the `from` side's outcomes already known, and keeps those it works out. */
export interface KnownOutcomes {
  get(question: string): Outcome | undefined;
  learn(question: string, outcome: Outcome): void;
}

/** The outcomes kept for one side between previews (impact-from-cache.ts's `FromOutcomes`). */
export interface KeptOutcomes extends KnownOutcomes {
  /** The side's index version they were worked out at. */
  readonly version: number | undefined;
  readonly size: number;
}
