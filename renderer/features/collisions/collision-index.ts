/**
 * The collision check of a robot (`R/collisions`) by rule: what each rule's marker, its dialog
 * and the try pane say. Both rules of a conflict are marked (one loses a phrasing to the other,
 * the other takes it), and both of a near-duplicate pair. No DOM here.
 * @module
 */
import type { RobotCollisions } from '../../../electron/service/console-types';

export interface RuleCollision {
  /**
   * `loses`: this rule's phrasing `question` is answered by the other rule (closest:
   * `otherQuestion`); `takes`: the other rule's phrasing `otherQuestion` is answered by this
   * rule; `duplicate`: the two rules are probably the same question.
   */
  kind: 'loses' | 'takes' | 'duplicate';
  /** The rule it is listed under. */
  ruleName: string;
  question: string;
  otherRuleId: string;
  otherRuleName: string;
  otherQuestion: string;
  /** How alike, 0..1. */
  score: number;
  /** The same for both rules of one finding: a list naming both rules says it once. */
  finding: string;
}

export type CollisionsByRule = ReadonlyMap<string, readonly RuleCollision[]>;

export function collisionsByRule(report: RobotCollisions): CollisionsByRule {
  const byRule = new Map<string, RuleCollision[]>();
  const add = (ruleId: string, collision: RuleCollision) => {
    const list = byRule.get(ruleId);
    if (list) list.push(collision);
    else byRule.set(ruleId, [collision]);
  };
  for (const c of report.conflicts) {
    const finding = `conflict\u0000${c.ruleId}\u0000${c.question}`;
    add(c.ruleId, {
      kind: 'loses',
      finding,
      ruleName: c.ruleName,
      question: c.question,
      otherRuleId: c.otherRuleId,
      otherRuleName: c.otherRuleName,
      otherQuestion: c.otherQuestion,
      score: c.otherScore,
    });
    add(c.otherRuleId, {
      kind: 'takes',
      finding,
      ruleName: c.otherRuleName,
      question: c.otherQuestion,
      otherRuleId: c.ruleId,
      otherRuleName: c.ruleName,
      otherQuestion: c.question,
      score: c.otherScore,
    });
  }
  for (const d of report.duplicates) {
    const [a, b] = d.ruleIds;
    const [nameA, nameB] = d.ruleNames;
    const [questionA, questionB] = d.questions;
    const pair = {
      kind: 'duplicate',
      score: d.score,
      finding: `duplicate\u0000${[a, b].sort().join('\u0000')}`,
    } as const;
    add(a, {
      ...pair,
      ruleName: nameA,
      question: questionA,
      otherRuleId: b,
      otherRuleName: nameB,
      otherQuestion: questionB,
    });
    add(b, {
      ...pair,
      ruleName: nameB,
      question: questionB,
      otherRuleId: a,
      otherRuleName: nameA,
      otherQuestion: questionA,
    });
  }
  return byRule;
}
