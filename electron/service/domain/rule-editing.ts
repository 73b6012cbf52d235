/**
 * Rule editing for the editor (console API): one rule at a time, or many ids at once; every
 * write keeps the robot's matching index in step.
 * @module
 */
import type {
  ConsoleRule,
  DuplicateQuestion,
  RuleEdit,
  RulePage,
  RulePatch,
  RuleQuery,
} from '../console-types';
import { ServiceError } from '../errors';
import { normalizeText } from '../matching/normalize';
import type { Tx } from '../storage/database';
import type { SqlParam } from '../storage/journal';
import type { DomainContext } from './context';
import { timeOrderedUuid } from './ids';
import type { RobotEntry } from './robot-registry';
import { RULE_COLUMNS, ruleRowToDetail, ruleRowToMatchable } from './rule-rows';
import type { FullRuleRow } from './rule-rows';
import { ruleNameKey } from './rules';

interface ConsoleRuleRow extends FullRuleRow {
  rule_seq: number;
  created_at: number;
  updated_at: number;
}

const CONSOLE_COLUMNS = `rule_seq, created_at, updated_at, ${RULE_COLUMNS}`;

const SORT_COLUMNS: Record<NonNullable<RuleQuery['sort']>, string> = {
  created: 'rule_seq',
  updated: 'updated_at',
  ruleName: 'name_key',
  category: 'category_id',
  active: 'active',
};

