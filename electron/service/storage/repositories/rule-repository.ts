/**
 * The embedded store's rules: every SQL statement on the `rules` table.
 * @module
 */
import type {
  MatchableRecord,
  NewRule,
  RobotKey,
  RuleContent,
  RuleFieldsPatch,
  RuleFilter,
  StoredRule,
} from '../../repositories/records';
import type { RuleRepository } from '../../repositories/rules';
import type { SqlParam, Store, Tx } from '../database';
import {
  MATCHABLE_COLUMNS,
  RULE_COLUMNS,
  sqlBool,
  toMatchableRecord,
  toStoredRule,
} from './rule-rows';
import type { MatchableRow, RuleRow } from './rule-rows';
import { mappingUniqueViolations } from './unique-violations';

/**
 * Inserts many rules in one statement: ?3 is a JSON array of rows, unpacked by SQLite itself.
 * One bound parameter instead of a dozen per rule (each a copy into the WebAssembly heap), one
 * journal operation per batch, and a deterministic replay: rule_seq is given (?1 + position),
 * not left to SQLite.
 */
const INSERT_RULES = `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer,
  category_id, active, allow_sim_gen, effect_begin, effect_end, answer_content_type, created_at, updated_at)
SELECT ?1 + key, value ->> 0, ?2, ?3, value ->> 1, value ->> 2, value ->> 3, value ->> 4,
  value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9, 'TEXT', value ->> 10, ?4
FROM json_each(CAST(?5 AS TEXT))`;

/** Which names of the JSON array ?3 are taken in the robot (one index lookup each). */
const TAKEN_NAMES = `SELECT j.value AS name_key FROM json_each(CAST(?3 AS TEXT)) AS j
WHERE EXISTS (SELECT 1 FROM rules AS r WHERE r.tenant_id = ?1 AND r.robot_id = ?2 AND r.name_key = j.value)`;

const REINSERT_RULE = `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active,
  allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'TEXT', ?, ?)`;

const SORT_COLUMNS: Record<RuleFilter['sort'], string> = {
  created: 'rule_seq',
  updated: 'updated_at',
  ruleName: 'name_key',
  category: 'category_id',
  active: 'active',
};

const OF_ROBOT = 'tenant_id = ? AND robot_id = ?';

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The content columns, in the order of REINSERT_RULE and of the UPDATE. */
function contentParams(rule: RuleContent): SqlParam[] {
  return [
    rule.ruleName,
    rule.nameKey,
    rule.categoryId,
    rule.active ? 1 : 0,
    sqlBool(rule.allowSimGen),
    rule.effectBegin,
    rule.effectEnd,
    JSON.stringify(rule.questions),
    rule.answer,
  ];
}

function jsonRow(rule: NewRule): unknown[] {
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
  ];
}

export class SqlJsRuleRepository implements RuleRepository {
  constructor(private readonly store: Store) {}

  async find(robot: RobotKey, ruleId: string): Promise<StoredRule | undefined> {
    return this.findIn(this.store, robot, ruleId);
  }

  async answerOf(ruleId: string): Promise<string | undefined> {
    return this.store.get<{ answer: string }>('SELECT answer FROM rules WHERE rule_id = ?', [
      ruleId,
    ])?.answer;
  }

