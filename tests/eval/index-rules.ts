/**
 * A robot index over a dataset's rules, as the evaluation and tuning scripts build it: active,
 * always in effect, rule id = rule name.
 * @module
 */
import { createRobotIndex } from '../../electron/service/matching/index';
import type { SynonymAwareRobotIndex } from '../../electron/service/matching/index';
import type { EvalRule } from './dataset';

export function indexRules(rules: readonly EvalRule[]): SynonymAwareRobotIndex {
  const index = createRobotIndex();
  for (const rule of rules) {
    index.upsert({
      ruleId: rule.ruleName,
      ruleName: rule.ruleName,
      questions: rule.questions,
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  }
  return index;
}
