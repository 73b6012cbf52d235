/** Rules as the store hands them back, and the impact preview's sides built over them. */
import type { ImpactSide, Replay } from '../../electron/service/publishing/impact';
import type { MatchSettings } from '../../electron/service/matching/types';
import type { RobotIndex } from '../../electron/service/matching/types';
import type { StoredRule } from '../../electron/service/store/contract/records';

/** A stored rule of tenant 1's default robot; the fields no impact test varies at their defaults. */
export function storedRule(
  seq: number,
  ruleId: string,
  fields: Pick<StoredRule, 'ruleName' | 'questions'> & Partial<StoredRule>,
): StoredRule {
  return {
    seq,
    ruleId,
    tenantId: 1,
    robotId: 'default',
    nameKey: ruleId,
    categoryId: '',
    active: true,
    allowSimGen: null,
    effectBegin: null,
    effectEnd: null,
    answer: `answer ${ruleId}`,
    answerContentType: 'text',
    createdAt: 0,
    updatedAt: 0,
    updatedBy: '',
    ...fields,
  };
}

/** One side of a comparison: `index` answering over `rules`. */
export function impactSide(
  name: string,
  index: RobotIndex,
  rules: readonly StoredRule[],
): ImpactSide {
  return { name, index, rules: new Map(rules.map((rule) => [rule.ruleId, rule])) };
}

/** A replay of `questions` from `before` (side a) to `after` (side b), asking only `reach`'s. */
export function replayBetween(
  [a, before]: [RobotIndex, readonly StoredRule[]],
  [b, after]: [RobotIndex, readonly StoredRule[]],
  questions: Replay['questions'],
  at: number,
  settings: MatchSettings,
): (reach: Replay['reach']) => Replay {
  const sides = { a: impactSide('a', a, before), b: impactSide('b', b, after) };
  return (reach) => ({ ...sides, questions, reach, at, settings });
}