export function toConsoleRule(row: ConsoleRuleRow): ConsoleRule {
  return {
    ...ruleRowToDetail(row),
    seq: row.rule_seq,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A page of the robot's rules, filtered and sorted in SQL so that 100k rules stay quick. */
export function queryRules(ctx: DomainContext, robot: RobotEntry, query: RuleQuery): RulePage {
  const where = ['tenant_id = ?', 'robot_id = ?'];
  const params: SqlParam[] = [robot.tenantId, robot.robotId];
  if (query.active !== undefined) {
    where.push('active = ?');
    params.push(query.active ? 1 : 0);
  }
  if (query.category !== undefined) {
    where.push('category_id = ?');
    params.push(query.category);
  }
  const q = query.q?.trim();
  if (q) {
    const like = `%${escapeLike(q)}%`;
    where.push(
      "(rule_name LIKE ? ESCAPE '\\' OR questions LIKE ? ESCAPE '\\' OR answer LIKE ? ESCAPE '\\')",
    );
    params.push(like, like, like);
  }
  const order = `${SORT_COLUMNS[query.sort ?? 'created']} ${query.dir === 'desc' ? 'DESC' : 'ASC'}, rule_seq ASC`;
  const condition = where.join(' AND ');
  const total = ctx.store.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM rules WHERE ${condition}`,
    params,
  );
  const rows = ctx.store.all<ConsoleRuleRow>(
    `SELECT ${CONSOLE_COLUMNS} FROM rules WHERE ${condition} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [...params, query.limit ?? 100, query.offset ?? 0],
  );
  return { rows: rows.map(toConsoleRule), total: Number(total?.n ?? 0) };
}

function findConsoleRow(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleId: string,
): ConsoleRuleRow | undefined {
  return ctx.store.get<ConsoleRuleRow>(
    `SELECT ${CONSOLE_COLUMNS} FROM rules WHERE rule_id = ? AND tenant_id = ? AND robot_id = ?`,
    [ruleId, robot.tenantId, robot.robotId],
  );
}

export function getConsoleRule(ctx: DomainContext, robot: RobotEntry, ruleId: string): ConsoleRule {
  const row = findConsoleRow(ctx, robot, ruleId);
  if (!row)
    throw new ServiceError(
      'rule-not-found',
      `Rule ${ruleId} does not exist in robot ${robot.robotId}.`,
    );
  return toConsoleRule(row);
}

function assertNameFree(tx: Tx, robot: RobotEntry, ruleName: string, exceptRuleId?: string): void {
  const holder = tx.get<{ rule_id: string }>(
    'SELECT rule_id FROM rules WHERE tenant_id = ? AND robot_id = ? AND name_key = ?',
    [robot.tenantId, robot.robotId, ruleNameKey(ruleName)],
  );
  if (holder && holder.rule_id !== exceptRuleId) {
    throw new ServiceError(
      'rule-name-taken',
      `A rule named "${ruleNameKey(ruleName)}" already exists in this robot.`,
      'ruleName',
    );
  }
}

function assertWindow(begin: string | null | undefined, end: string | null | undefined): void {
  for (const [field, value] of [
    ['effectBeignDate', begin],
    ['effectEndDate', end],
  ] as const) {
    if (value && Number.isNaN(Date.parse(value))) {
      throw new ServiceError('invalid-field', `${field} is not a valid date.`, field);
    }
  }
  if (begin && end && Date.parse(begin) > Date.parse(end)) {
    throw new ServiceError(
      'invalid-field',
      'effectEndDate must not be before effectBeignDate.',
      'effectEndDate',
    );
  }
}

const bool = (value: boolean | null | undefined) =>
  value === null || value === undefined ? null : value ? 1 : 0;

function reindex(ctx: DomainContext, robot: RobotEntry, ruleIds: readonly string[]): void {
  // Every edit of a rule passes here: its answer may have changed or the rule be gone.
  ctx.robots.forgetAnswers(ruleIds);
  ctx.robots.updateIndex(robot, (index) => {
    for (const ruleId of ruleIds) {
      const row = findConsoleRow(ctx, robot, ruleId);
      if (row) index.upsert(ruleRowToMatchable(row));
      else index.remove(ruleId);
    }
  });
}

/** rule_seq of the row the last INSERT of this transaction made. */
function insertedSeq(tx: Tx): number {
  return Number(tx.get<{ seq: number }>('SELECT last_insert_rowid() AS seq')?.seq);
}

export function createRule(ctx: DomainContext, robot: RobotEntry, edit: RuleEdit): ConsoleRule {
  assertWindow(edit.effectBeignDate, edit.effectEndDate);
  const now = ctx.now();
  const ruleId = timeOrderedUuid(now);
  const seq = ctx.store.write((tx) => {
    assertNameFree(tx, robot, edit.ruleName);
    tx.run(
      `INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active, allow_sim_gen,
        effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'TEXT', ?, ?)`,
      [
        ruleId,
        robot.tenantId,
        robot.robotId,
        edit.ruleName,
        ruleNameKey(edit.ruleName),
        edit.ruleCategoryId ?? '',
        edit.active === false ? 0 : 1,
        bool(edit.allowSimGen),
        edit.effectBeignDate ?? null,
        edit.effectEndDate ?? null,
        JSON.stringify(edit.questions),
        edit.answer,
        now,
        now,
      ],
    );
    return insertedSeq(tx);
  });
  ctx.robots.ruleOrder(robot)?.add(seq);
  reindex(ctx, robot, [ruleId]);
  return getConsoleRule(ctx, robot, ruleId);
}

export function updateRule(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleId: string,
  patch: RulePatch,
): ConsoleRule {
  const current = getConsoleRule(ctx, robot, ruleId);
  const next = { ...current, ...patch };
  assertWindow(next.effectBeignDate, next.effectEndDate);
  ctx.store.write((tx) => {
    if (patch.ruleName !== undefined) assertNameFree(tx, robot, patch.ruleName, ruleId);
    tx.run(
      `UPDATE rules SET rule_name = ?, name_key = ?, category_id = ?, active = ?, allow_sim_gen = ?,
        effect_begin = ?, effect_end = ?, questions = ?, answer = ?, updated_at = ? WHERE rule_id = ?`,
      [
        next.ruleName,
        ruleNameKey(next.ruleName),
        next.ruleCategoryId,
        next.active ? 1 : 0,
        bool(next.allowSimGen),
        next.effectBeignDate,
        next.effectEndDate,
        JSON.stringify(next.questions),
        next.answer,
        ctx.now(),
        ruleId,
      ],
    );
  });
  reindex(ctx, robot, [ruleId]);
  return getConsoleRule(ctx, robot, ruleId);
}

/** Runs `statement` for each id of the robot in one transaction; returns how many rows changed. */
function forEachRule(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleIds: readonly string[],
  statement: string,
  params: SqlParam[],
): number {
  const unique = [...new Set(ruleIds)];
  const changed = ctx.store.write((tx) =>
    unique.reduce(
      (sum, ruleId) =>
        sum +
        tx.run(`${statement} WHERE rule_id = ? AND tenant_id = ? AND robot_id = ?`, [
          ...params,
          ruleId,
          robot.tenantId,
          robot.robotId,
        ]),
      0,
    ),
  );
  reindex(ctx, robot, unique);
  return changed;
}

export function deleteRules(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleIds: readonly string[],
): { deleted: number } {
  const unique = [...new Set(ruleIds)];
  const seqs: number[] = [];
  const deleted = ctx.store.write((tx) => {
    let count = 0;
    for (const ruleId of unique) {
      const where = [ruleId, robot.tenantId, robot.robotId];
      const row = tx.get<{ rule_seq: number }>(
        'SELECT rule_seq FROM rules WHERE rule_id = ? AND tenant_id = ? AND robot_id = ?',
        where,
      );
      if (!row) continue;
      count += tx.run(
        'DELETE FROM rules WHERE rule_id = ? AND tenant_id = ? AND robot_id = ?',
        where,
      );
      seqs.push(row.rule_seq);
    }
    return count;
  });
  ctx.robots.ruleOrder(robot)?.removeAll(seqs);
  reindex(ctx, robot, unique);
  return { deleted };
}

export function setRulesActive(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleIds: readonly string[],
  active: boolean,
): { updated: number } {
  return {
    updated: forEachRule(ctx, robot, ruleIds, 'UPDATE rules SET active = ?, updated_at = ?', [
      active ? 1 : 0,
      ctx.now(),
    ]),
  };
}

/** Files many rules under one category ('' = none) in one transaction (Excel import, grid). */
export function setRulesCategory(
  ctx: DomainContext,
  robot: RobotEntry,
  ruleIds: readonly string[],
  category: string,
): { updated: number } {
  return {
    updated: forEachRule(ctx, robot, ruleIds, 'UPDATE rules SET category_id = ?, updated_at = ?', [
      category,
      ctx.now(),
    ]),
  };
}

export interface RestorableRule extends RuleEdit {
  ruleId: string;
  seq?: number;
  createdAt?: string;
}

/**
 * Puts deleted rules back (the editor's undo of a delete): same ids, content and, where still
 * free, the same position. All or nothing: a rule whose id or name is in use fails the call.
 */
export function restoreRules(
  ctx: DomainContext,
  robot: RobotEntry,
  rules: readonly RestorableRule[],
): { restored: number } {
  for (const rule of rules) assertWindow(rule.effectBeignDate, rule.effectEndDate);
  const now = ctx.now();
  const seqs = ctx.store.write((tx) => {
    const inserted: number[] = [];
    for (const rule of rules) {
      if (tx.get('SELECT 1 AS found FROM rules WHERE rule_id = ?', [rule.ruleId])) {
        throw new ServiceError('rule-name-taken', `Rule ${rule.ruleId} already exists.`, 'ruleId');
      }
      assertNameFree(tx, robot, rule.ruleName);
      const seqFree =
        rule.seq !== undefined &&
        !tx.get('SELECT 1 AS found FROM rules WHERE rule_seq = ?', [rule.seq]);
      const createdAt =
        rule.createdAt && !Number.isNaN(Date.parse(rule.createdAt))
          ? Date.parse(rule.createdAt)
          : now;
      tx.run(
        `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active, allow_sim_gen,
          effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'TEXT', ?, ?)`,
        [
          seqFree ? (rule.seq ?? null) : null,
          rule.ruleId,
          robot.tenantId,
          robot.robotId,
          rule.ruleName,
          ruleNameKey(rule.ruleName),
          rule.ruleCategoryId ?? '',
          rule.active === false ? 0 : 1,
          bool(rule.allowSimGen),
          rule.effectBeignDate ?? null,
          rule.effectEndDate ?? null,
          JSON.stringify(rule.questions),
          rule.answer,
          createdAt,
          now,
        ],
      );
      inserted.push(insertedSeq(tx));
    }
    return inserted;
  });
  const order = ctx.robots.ruleOrder(robot);
  for (const seq of seqs) order?.add(seq);
  reindex(
    ctx,
    robot,
    rules.map((rule) => rule.ruleId),
  );
  return { restored: rules.length };
}

/** Phrasings that, once normalised as the matcher does, appear in more than one rule. */
export function duplicateQuestions(ctx: DomainContext, robot: RobotEntry): DuplicateQuestion[] {
  const byQuestion = new Map<string, { question: string; ruleIds: Set<string> }>();
  const rows = ctx.store.all<{ rule_id: string; questions: string }>(
    'SELECT rule_id, questions FROM rules WHERE tenant_id = ? AND robot_id = ? ORDER BY rule_seq',
    [robot.tenantId, robot.robotId],
  );
  for (const row of rows) {
    for (const question of JSON.parse(row.questions) as string[]) {
      const key = normalizeText(question);
      if (key === '') continue;
      let entry = byQuestion.get(key);
      if (!entry) {
        entry = { question, ruleIds: new Set() };
        byQuestion.set(key, entry);
      }
      entry.ruleIds.add(row.rule_id);
    }
  }
  return [...byQuestion.values()]
    .filter((entry) => entry.ruleIds.size > 1)
    .map((entry) => ({ question: entry.question, ruleIds: [...entry.ruleIds] }));
}

export function listCategories(ctx: DomainContext, robot: RobotEntry): string[] {
  return ctx.store
    .all<{ category_id: string }>(
      "SELECT DISTINCT category_id FROM rules WHERE tenant_id = ? AND robot_id = ? AND category_id <> '' ORDER BY category_id",
      [robot.tenantId, robot.robotId],
    )
    .map((row) => row.category_id);
}
