/**
 * Stored rules in the shapes of the openapi, the console and the matcher.
 * @module
 */
import type { AnswerContentType, RuleDetail, RuleListItem } from '../api-types';
import type { ConsoleRule } from '../console-types';
import type { MatchableRule } from '../matching/types';
import type { MatchableRecord, StoredRule } from '../repositories/records';

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

export function toConsoleRule(rule: StoredRule): ConsoleRule {
  return {
    ...toRuleDetail(rule),
    seq: rule.seq,
    createdAt: new Date(rule.createdAt).toISOString(),
    updatedAt: new Date(rule.updatedAt).toISOString(),
  };
}
