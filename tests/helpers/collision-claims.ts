/**
 * What a collision finding says about asking, checked by asking the index as the ask API does
 * (`match`, with its recent-question table and the robot's settings). Unit tests and the
 * evaluation (tests/eval/conflict-report.ts) use it: the report must make no false claim.
 * @module
 */
import type {
  MatchSettings,
  RobotIndex,
  RuleCollision,
} from '../../electron/service/matching/types';

/**
 * Whether asking bears out the finding: `asked-elsewhere`, the phrasing gets the other rule;
 * `asked-unanswered`, it does not get its own; `slot-unnamed`, the question without the word
 * gets the rule named; `reads-like-other`, the phrasing as written gets its own rule. Null for
 * `near-duplicate`, which says nothing about asking.
 */
export function claimHolds(
  index: RobotIndex,
  finding: RuleCollision,
  settings: MatchSettings,
  nowMs: number,
): boolean | null {
  const answered = (question: string) => {
    const decision = index.match(question, nowMs, settings);
    return decision.kind === 'bestmatch' ? decision.top.ruleId : null;
  };
  switch (finding.cause) {
    case 'asked-elsewhere':
      return answered(finding.question) === finding.otherRuleId;
    case 'asked-unanswered':
      return answered(finding.question) !== finding.ruleId;
    case 'slot-unnamed':
      return (
        finding.asked !== undefined && answered(finding.asked.question) === finding.asked.ruleId
      );
    case 'reads-like-other':
      return answered(finding.question) === finding.ruleId;
    case 'near-duplicate':
      return null;
  }
}
