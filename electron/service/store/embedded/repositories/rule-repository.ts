/**
 * The embedded store's rules: every SQL statement on the `rules` table.
 * @module
 */
import type {
  DeletedRule,
  MatchableRecord,
  MenuEntry,
  NewRule,
  RobotKey,
  RuleContent,
  RuleFieldsPatch,
  RuleFilter,
  RuleState,
  StoredRule,
} from '../../contract/records';
import type { RuleRepository } from '../../contract/rules';
import { mapInSlices, nextTurn } from '../../../time-slices';
import type { SqlParam, Store, Tx } from '../database';
import {
  MATCHABLE_COLUMNS,
  RULE_COLUMNS,
  sqlBool,
  sqlMenu,
  toMatchableRecord,
  toStoredRule,
} from './rule-rows';
import type { MatchableRow, RuleRow } from './rule-rows';
import { mappingUniqueViolations } from './unique-violations';

/**
 * Inserts many rules in one statement: ?5 is a JSON array of rows, unpacked by SQLite itself.
 * One bound parameter instead of a dozen per rule (each a copy into the WebAssembly heap), one
 * journal operation per batch, and a deterministic replay: rule_seq is given (?1 + position),
 * not left to SQLite. `jsonb_each`, not `json_each`: its rows are binary JSON, read by `->>`
 * without being parsed again (`json_each` hands each row over as text, parsed by every `->>`:
 * a 1000-rule batch spent 40 ms there instead of 14).
 */
export const INSERT_RULES = `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer,
  category_id, active, allow_sim_gen, effect_begin, effect_end, answer_content_type, created_at, updated_at,
  effect_begin_ms, effect_end_ms, search_text, match_policy, negative_keywords, menu, updated_by)
SELECT ?1 + key, value ->> 0, ?2, ?3, value ->> 1, value ->> 2, value ->> 3, value ->> 4,
  value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9, 'TEXT', value ->> 10, ?4,
  value ->> 11, value ->> 12, value ->> 13, value ->> 14, value ->> 15, value ->> 16, ?6
FROM jsonb_each(CAST(?5 AS TEXT))`;

/**
 * Rules per INSERT statement of a batch, with a turn of the event loop between them (a 1000-rule
 * statement held it for 25–50 ms, hundreds on a loaded machine; 100 rules took 3.5 ms, and 13
 * at the 90th percentile on a machine loaded 8 on 2 cores; 25 rules about a millisecond).
 */
const INSERT_SLICE = 25;

/** Which names of the JSON array ?3 are taken in the robot (one index lookup each). */
const TAKEN_NAMES = `SELECT j.value AS name_key FROM json_each(CAST(?3 AS TEXT)) AS j
WHERE EXISTS (SELECT 1 FROM rules AS r WHERE r.tenant_id = ?1 AND r.robot_id = ?2 AND r.name_key = j.value)`;

/** A rule's row moved between the rules and the trash; the derived columns are made again. */
export const TRASH_COLUMNS =
  'rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, active, allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at, match_policy, negative_keywords, menu';

const SORT_COLUMNS: Record<RuleFilter['sort'], string> = {
  created: 'rule_seq',
  updated: 'updated_at',
  ruleName: 'name_key',
  category: 'category_id',
  active: 'active',
  // The question log's figures: `sort_key` of byFigures (never hit: 0).
  hits: 'sort_key',
  lastHit: 'sort_key',
};

/**
 * A page sorted by a figure of the question log (?1: a JSON array of [ruleId, figure] of the
 * rules hit): the rules hit, found by their rule_id, then the others with 0. Two halves rather
 * than a LEFT JOIN, which SQLite ran as a scan of the figures per rule (minutes at 100k rules);
 * this takes about 0.6 s for 100k rules of which 50k were hit, 10 times a sort by name.
 */
function byFigures(columns: string, condition: string, order: string): string {
  return `WITH figures(figure_rule_id, figure) AS MATERIALIZED (
  SELECT value ->> 0, value ->> 1 FROM json_each(CAST(?1 AS TEXT)))
SELECT ${columns}, figure AS sort_key FROM figures CROSS JOIN rules ON rule_id = figure_rule_id WHERE ${condition}
UNION ALL
SELECT ${columns}, 0 AS sort_key FROM rules WHERE ${condition} AND rule_id NOT IN (SELECT figure_rule_id FROM figures)
ORDER BY ${order} LIMIT ? OFFSET ?`;
}

const OF_ROBOT = 'tenant_id = ? AND robot_id = ?';

