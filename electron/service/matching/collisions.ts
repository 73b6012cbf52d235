/**
 * The collision report for editors, read from the self-test's probes: phrasings that the
 * engine finds closer to another rule than to their own (the question will be answered by the
 * other rule), and pairs of rules so alike that they are probably the same question twice.
 * Scores are those of the offline calibration (no robot offset): how alike two texts read,
 * whatever the knowledge base.
 * @module
 */
import type { Probe } from './self-test';

/** A phrasing answered by another rule when asked. */
export interface PhrasingConflict {
  ruleId: string;
  /** The phrasing, as written in the rule (or the rule's name). */
  question: string;
  /** The rule that comes first instead, and its closest phrasing. */
  otherRuleId: string;
  otherQuestion: string;
  /** The other rule's score for the phrasing, 0..1. */
  otherScore: number;
  /** The own rule's score (0 when not among the candidates at all). */
  ownScore: number;
}

/** Two rules that are probably the same question. */
export interface NearDuplicate {
  ruleIds: [string, string];
  /** The phrasing of the first rule and the closest phrasing of the second. */
  questions: [string, string];
  /** How alike: the second rule's score for the first rule's phrasing, 0..1 (1: the same text). */
  score: number;
}

export interface CollisionReport {
  /** Phrasings asked (all of them unless `complete` is false: then an even sample). */
  probed: number;
  complete: boolean;
  /** Most alike first. */
  conflicts: PhrasingConflict[];
  /** Most alike first, each pair once. */
  duplicates: NearDuplicate[];
}

/** A phrasing is a conflict when another rule comes first with at least this score. */
export const CONFLICT_MIN_SCORE = 0.3;
/** Two rules are near duplicates when one's phrasing gives the other at least this score. */
export const DUPLICATE_MIN_SCORE = 0.9;

export function collisionReport(probes: readonly Probe[], complete: boolean): CollisionReport {
  const conflicts: PhrasingConflict[] = [];
  const duplicates = new Map<string, NearDuplicate>();
  for (const probe of probes) {
    const rival = probe.rival;
    if (rival === null) continue;
    // A rule's only phrasing leaves nothing of the rule to be closer to: never a conflict.
    if (probe.ruleHasOthers && probe.ownRank !== 0 && rival.score >= CONFLICT_MIN_SCORE) {
      conflicts.push({
        ruleId: probe.ruleId,
        question: probe.question,
        otherRuleId: rival.ruleId,
        otherQuestion: rival.question,
        otherScore: rival.score,
        ownScore: probe.ownScore,
      });
    }
    if (rival.score >= DUPLICATE_MIN_SCORE) {
      const ids: [string, string] = [probe.ruleId, rival.ruleId];
      const key = [...ids].sort().join('\u0000');
      const known = duplicates.get(key);
      if (known === undefined || known.score < rival.score) {
        duplicates.set(key, {
          ruleIds: ids,
          questions: [probe.question, rival.question],
          score: rival.score,
        });
      }
    }
  }
  conflicts.sort((a, b) => b.otherScore - a.otherScore || a.ruleId.localeCompare(b.ruleId));
  return {
    probed: probes.length,
    complete,
    conflicts,
    duplicates: [...duplicates.values()].sort((a, b) => b.score - a.score),
  };
}
