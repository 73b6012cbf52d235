/**
 * Conversions between rule rows of the database and the shapes of the API and the matcher.
 * @module
 */
import type { AnswerContentType, RuleDetail, RuleListItem } from '../api-types';
import type { MatchableRule } from '../matching/types';

export interface RuleRow {
  [column: string]: string | number | null;
  rule_id: string;
  tenant_id: number;
  robot_id: string;
  rule_name: string;
  questions: string;
  active: number;
  effect_begin: string | null;
  effect_end: string | null;
}

export interface FullRuleRow extends RuleRow {
  category_id: string;
  allow_sim_gen: number | null;
  answer: string;
  answer_content_type: string;
}

export const RULE_COLUMNS =
  'rule_id, tenant_id, robot_id, rule_name, category_id, active, allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type';

function parseTime(iso: string | null): number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

export function ruleRowToMatchable(row: RuleRow): MatchableRule {
  return {
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    questions: JSON.parse(row.questions) as string[],
    active: row.active === 1,
    effectBeginMs: parseTime(row.effect_begin),
    effectEndMs: parseTime(row.effect_end),
  };
}

export function ruleRowToListItem(row: FullRuleRow): RuleListItem {
  return {
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    ruleCategoryId: row.category_id,
    active: row.active === 1,
    questions: JSON.parse(row.questions) as string[],
    answer: row.answer,
    answerContentType: row.answer_content_type as AnswerContentType,
  };
}

export function ruleRowToDetail(row: FullRuleRow): RuleDetail {
  const item = ruleRowToListItem(row);
  // Field order as in the interface's single-rule response.
  return {
    ruleId: item.ruleId,
    ruleName: item.ruleName,
    ruleCategoryId: item.ruleCategoryId,
    allowSimGen: row.allow_sim_gen === null ? null : row.allow_sim_gen === 1,
    active: item.active,
    effectBeignDate: row.effect_begin,
    effectEndDate: row.effect_end,
    questions: item.questions,
    answer: item.answer,
    answerContentType: item.answerContentType,
  };
}
