/**
 * A rule as both stores keep it: the columns of `rules` and `deleted_rules`, a row read back as
 * the store's record, and a rule written as the values of one row (`jsonRow`, the element of
 * the JSON array each store's batch insert unpacks).
 * @module
 */
import type {
  DeletedRule,
  MatchPolicy,
  MatchableRecord,
  MenuEntry,
  NewRule,
  RobotKey,
  RuleContent,
  RuleFacts,
  StoredRule,
} from '../contract/records';
import { RAW_ANSWER_MARK, answerSearchableRaw } from './raw-answer-search';

export const RULE_COLUMNS =
  'rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active, allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at, match_policy, negative_keywords, menu, updated_by';

export const MATCHABLE_COLUMNS =
  'rule_id, tenant_id, robot_id, rule_name, questions, active, effect_begin, effect_end, match_policy, negative_keywords';

/** A rule's row moved between the rules and the trash; the derived columns are made again. */
export const TRASH_COLUMNS =
  'rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active, allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at, match_policy, negative_keywords, menu';

/** The columns a batch insert writes (each store unpacks its JSON rows into them). */
export const INSERTED_COLUMNS = `rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer,
  category_id, active, allow_sim_gen, effect_begin, effect_end, answer_content_type, created_at, updated_at,
  effect_begin_ms, effect_end_ms, search_text, match_policy, negative_keywords, menu, updated_by`;

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

/** A rule in the trash, with when it was deleted. */
export type DeletedRuleRow = RuleRow & { deleted_at: number };

/** Booleans are stored as 0/1 (SQLite has none), and null for "not set". */
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

export const toRuleFacts = (row: {
  rule_id: string;
  rule_name: string;
  effect_end: string | null;
}): RuleFacts => ({ ruleId: row.rule_id, ruleName: row.rule_name, effectEnd: row.effect_end });

export const toDeletedRule = (row: DeletedRuleRow): DeletedRule => ({
  ...toStoredRule(row),
  deletedAt: Number(row.deleted_at),
});

type RuleMenuRecord = { ruleId: string; menu: MenuEntry[] };
type QuestionsRecord = { ruleId: string; questions: string[] };

export const toRuleMenu = (row: { rule_id: string; menu: string }): RuleMenuRecord => ({
  ruleId: row.rule_id,
  menu: JSON.parse(row.menu) as MenuEntry[],
});

export const toRuleQuestions = (row: { rule_id: string; questions: string }): QuestionsRecord => ({
  ruleId: row.rule_id,
  questions: JSON.parse(row.questions) as string[],
});

/** A menu as stored: JSON, or null for a plain answer (an empty menu is none). */
export const sqlMenu = (menu: readonly MenuEntry[] | null | undefined): string | null =>
  menu && menu.length > 0 ? JSON.stringify(menu) : null;

/** An ISO time as ms since the epoch (the derived `effect_*_ms` columns); null if none. */
export const toMs = (iso: string | null): number | null => {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

/**
 * Turns text into the store's search key (the matcher's normalisation: case, width, script).
 * `rawAnswers`: the store searches an answer in its own column when that is exact, and leaves it
 * out of the search text (raw-answer-search.ts; the embedded store, decision 200).
 */
export type TextKey = ((text: string) => string) & { readonly rawAnswers?: boolean };

/**
 * What a rule is searched by: its name, phrasings and answer, each as a text key, one a line. With
 * `textKey.rawAnswers`, an answer a `LIKE` on itself finds exactly is left out, the text marked.
 */
export function ruleSearchText(
  textKey: TextKey,
  rule: Pick<RuleContent, 'ruleName' | 'questions' | 'answer'>,
): string {
  const answerKey = textKey(rule.answer);
  const keys = [rule.ruleName, ...rule.questions].map(textKey);
  if (textKey.rawAnswers && answerSearchableRaw(rule.answer, answerKey))
    return RAW_ANSWER_MARK + keys.join('\n');
  keys.push(answerKey);
  return keys.join('\n');
}

/** `text` matched literally by LIKE … ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A rule's values in the order of a batch insert's JSON row (each store puts the position,
 * robot, time and author beside them), with its search text.
 */
export function jsonRow(rule: NewRule, textKey: TextKey): unknown[] {
  return [
    rule.ruleId,
    rule.ruleName,
    rule.nameKey,
    JSON.stringify(rule.questions),
    rule.answer,
    rule.categoryId,
    rule.active ? 1 : 0,
    sqlBool(rule.allowSimGen),
    rule.effectBegin,
    rule.effectEnd,
    rule.createdAt,
    toMs(rule.effectBegin),
    toMs(rule.effectEnd),
    ruleSearchText(textKey, rule),
    rule.matchPolicy ?? 'similarity',
    JSON.stringify(rule.negativeKeywords ?? []),
    sqlMenu(rule.menu),
  ];
}

/** Who wrote a change, and when. */
export interface Stamp {
  now: number;
  actor: string;
}

/**
 * The record of a rule just inserted at `seq` (what the batch insert stored of it). Every field
 * written out, not `...rule`: V8 made the spread of a rule plus ten more fields a slow object
 * (~50–150 µs each on this machine: seconds of an import of 100k rules, decision 120).
 */
export function insertedRule(
  robot: RobotKey,
  rule: NewRule,
  seq: number,
  stamp: Stamp,
): StoredRule {
  return {
    seq,
    ruleId: rule.ruleId,
    tenantId: robot.tenantId,
    robotId: robot.robotId,
    ruleName: rule.ruleName,
    nameKey: rule.nameKey,
    categoryId: rule.categoryId,
    active: rule.active,
    allowSimGen: rule.allowSimGen,
    effectBegin: rule.effectBegin,
    effectEnd: rule.effectEnd,
    questions: rule.questions,
    answer: rule.answer,
    answerContentType: 'TEXT',
    matchPolicy: rule.matchPolicy ?? 'similarity',
    negativeKeywords: rule.negativeKeywords ?? [],
    menu: sqlMenu(rule.menu) === null ? null : (rule.menu ?? null),
    createdAt: rule.createdAt,
    updatedAt: stamp.now,
    updatedBy: stamp.actor,
  };
}
