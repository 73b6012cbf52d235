/** A rule as the matching engine sees it, active and always in effect unless `extra` says not. */
import type { MatchableRule } from '../../electron/service/matching/types';

export function matchableRule(
  ruleId: string,
  questions: string[],
  extra: Partial<MatchableRule> = {},
): MatchableRule {
  return {
    ruleId,
    // A neutral name: the matcher reads names as phrasings too.
    ruleName: '条目',
    questions,
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
    ...extra,
  };
}
