import type { Translate } from '../../i18n/types';
import type { RuleCollision } from './collision-index';

/** A collision as a sentence, from the side of the rule it is listed under. */
export function describeCollision(t: Translate, collision: RuleCollision): string {
  const params = {
    rule: collision.ruleName,
    question: collision.question,
    other: collision.otherRuleName,
    otherQuestion: collision.otherQuestion,
  };
  return t(`conflicts.${collision.kind}`, params);
}
