/**
 * The collision check of a robot (`R/collisions`) by rule: what each rule's marker, its dialog
 * and the try pane say. Both rules of a finding are marked, and the finding is said once where
 * both are listed together. No DOM here.
 * @module
 */
import type {
  CollisionCause,
  CollisionFinding,
  RobotCollisions,
  TryResult,
} from '../../../electron/service/console-types';

/** Facts checked by asking first, then the risks the self-test sees (the report's order). */
export const CAUSES: readonly CollisionCause[] = [
  'asked-elsewhere',
  'asked-unanswered',
  'slot-unnamed',
  'reads-like-other',
  'near-duplicate',
];

/** The causes whose score is an answer's score (else: how alike two phrasings read). */
export function isChecked(cause: CollisionCause): boolean {
  return cause === 'asked-elsewhere' || cause === 'asked-unanswered' || cause === 'slot-unnamed';
}

export interface RuleCollision {
  /** The same for both rules of one finding: a list naming both rules says it once. */
  key: string;
  finding: CollisionFinding;
  /** The rule on the other side, seen from the rule it is listed under. */
  otherRuleId: string;
  otherRuleName: string;
}

export type CollisionsByRule = ReadonlyMap<string, readonly RuleCollision[]>;

export function collisionsByRule(report: RobotCollisions): CollisionsByRule {
  const byRule = new Map<string, RuleCollision[]>();
  const add = (ruleId: string, collision: RuleCollision) => {
    const list = byRule.get(ruleId);
    if (list) list.push(collision);
    else byRule.set(ruleId, [collision]);
  };
  report.findings.forEach((finding, i) => {
    const key = `${finding.cause}\u0000${i}`;
    add(finding.ruleId, {
      key,
      finding,
      otherRuleId: finding.otherRuleId,
      otherRuleName: finding.otherRuleName,
    });
    // A finding of one rule alone (its own negative keyword) is listed once.
    if (finding.otherRuleId === finding.ruleId) return;
    add(finding.otherRuleId, {
      key,
      finding,
      otherRuleId: finding.ruleId,
      otherRuleName: finding.ruleName,
    });
  });
  return byRule;
}

/** A rule's collisions grouped by cause, in the report's order. */
export function groupByCause(
  collisions: readonly RuleCollision[],
): { cause: CollisionCause; collisions: RuleCollision[] }[] {
  return CAUSES.map((cause) => ({
    cause,
    collisions: collisions.filter((c) => c.finding.cause === cause),
  })).filter((group) => group.collisions.length > 0);
}

/** Candidates after the first that still compete for a question: ranked this high… */
const COMPETING_RANKS = 3;
/** …and scoring at least this (the default RECOMMEND threshold: a "did you mean" worth it). */
const COMPETING_MIN_SCORE = 0.1;

/**
 * The collisions behind one answer of the try pane: findings between the rule answered (or a
 * rule recommended) and another rule competing for the question (a close candidate, or a rule
 * its negative keyword left out). Nothing for an answer that is no rule's (NONE, small talk).
 */
export function collisionsForAnswer(byRule: CollisionsByRule, result: TryResult): RuleCollision[] {
  const answer = result.result;
  if (answer.module !== 'KB') return [];
  const answered = new Set<string>();
  if (result.decision === 'bestmatch') {
    const top = result.chosen?.ruleId ?? result.candidates[0]?.ruleId;
    if (top !== undefined) answered.add(top);
  } else if (result.decision === 'recommend') {
    for (const item of answer.items ?? []) answered.add(item.ruleId);
  }
  const competing = new Set(answered);
  result.candidates.slice(0, COMPETING_RANKS).forEach((candidate) => {
    if (candidate.score >= COMPETING_MIN_SCORE) competing.add(candidate.ruleId);
  });
  for (const excluded of result.excluded ?? []) competing.add(excluded.ruleId);
  const found = new Map<string, RuleCollision>();
  for (const ruleId of answered) {
    for (const collision of byRule.get(ruleId) ?? []) {
      if (competing.has(collision.otherRuleId) && !found.has(collision.key)) {
        found.set(collision.key, collision);
      }
    }
  }
  return [...found.values()].sort(
    (a, b) =>
      CAUSES.indexOf(a.finding.cause) - CAUSES.indexOf(b.finding.cause) ||
      b.finding.score - a.finding.score,
  );
}