  async namesOf(ruleIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const ruleId of ruleIds) {
      const row = this.store.get<{ rule_name: string }>(
        'SELECT rule_name FROM rules WHERE rule_id = ?',
        [ruleId],
      );
      if (row) names.set(ruleId, row.rule_name);
    }
    return names;
  }

  async takenNameKeys(robot: RobotKey, nameKeys: readonly string[]): Promise<Set<string>> {
    if (nameKeys.length === 0) return new Set();
    const rows = this.store.all<{ name_key: string }>(TAKEN_NAMES, [
      robot.tenantId,
      robot.robotId,
      { utf8: JSON.stringify(nameKeys) },
    ]);
    return new Set(rows.map((row) => row.name_key));
  }

  async nameHolder(robot: RobotKey, nameKey: string): Promise<string | undefined> {
    return this.store.get<{ rule_id: string }>(
      `SELECT rule_id FROM rules WHERE ${OF_ROBOT} AND name_key = ?`,
      [robot.tenantId, robot.robotId, nameKey],
    )?.rule_id;
  }

  async idExists(ruleId: string): Promise<boolean> {
    return this.store.get('SELECT 1 AS found FROM rules WHERE rule_id = ?', [ruleId]) !== undefined;
  }

  async insert(robot: RobotKey, rules: readonly NewRule[], now: number): Promise<StoredRule[]> {
    if (rules.length === 0) return [];
    const rows = JSON.stringify(rules.map(jsonRow));
    const first = mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const next =
          Number(tx.get<{ last: number }>('SELECT MAX(rule_seq) AS last FROM rules')?.last ?? 0) +
          1;
        const inserted = tx.run(INSERT_RULES, [
          next,
          robot.tenantId,
          robot.robotId,
          now,
          { utf8: rows },
        ]);
        if (inserted !== rules.length)
          throw new Error(`inserted ${inserted} of ${rules.length} rules`);
        return next;
      }),
    );
    return rules.map((rule, i) => ({
      ...rule,
      seq: first + i,
      tenantId: robot.tenantId,
      robotId: robot.robotId,
      answerContentType: 'TEXT',
      updatedAt: now,
    }));
  }

  async reinsert(
    robot: RobotKey,
    rules: readonly (NewRule & { seq: number | null })[],
    now: number,
  ): Promise<StoredRule[]> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) =>
        rules.map((rule) => {
          const seqFree =
            rule.seq !== null &&
            !tx.get('SELECT 1 AS found FROM rules WHERE rule_seq = ?', [rule.seq]);
          tx.run(REINSERT_RULE, [
            seqFree ? rule.seq : null,
            rule.ruleId,
            robot.tenantId,
            robot.robotId,
            ...contentParams(rule),
            rule.createdAt,
            now,
          ]);
          const seq = Number(tx.get<{ seq: number }>('SELECT last_insert_rowid() AS seq')?.seq);
          return {
            ...rule,
            seq,
            tenantId: robot.tenantId,
            robotId: robot.robotId,
            answerContentType: 'TEXT',
            updatedAt: now,
          };
        }),
      ),
    );
  }

  async update(
    robot: RobotKey,
    ruleId: string,
    content: RuleContent,
    now: number,
  ): Promise<StoredRule | undefined> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const changed = tx.run(
          `UPDATE rules SET rule_name = ?, name_key = ?, category_id = ?, active = ?, allow_sim_gen = ?,
            effect_begin = ?, effect_end = ?, questions = ?, answer = ?, updated_at = ?
           WHERE rule_id = ? AND ${OF_ROBOT}`,
          [...contentParams(content), now, ruleId, robot.tenantId, robot.robotId],
        );
        return changed === 0 ? undefined : this.findIn(tx, robot, ruleId);
      }),
    );
  }

  async patchMany(
    robot: RobotKey,
    ruleIds: readonly string[],
    patch: RuleFieldsPatch,
    now: number,
  ): Promise<StoredRule[]> {
    const sets: string[] = [];
    const values: SqlParam[] = [];
    if (patch.active !== undefined) {
      sets.push('active = ?');
      values.push(patch.active ? 1 : 0);
    }
    if (patch.categoryId !== undefined) {
      sets.push('category_id = ?');
      values.push(patch.categoryId);
    }
    if (sets.length === 0) return [];
    const statement = `UPDATE rules SET ${sets.join(', ')}, updated_at = ? WHERE rule_id = ? AND ${OF_ROBOT}`;
    return this.store.write((tx) => {
      const changed: StoredRule[] = [];
      for (const ruleId of new Set(ruleIds)) {
        if (tx.run(statement, [...values, now, ruleId, robot.tenantId, robot.robotId]) === 0)
          continue;
        const rule = this.findIn(tx, robot, ruleId);
        if (rule) changed.push(rule);
      }
      return changed;
    });
  }

  async remove(robot: RobotKey, ruleIds: readonly string[]): Promise<StoredRule[]> {
    return this.store.write((tx) => {
      const removed: StoredRule[] = [];
      for (const ruleId of new Set(ruleIds)) {
        const rule = this.findIn(tx, robot, ruleId);
        if (!rule) continue;
        tx.run(`DELETE FROM rules WHERE rule_id = ? AND ${OF_ROBOT}`, [
          ruleId,
          robot.tenantId,
          robot.robotId,
        ]);
        removed.push(rule);
      }
      return removed;
    });
  }

  async seqs(robot: RobotKey): Promise<number[]> {
    return this.store
      .all<{ rule_seq: number }>(`SELECT rule_seq FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`, [
        robot.tenantId,
        robot.robotId,
      ])
      .map((row) => Number(row.rule_seq));
  }

  async maxSeq(robot: RobotKey): Promise<number> {
    // One seek down the (tenant, robot, seq) index.
    const row = this.store.get<{ last: number | null }>(
      `SELECT MAX(rule_seq) AS last FROM rules WHERE ${OF_ROBOT}`,
      [robot.tenantId, robot.robotId],
    );
    return Number(row?.last ?? 0);
  }

  async pageFrom(robot: RobotKey, fromSeq: number, limit: number): Promise<StoredRule[]> {
    return this.store
      .all<RuleRow>(
        `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_seq >= ? ORDER BY rule_seq LIMIT ?`,
        [robot.tenantId, robot.robotId, fromSeq, limit],
      )
      .map(toStoredRule);
  }

  async query(robot: RobotKey, filter: RuleFilter): Promise<{ rows: StoredRule[]; total: number }> {
    const where = [OF_ROBOT];
    const params: SqlParam[] = [robot.tenantId, robot.robotId];
    if (filter.active !== undefined) {
      where.push('active = ?');
      params.push(filter.active ? 1 : 0);
    }
    if (filter.category !== undefined) {
      where.push('category_id = ?');
      params.push(filter.category);
    }
    if (filter.text) {
      const like = `%${escapeLike(filter.text)}%`;
      where.push(
        "(rule_name LIKE ? ESCAPE '\\' OR questions LIKE ? ESCAPE '\\' OR answer LIKE ? ESCAPE '\\')",
      );
      params.push(like, like, like);
    }
    const order = `${SORT_COLUMNS[filter.sort]} ${filter.descending ? 'DESC' : 'ASC'}, rule_seq ASC`;
    const condition = where.join(' AND ');
    const total = this.store.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM rules WHERE ${condition}`,
      params,
    );
    const rows = this.store.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE ${condition} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, filter.limit, filter.offset],
    );
    return { rows: rows.map(toStoredRule), total: Number(total?.n ?? 0) };
  }

  async matchable(robot?: RobotKey): Promise<MatchableRecord[]> {
    const rows = robot
      ? this.store.all<MatchableRow>(
          `SELECT ${MATCHABLE_COLUMNS} FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
          [robot.tenantId, robot.robotId],
        )
      : this.store.all<MatchableRow>(`SELECT ${MATCHABLE_COLUMNS} FROM rules ORDER BY rule_seq`);
    return rows.map(toMatchableRecord);
  }

  async questions(robot: RobotKey): Promise<{ ruleId: string; questions: string[] }[]> {
    return this.store
      .all<{ rule_id: string; questions: string }>(
        `SELECT rule_id, questions FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
        [robot.tenantId, robot.robotId],
      )
      .map((row) => ({ ruleId: row.rule_id, questions: JSON.parse(row.questions) as string[] }));
  }

  async categories(robot: RobotKey): Promise<string[]> {
    return this.store
      .all<{ category_id: string }>(
        `SELECT DISTINCT category_id FROM rules WHERE ${OF_ROBOT} AND category_id <> '' ORDER BY category_id`,
        [robot.tenantId, robot.robotId],
      )
      .map((row) => row.category_id);
  }

  private findIn(reader: Pick<Tx, 'get'>, robot: RobotKey, ruleId: string): StoredRule | undefined {
    const row = reader.get<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE rule_id = ? AND ${OF_ROBOT}`,
      [ruleId, robot.tenantId, robot.robotId],
    );
    return row ? toStoredRule(row) : undefined;
  }
}