/** A rule's effective state at `now`, as a condition and its parameters. */
function stateCondition(state: RuleState, now: number): [string, SqlParam[]] {
  switch (state) {
    case 'active':
      return [
        'active = 1 AND (effect_begin_ms IS NULL OR effect_begin_ms <= ?) AND (effect_end_ms IS NULL OR effect_end_ms >= ?)',
        [now, now],
      ];
    case 'inactive':
      return ['active = 0', []];
    case 'scheduled':
      return ['active = 1 AND effect_begin_ms > ?', [now]];
    case 'expired':
      return [
        'active = 1 AND effect_end_ms < ? AND (effect_begin_ms IS NULL OR effect_begin_ms <= ?)',
        [now, now],
      ];
  }
}

export const toMs = (iso: string | null): number | null => {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

/** Rules at a time to fill their search text at open (a first open after an upgrade). */
const SEARCH_FILL_BATCH = 2000;

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Turns text into the store's search key (the matcher's normalisation: case, width, script). */
export type TextKey = (text: string) => string;

/** What a rule is searched by: its name, phrasings and answer, each as a text key (every store). */
export function ruleSearchText(
  textKey: TextKey,
  rule: Pick<RuleContent, 'ruleName' | 'questions' | 'answer'>,
): string {
  return [rule.ruleName, ...rule.questions, rule.answer].map(textKey).join('\n');
}

export function jsonRow(rule: NewRule, searchText: string): unknown[] {
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
    searchText,
    rule.matchPolicy ?? 'similarity',
    JSON.stringify(rule.negativeKeywords ?? []),
    sqlMenu(rule.menu),
  ];
}

export class SqlJsRuleRepository implements RuleRepository {
  constructor(
    private readonly store: Store,
    private readonly textKey: TextKey,
  ) {}

  /** What a rule is searched by (also used by publishing's rollback). */
  searchText(rule: Pick<RuleContent, 'ruleName' | 'questions' | 'answer'>): string {
    return ruleSearchText(this.textKey, rule);
  }

  /**
   * Fills the search text of rules that have none (rules of a database written before it
   * existed), in batches of one transaction each.
   */
  fillSearchText(): number {
    let filled = 0;
    for (;;) {
      const rows = this.store.all<{
        rule_id: string;
        rule_name: string;
        questions: string;
        answer: string;
      }>(
        'SELECT rule_id, rule_name, questions, answer FROM rules WHERE search_text IS NULL LIMIT ?',
        [SEARCH_FILL_BATCH],
      );
      if (rows.length === 0) return filled;
      this.store.write((tx) => {
        for (const row of rows) {
          const text = this.searchText({
            ruleName: row.rule_name,
            questions: JSON.parse(row.questions) as string[],
            answer: row.answer,
          });
          tx.run('UPDATE rules SET search_text = ? WHERE rule_id = ?', [text, row.rule_id]);
        }
      });
      filled += rows.length;
    }
  }

  async find(robot: RobotKey, ruleId: string): Promise<StoredRule | undefined> {
    return this.findIn(this.store, robot, ruleId);
  }

