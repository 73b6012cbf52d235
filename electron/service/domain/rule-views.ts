/**
 * Stored rules in the shapes of the openapi, the console and the matcher.
 * @module
 */
import type { AnswerContentType, RuleDetail, RuleListItem } from '../api-types';
import type { ConsoleRule } from '../console-types';
import type { MatchableRule } from '../matching/types';
import type { MatchableRecord, RuleState, StoredRule } from '../store/contract/records';

function parseTime(iso: string | null): number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

export function toMatchableRule(rule: MatchableRecord): MatchableRule {
  return {
    ruleId: rule.ruleId,
    ruleName: rule.ruleName,
    questions: rule.questions,
    active: rule.active,
    effectBeginMs: parseTime(rule.effectBegin),
    effectEndMs: parseTime(rule.effectEnd),
    ...(rule.matchPolicy !== undefined && rule.matchPolicy !== 'similarity'
      ? { matchPolicy: rule.matchPolicy }
      : {}),
    ...(rule.negativeKeywords !== undefined && rule.negativeKeywords.length > 0
      ? { negativeKeywords: rule.negativeKeywords }
      : {}),
  };
}

export function toRuleListItem(rule: StoredRule): RuleListItem {
  return {
    ruleId: rule.ruleId,
    ruleName: rule.ruleName,
    ruleCategoryId: rule.categoryId,
    active: rule.active,
    questions: rule.questions,
    answer: rule.answer,
    answerContentType: rule.answerContentType as AnswerContentType,
  };
}

export function toRuleDetail(rule: StoredRule): RuleDetail {
  const item = toRuleListItem(rule);
  // Field order as in the interface's single-rule response.
  return {
    ruleId: item.ruleId,
    ruleName: item.ruleName,
    ruleCategoryId: item.ruleCategoryId,
    allowSimGen: rule.allowSimGen,
    active: item.active,
    effectBeignDate: rule.effectBegin,
    effectEndDate: rule.effectEnd,
    questions: item.questions,
    answer: item.answer,
    answerContentType: item.answerContentType,
  };
}

/** Whether a rule is answered at `now`, and if not, why (the window is inclusive, as the matcher's). */
export function ruleState(
  rule: Pick<StoredRule, 'active' | 'effectBegin' | 'effectEnd'>,
  now: number,
): RuleState {
  if (!rule.active) return 'inactive';
  const begin = parseTime(rule.effectBegin);
  const end = parseTime(rule.effectEnd);
  if (begin !== null && now < begin) return 'scheduled';
  if (end !== null && now > end) return 'expired';
  return 'active';
}

/** A rule as the editor sees it, at `now`, with its category's name from `categories`. */
export function toConsoleRule(
  rule: StoredRule,
  now: number,
  categories: ReadonlyMap<string, string>,
): ConsoleRule {
  return {
    ...toRuleDetail(rule),
    categoryName: categories.get(rule.categoryId) ?? '',
    state: ruleState(rule, now),
    seq: rule.seq,
    createdAt: new Date(rule.createdAt).toISOString(),
    updatedAt: new Date(rule.updatedAt).toISOString(),
    updatedBy: rule.updatedBy,
    matchPolicy: rule.matchPolicy ?? 'similarity',
    negativeKeywords: rule.negativeKeywords ?? [],
    menu: rule.menu ?? null,
  };
}
