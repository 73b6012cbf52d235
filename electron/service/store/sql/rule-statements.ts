/**
 * The statements on `rules` and `deleted_rules` both stores run (each in its dialect), and the
 * editor's filtered page of a robot's rules: its condition, order and parameters. How a store
 * writes many rows at once, finds many by id or sorts by the question log's figures is its own.
 * @module
 */
import type {
  RobotKey,
  RuleContent,
  RuleFieldsPatch,
  RuleFilter,
  RuleState,
} from '../contract/records';
import { Params, assignments, spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';
import {
  MATCHABLE_COLUMNS,
  RULE_COLUMNS,
  TRASH_COLUMNS,
  escapeLike,
  ruleSearchText,
  sqlBool,
  sqlMenu,
  toMs,
} from './rule-rows';
import type { Stamp, TextKey } from './rule-rows';
import { rawAnswerCondition } from './raw-answer-search';

/** ?1 and ?2: the robot of every statement that names one. */
const OF_ROBOT = 'tenant_id = ?1 AND robot_id = ?2';

export function statements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    /** ?3: the rule. */
    find: `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_id = ?3`,
    answerOf: 'SELECT answer FROM rules WHERE rule_id = ?1',
    nameHolder: `SELECT rule_id FROM rules WHERE ${OF_ROBOT} AND name_key = ?3`,
    idExists: 'SELECT 1 AS found FROM rules WHERE rule_id = ?1',
    /** ?3: how many, newest first. */
    trash: `SELECT ${TRASH_COLUMNS}, updated_by, deleted_at FROM deleted_rules WHERE ${OF_ROBOT}
      ORDER BY deleted_at DESC, rule_seq LIMIT ?3`,
    /** Looked at before a purge: a purge with nothing to do writes nothing. */
    anyTrashBefore: 'SELECT 1 AS found FROM deleted_rules WHERE deleted_at < ?1 LIMIT 1',
    purgeTrashBefore: 'DELETE FROM deleted_rules WHERE deleted_at < ?1',
    seqs: `SELECT rule_seq FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
    /** One seek down the (tenant, robot, seq) index. */
    maxSeq: `SELECT MAX(rule_seq) AS last FROM rules WHERE ${OF_ROBOT}`,
    /** Bumped by triggers at every write to the robot's rules (migration 0010). */
    changeCount: `SELECT changes FROM rule_change_counts WHERE ${OF_ROBOT}`,
    /** ?3: the first position, ?4: how many. */
    pageFrom: `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_seq >= ?3 ORDER BY rule_seq LIMIT ?4`,
    matchableOfRobot: `SELECT ${MATCHABLE_COLUMNS} FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
    matchable: `SELECT ${MATCHABLE_COLUMNS} FROM rules ORDER BY rule_seq`,
    menus: 'SELECT rule_id, menu FROM rules WHERE menu IS NOT NULL ORDER BY rule_seq',
    questions: `SELECT rule_id, questions FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
    facts: `SELECT rule_id, rule_name, effect_end FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
    /**
     * Pages of `matchableOfRobot`, `questions` and `facts`: from rule_seq ?3 on, at most ?4 (a
     * synchronous engine reads a robot's rules a page at a time).
     */
    matchableOfRobotFrom: `SELECT rule_seq, ${MATCHABLE_COLUMNS} FROM rules
      WHERE ${OF_ROBOT} AND rule_seq >= ?3 ORDER BY rule_seq LIMIT ?4`,
    questionsFrom: `SELECT rule_seq, rule_id, questions FROM rules
      WHERE ${OF_ROBOT} AND rule_seq >= ?3 ORDER BY rule_seq LIMIT ?4`,
    factsFrom: `SELECT rule_seq, rule_id, rule_name, effect_end FROM rules
      WHERE ${OF_ROBOT} AND rule_seq >= ?3 ORDER BY rule_seq LIMIT ?4`,
    /** A rule's content replaced: `updateParams`. */
    update: `UPDATE rules SET rule_name = ?4, name_key = ?5, category_id = ?6, active = ?7,
      allow_sim_gen = ?8, effect_begin = ?9, effect_end = ?10, questions = ?11, answer = ?12,
      updated_at = ?13, updated_by = ?14, effect_begin_ms = ?15, effect_end_ms = ?16,
      search_text = ?17, match_policy = ?18, negative_keywords = ?19, menu = ?20
      WHERE ${OF_ROBOT} AND rule_id = ?3`,
  });
}

/** The parameters of `update`: the rule, its new content (and search text), who and when. */
export function updateParams(
  robot: RobotKey,
  ruleId: string,
  content: RuleContent,
  textKey: TextKey,
  stamp: Stamp,
): Scalar[] {
  return [
    robot.tenantId,
    robot.robotId,
    ruleId,
    content.ruleName,
    content.nameKey,
    content.categoryId,
    content.active ? 1 : 0,
    sqlBool(content.allowSimGen),
    content.effectBegin,
    content.effectEnd,
    JSON.stringify(content.questions),
    content.answer,
    stamp.now,
    stamp.actor,
    toMs(content.effectBegin),
    toMs(content.effectEnd),
    ruleSearchText(textKey, content),
    content.matchPolicy ?? 'similarity',
    JSON.stringify(content.negativeKeywords ?? []),
    sqlMenu(content.menu),
  ];
}