  async findMany(robot: RobotKey, ruleIds: readonly string[]): Promise<StoredRule[]> {
    const found: StoredRule[] = [];
    for (const ruleId of new Set(ruleIds)) {
      const rule = this.findIn(this.store, robot, ruleId);
      if (rule) found.push(rule);
    }
    return found;
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

  async insert(
    robot: RobotKey,
    rules: readonly NewRule[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]> {
    if (rules.length === 0) return [];
    // Before the write, in slices: the search texts of a batch take tens of milliseconds.
    const rows = await mapInSlices(rules, (rule) => jsonRow(rule, this.searchText(rule)));
    // One transaction, its statements a slice of rows each (made into JSON in its own step)
    // with a turn of the event loop between them, and the disk waited for off the event loop
    // (Store.writeInSteps).
    const first = await mappingUniqueViolations(() =>
      this.store.writeInSteps(async (tx) => {
        const next =
          Number(tx.get<{ last: number }>('SELECT MAX(rule_seq) AS last FROM rules')?.last ?? 0) +
          1;
        let inserted = 0;
        for (let i = 0; i < rows.length; i += INSERT_SLICE) {
          if (i > 0) await nextTurn();
          const slice = JSON.stringify(rows.slice(i, i + INSERT_SLICE));
          const params = [next + i, robot.tenantId, robot.robotId, now];
          inserted += tx.run(INSERT_RULES, [...params, { utf8: slice }, actor]);
        }
        if (inserted !== rules.length)
          throw new Error(`inserted ${inserted} of ${rules.length} rules`);
        return next;
      }),
    );
    return mapInSlices(rules, (rule, i) => ({
      ...rule,
      matchPolicy: rule.matchPolicy ?? 'similarity',
      negativeKeywords: rule.negativeKeywords ?? [],
      menu: sqlMenu(rule.menu) === null ? null : (rule.menu ?? null),
      seq: first + i,
      tenantId: robot.tenantId,
      robotId: robot.robotId,
      answerContentType: 'TEXT',
      updatedAt: now,
      updatedBy: actor,
    }));
  }

  async restore(
    robot: RobotKey,
    ruleIds: readonly string[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const restored: StoredRule[] = [];
        for (const ruleId of new Set(ruleIds)) {
          const row = tx.get<RuleRow>(
            `SELECT ${TRASH_COLUMNS}, updated_by FROM deleted_rules WHERE rule_id = ? AND ${OF_ROBOT}`,
            [ruleId, robot.tenantId, robot.robotId],
          );
          if (!row) continue;
          const rule = toStoredRule(row);
          const seqFree = !tx.get('SELECT 1 AS found FROM rules WHERE rule_seq = ?', [rule.seq]);
          const seq = seqFree
            ? rule.seq
            : Number(
                tx.get<{ last: number }>('SELECT MAX(rule_seq) AS last FROM rules')?.last ?? 0,
              ) + 1;
          tx.run(INSERT_RULES, [
            seq,
            robot.tenantId,
            robot.robotId,
            now,
            { utf8: JSON.stringify([jsonRow(rule, this.searchText(rule))]) },
            actor,
          ]);
          tx.run('DELETE FROM deleted_rules WHERE rule_id = ?', [ruleId]);
          restored.push({ ...rule, seq, updatedAt: now, updatedBy: actor });
        }
        return restored;
      }),
    );
  }

  async deleted(robot: RobotKey, limit: number): Promise<DeletedRule[]> {
    return this.store
      .all<RuleRow & { deleted_at: number }>(
        `SELECT ${TRASH_COLUMNS}, updated_by, deleted_at FROM deleted_rules WHERE ${OF_ROBOT} ORDER BY deleted_at DESC, rule_seq LIMIT ?`,
        [robot.tenantId, robot.robotId, limit],
      )
      .map((row) => ({ ...toStoredRule(row), deletedAt: Number(row.deleted_at) }));
  }

  async purgeDeleted(before: number): Promise<number> {
    // Looked at first: a purge with nothing to do writes nothing (no journal record).
    const due = 'FROM deleted_rules WHERE deleted_at < ?';
    if (!this.store.get(`SELECT 1 AS found ${due} LIMIT 1`, [before])) return 0;
    return this.store.write((tx) => tx.run(`DELETE ${due}`, [before]));
  }

  async update(
    robot: RobotKey,
    ruleId: string,
    content: RuleContent,
    now: number,
    actor: string,
  ): Promise<StoredRule | undefined> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const changed = tx.run(
          `UPDATE rules SET rule_name = ?, name_key = ?, category_id = ?, active = ?, allow_sim_gen = ?,
            effect_begin = ?, effect_end = ?, questions = ?, answer = ?, updated_at = ?, updated_by = ?,
            effect_begin_ms = ?, effect_end_ms = ?, search_text = ?,
            match_policy = ?, negative_keywords = ?, menu = ?
           WHERE rule_id = ? AND ${OF_ROBOT}`,
          [
            content.ruleName,
            content.nameKey,
            content.categoryId,
            content.active ? 1 : 0,
            sqlBool(content.allowSimGen),
            content.effectBegin,
            content.effectEnd,
            JSON.stringify(content.questions),
            content.answer,
            now,
            actor,
            toMs(content.effectBegin),
            toMs(content.effectEnd),
            this.searchText(content),
            content.matchPolicy ?? 'similarity',
            JSON.stringify(content.negativeKeywords ?? []),
            sqlMenu(content.menu),
            ruleId,
            robot.tenantId,
            robot.robotId,
          ],
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
    actor: string,
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
    const statement = `UPDATE rules SET ${sets.join(', ')}, updated_at = ?, updated_by = ? WHERE rule_id = ? AND ${OF_ROBOT}`;
    return this.store.write((tx) => {
      const changed: StoredRule[] = [];
      for (const ruleId of new Set(ruleIds)) {
        if (tx.run(statement, [...values, now, actor, ruleId, robot.tenantId, robot.robotId]) === 0)
          continue;
        const rule = this.findIn(tx, robot, ruleId);
        if (rule) changed.push(rule);
      }
      return changed;
    });
  }

