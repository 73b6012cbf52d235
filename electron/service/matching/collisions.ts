/**
 * The collision report for editors, read from the self-test's probes: phrasings that the
 * engine finds closer to another rule than to their own (the question will be answered by the
 * other rule), and pairs of rules so alike that they are probably the same question twice.
 * Scores are those of the offline calibration (no robot offset): how alike two texts read,
 * whatever the knowledge base.
 * @module
 */
import type { Probe } from './self-test';
import type { CollisionReport, NearDuplicate, PhrasingConflict } from './types';

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
