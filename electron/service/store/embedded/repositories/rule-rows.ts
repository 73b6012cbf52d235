/**
 * Rule rows of the embedded database and the store's records made of them.
 * @module
 */
import type { MatchPolicy, MatchableRecord, MenuEntry, StoredRule } from '../../contract/records';

export const RULE_COLUMNS =
  'rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active, allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at, match_policy, negative_keywords, menu, updated_by';

export const MATCHABLE_COLUMNS =
  'rule_id, tenant_id, robot_id, rule_name, questions, active, effect_begin, effect_end, match_policy, negative_keywords';

export interface RuleRow {
  [column: string]: string | number | null;
  rule_seq: number;
  rule_id: string;
  tenant_id: number;
  robot_id: string;
  rule_name: string;
  name_key: string;
  category_id: string;
  active: number;
  allow_sim_gen: number | null;
  effect_begin: string | null;
  effect_end: string | null;
  questions: string;
  answer: string;
  answer_content_type: string;
  created_at: number;
  updated_at: number;
  match_policy: string;
  negative_keywords: string;
  menu: string | null;
  updated_by: string;
}

export type MatchableRow = Pick<
  RuleRow,
  | 'rule_id'
  | 'tenant_id'
  | 'robot_id'
  | 'rule_name'
  | 'questions'
  | 'active'
  | 'effect_begin'
  | 'effect_end'
  | 'match_policy'
  | 'negative_keywords'
> & { [column: string]: string | number | null };

/** SQLite has no booleans: 0/1, and null for "not set". */
export const sqlBool = (value: boolean | null): number | null =>
  value === null ? null : value ? 1 : 0;

export function toStoredRule(row: RuleRow): StoredRule {
  return {
    seq: Number(row.rule_seq),
    ruleId: row.rule_id,
    tenantId: Number(row.tenant_id),
    robotId: row.robot_id,
    ruleName: row.rule_name,
    nameKey: row.name_key,
    categoryId: row.category_id,
    active: row.active === 1,
    allowSimGen: row.allow_sim_gen === null ? null : row.allow_sim_gen === 1,
    effectBegin: row.effect_begin,
    effectEnd: row.effect_end,
    questions: JSON.parse(row.questions) as string[],
    answer: row.answer,
    answerContentType: row.answer_content_type,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
    matchPolicy: row.match_policy as MatchPolicy,
    negativeKeywords: JSON.parse(row.negative_keywords) as string[],
    menu: row.menu === null ? null : (JSON.parse(row.menu) as MenuEntry[]),
  };
}

export function toMatchableRecord(row: MatchableRow): MatchableRecord {
  return {
    ruleId: row.rule_id,
    tenantId: Number(row.tenant_id),
    robotId: row.robot_id,
    ruleName: row.rule_name,
    questions: JSON.parse(row.questions) as string[],
    active: row.active === 1,
    effectBegin: row.effect_begin,
    effectEnd: row.effect_end,
    matchPolicy: row.match_policy as MatchPolicy,
    negativeKeywords: JSON.parse(row.negative_keywords) as string[],
  };
}

/** A menu as stored: JSON, or null for a plain answer (an empty menu is none). */
export const sqlMenu = (menu: readonly MenuEntry[] | null | undefined): string | null =>
  menu && menu.length > 0 ? JSON.stringify(menu) : null;