  /** The trash keeps who deleted each rule as its last change (`updated_by`). */
  async remove(
    robot: RobotKey,
    ruleIds: readonly string[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]> {
    return this.store.write((tx) => {
      const removed: StoredRule[] = [];
      for (const ruleId of new Set(ruleIds)) {
        const rule = this.findIn(tx, robot, ruleId);
        if (!rule) continue;
        const where = [ruleId, robot.tenantId, robot.robotId];
        // A rule deleted before under the same id (deleted, restored, deleted) is replaced.
        tx.run('DELETE FROM deleted_rules WHERE rule_id = ?', [ruleId]);
        tx.run(
          `INSERT INTO deleted_rules (${TRASH_COLUMNS}, deleted_at, updated_by) SELECT ${TRASH_COLUMNS}, ?, ? FROM rules WHERE rule_id = ? AND ${OF_ROBOT}`,
          [now, actor, ...where],
        );
        tx.run(`DELETE FROM rules WHERE rule_id = ? AND ${OF_ROBOT}`, where);
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
    if (filter.state !== undefined) {
      const [condition, values] = stateCondition(filter.state, filter.now);
      where.push(condition);
      params.push(...values);
    }
    const key = filter.text === undefined ? '' : this.textKey(filter.text);
    if (key !== '') {
      where.push("search_text LIKE ? ESCAPE '\\'");
      params.push(`%${escapeLike(key)}%`);
    }
    if (filter.ruleIds !== undefined) {
      where.push('rule_id IN (SELECT value FROM json_each(CAST(? AS TEXT)))');
      params.push(JSON.stringify(filter.ruleIds));
    }
    const order = `${SORT_COLUMNS[filter.sort]} ${filter.descending ? 'DESC' : 'ASC'}, rule_seq ASC`;
    const condition = where.join(' AND ');
    const total = this.store.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM rules WHERE ${condition}`,
      params,
    );
    const paging = [filter.limit, filter.offset];
    if (filter.sort === 'hits' || filter.sort === 'lastHit') {
      const key = filter.sort;
      const figures = (filter.hitFigures ?? []).flatMap((figure) =>
        figure.hits > 0 ? [[figure.ruleId, figure[key] ?? 0]] : [],
      );
      // ?1 is the figures; the condition's parameters are given once per half.
      const rows = this.store.all<RuleRow>(byFigures(RULE_COLUMNS, condition, order), [
        JSON.stringify(figures),
        ...params,
        ...params,
        ...paging,
      ]);
      return { rows: rows.map(toStoredRule), total: Number(total?.n ?? 0) };
    }
    const rows = this.store.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE ${condition} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, ...paging],
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

  async menus(): Promise<{ ruleId: string; menu: MenuEntry[] }[]> {
    return this.store
      .all<{ rule_id: string; menu: string }>(
        'SELECT rule_id, menu FROM rules WHERE menu IS NOT NULL ORDER BY rule_seq',
      )
      .map((row) => ({ ruleId: row.rule_id, menu: JSON.parse(row.menu) as MenuEntry[] }));
  }

  async questions(robot: RobotKey): Promise<{ ruleId: string; questions: string[] }[]> {
    return this.store
      .all<{ rule_id: string; questions: string }>(
        `SELECT rule_id, questions FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
        [robot.tenantId, robot.robotId],
      )
      .map((row) => ({ ruleId: row.rule_id, questions: JSON.parse(row.questions) as string[] }));
  }

  async languageCounts(robot: RobotKey): Promise<{ rules: number; han: number }> {
    const row = this.store.get<{ rules: number; han: number | null }>(
      `SELECT COUNT(*) AS rules, SUM(rule_name GLOB '*[一-鿿]*') AS han FROM rules WHERE ${OF_ROBOT}`,
      [robot.tenantId, robot.robotId],
    );
    return { rules: Number(row?.rules ?? 0), han: Number(row?.han ?? 0) };
  }

  private findIn(reader: Pick<Tx, 'get'>, robot: RobotKey, ruleId: string): StoredRule | undefined {
    const row = reader.get<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE rule_id = ? AND ${OF_ROBOT}`,
      [ruleId, robot.tenantId, robot.robotId],
    );
    return row ? toStoredRule(row) : undefined;
  }
}