const PATCHED_COLUMNS = { active: 'active', categoryId: 'category_id' };

/**
 * What a bulk action sets, for a statement whose ?1–?5 are the robot, the rule(s), the time and
 * the author: `SET` assignments and the values bound after those five; undefined when the patch
 * sets nothing.
 */
export function patchAssignments<L>(
  dialect: Dialect<L>,
  patch: RuleFieldsPatch,
): { set: string; values: Scalar[] } | undefined {
  const active = patch.active === undefined ? undefined : sqlBool(patch.active);
  const fields = { active, categoryId: patch.categoryId };
  const { sets, values } = assignments(dialect, PATCHED_COLUMNS, fields, 6);
  if (sets.length === 0) return undefined;
  sets.push(`updated_at = ${dialect.param(4)}`, `updated_by = ${dialect.param(5)}`);
  return { set: sets.join(', '), values };
}

/** A rule's effective state at a time; `at` binds the time where the condition needs it. */
function stateCondition(state: RuleState, at: () => string): string {
  switch (state) {
    case 'active': {
      const now = at();
      return `active = 1 AND (effect_begin_ms IS NULL OR effect_begin_ms <= ${now}) AND (effect_end_ms IS NULL OR effect_end_ms >= ${now})`;
    }
    case 'inactive':
      return 'active = 0';
    case 'scheduled':
      return `active = 1 AND effect_begin_ms > ${at()}`;
    case 'expired': {
      const now = at();
      return `active = 1 AND effect_end_ms < ${now} AND (effect_begin_ms IS NULL OR effect_begin_ms <= ${now})`;
    }
  }
}

/**
 * Sort columns. Text is compared as bytes, as SQLite does, whatever a PostgreSQL database's
 * locale; the question log's figures are the statement's `sort_key` (a rule never hit: 0).
 */
const sortColumn = <L>(dialect: Dialect<L>, sort: RuleFilter['sort']): string =>
  ({
    created: 'rule_seq',
    updated: 'updated_at',
    ruleName: dialect.bytes('name_key'),
    category: dialect.bytes('category_id'),
    active: 'active',
    hits: 'sort_key',
    lastHit: 'sort_key',
  })[sort];

/** The editor's page of a robot's rules, its paging left to the store's statement. */
export interface RulePage<L> {
  /** The rules of the filter (a WHERE condition on `rules`). */
  condition: string;
  /** The ORDER BY of the page (`rule_seq` last: one order, whatever ties). */
  order: string;
  /** The condition's parameters; the store binds its paging and figures after them. */
  params: Params<L>;
  /** Counts the rules of the filter: with `countParams`, the condition's parameters only. */
  count: string;
  countParams: readonly (Scalar | L)[];
  /** Sorted by a figure of the question log: each rule hit with its figure; else undefined. */
  figures: [ruleId: string, figure: number][] | undefined;
}

export function rulePage<L>(
  dialect: Dialect<L>,
  robot: RobotKey,
  filter: RuleFilter,
  textKey: TextKey,
): RulePage<L> {
  const params = new Params(dialect);
  const where = [
    `tenant_id = ${params.add(robot.tenantId)}`,
    `robot_id = ${params.add(robot.robotId)}`,
  ];
  if (filter.active !== undefined) where.push(`active = ${params.add(filter.active ? 1 : 0)}`);
  if (filter.category !== undefined) where.push(`category_id = ${params.add(filter.category)}`);
  if (filter.state !== undefined) {
    where.push(stateCondition(filter.state, () => dialect.typed(params.add(filter.now), 'bigint')));
  }
  const key = filter.text === undefined ? '' : textKey(filter.text);
  if (key !== '') {
    const pattern = dialect.typed(params.add(`%${escapeLike(key)}%`), 'text');
    const inText = `search_text LIKE ${pattern} ESCAPE '\\'`;
    where.push(
      textKey.rawAnswers
        ? rawAnswerCondition(inText, key, pattern, (value) => params.add(value), escapeLike)
        : inText,
    );
  }
  if (filter.ruleIds !== undefined) {
    where.push(dialect.inList('rule_id', params.add(dialect.list(filter.ruleIds)), 'text'));
  }
  const condition = where.join(' AND ');
  const direction = filter.descending ? 'DESC' : 'ASC';
  const sort = filter.sort;
  return {
    condition,
    order: `${sortColumn(dialect, sort)} ${direction}, rule_seq ASC`,
    params,
    count: `SELECT COUNT(*) AS n FROM rules WHERE ${condition}`,
    countParams: [...params.values],
    figures:
      sort === 'hits' || sort === 'lastHit'
        ? (filter.hitFigures ?? []).flatMap((hit): [string, number][] =>
            hit.hits > 0 ? [[hit.ruleId, hit[sort] ?? 0]] : [],
          )
        : undefined,
  };
}
