/**
 * The team server's rules: the embedded store's statements on `rules` and `deleted_rules` in
 * PostgreSQL's SQL. Positions (`rule_seq`) come from the column's sequence, so that nodes
 * writing at once never take the same one; everything else behaves as in the embedded store.
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
import { mapInSlices } from '../../../time-slices';
import {
  TRASH_COLUMNS,
  escapeLike,
  jsonRow,
  ruleSearchText,
} from '../../embedded/repositories/rule-repository';
import type { TextKey } from '../../embedded/repositories/rule-repository';
import {
  MATCHABLE_COLUMNS,
  RULE_COLUMNS,
  sqlMenu,
  toMatchableRecord,
  toStoredRule,
} from '../../embedded/repositories/rule-rows';
import type { MatchableRow, RuleRow } from '../../embedded/repositories/rule-rows';
import type { Database, SqlValue, Tx } from '../database';

/**
 * Inserts rules from one JSON array parameter ($4): each row is its position followed by the
 * embedded store's row (`jsonRow`), so both stores write a rule from the same values; $5 is who
 * wrote them.
 */
export const INSERT_RULES = `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer,
  category_id, active, allow_sim_gen, effect_begin, effect_end, answer_content_type, created_at, updated_at,
  effect_begin_ms, effect_end_ms, search_text, match_policy, negative_keywords, menu, updated_by)
SELECT (j.v ->> 0)::bigint, j.v ->> 1, $1, $2, j.v ->> 2, j.v ->> 3, j.v ->> 4, j.v ->> 5,
  j.v ->> 6, (j.v ->> 7)::bigint, (j.v ->> 8)::bigint, j.v ->> 9, j.v ->> 10, 'TEXT', (j.v ->> 11)::bigint, $3,
  (j.v ->> 12)::bigint, (j.v ->> 13)::bigint, j.v ->> 14, j.v ->> 15, j.v ->> 16, j.v ->> 17, $5
FROM jsonb_array_elements($4::jsonb) AS j(v)`;

/** Rules per INSERT statement: one parameter of a few hundred kilobytes. */
const INSERT_CHUNK = 1000;

const OF_ROBOT = 'tenant_id = $1 AND robot_id = $2';

/**
 * Sort columns; text is compared as bytes (`COLLATE "C"`), as SQLite does, whatever the
 * database's locale.
 */
const SORT_COLUMNS: Record<RuleFilter['sort'], string> = {
  created: 'rule_seq',
  updated: 'updated_at',
  ruleName: 'name_key COLLATE "C"',
  category: 'category_id COLLATE "C"',
  active: 'active',
  hits: 'sort_key',
  lastHit: 'sort_key',
};

/** Takes `count` new positions, ascending (a batch's rules are inserted in the order given). */
export async function newSeqs(tx: Tx, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await tx.all<{ seq: number }>(
    "SELECT nextval(pg_get_serial_sequence('rules', 'rule_seq')) AS seq FROM generate_series(1, $1)",
    [count],
  );
  return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
}

/**
 * For rules coming back (from the trash, from a version): their old position where it is free,
 * else a new one at the end.
 */
export async function placesFor(tx: Tx, seqs: readonly number[]): Promise<number[]> {
  const taken = new Set(
    (
      await tx.all<{ rule_seq: number }>(
        'SELECT rule_seq FROM rules WHERE rule_seq = ANY($1::bigint[])',
        [seqs],
      )
    ).map((row) => Number(row.rule_seq)),
  );
  const wanted = seqs.map((seq) => {
    if (taken.has(seq)) return null;
    taken.add(seq);
    return seq;
  });
  const fresh = await newSeqs(tx, wanted.filter((seq) => seq === null).length);
  return wanted.map((seq) => seq ?? (fresh.shift() as number));
}

/**
 * Writes rules (as `jsonRow`s, each with its position) into the robot, in statements of a chunk,
 * as changed by `actor`.
 */
export async function insertRows(
  tx: Tx,
  robot: RobotKey,
  rows: readonly unknown[][],
  now: number,
  actor: string,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    inserted += await tx.run(INSERT_RULES, [
      robot.tenantId,
      robot.robotId,
      now,
      JSON.stringify(rows.slice(i, i + INSERT_CHUNK)),
      actor,
    ]);
  }
  return inserted;
}

/**
 * Moves rules of the robot to the trash (a rule deleted before under the same id is replaced);
 * the trash keeps who deleted each rule as its last change (`updated_by`).
 */
export async function trashRules(
  tx: Tx,
  robot: RobotKey,
  ruleIds: readonly string[],
  now: number,
  actor: string,
): Promise<void> {
  const key = [robot.tenantId, robot.robotId, ruleIds];
  await tx.run('DELETE FROM deleted_rules WHERE rule_id = ANY($1::text[])', [ruleIds]);
  await tx.run(
    `INSERT INTO deleted_rules (${TRASH_COLUMNS}, deleted_at, updated_by)
     SELECT ${TRASH_COLUMNS}, $4, $5 FROM rules
     WHERE ${OF_ROBOT} AND rule_id = ANY($3::text[]) ORDER BY rule_seq`,
    [...key, now, actor],
  );
  await tx.run(`DELETE FROM rules WHERE ${OF_ROBOT} AND rule_id = ANY($3::text[])`, key);
}

/** Rows in the order of `ids` (each once), those not found left out. */
function inOrderOf<R>(ids: readonly string[], rows: readonly R[], idOf: (row: R) => string): R[] {
  const byId = new Map(rows.map((row) => [idOf(row), row]));
  const ordered: R[] = [];
  for (const id of new Set(ids)) {
    const row = byId.get(id);
    if (row !== undefined) ordered.push(row);
  }
  return ordered;
}

/**
 * A rule's effective state at a time (the embedded store's conditions); `at` binds the time
 * where the condition needs it.
 */
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

export class PostgresRuleRepository implements RuleRepository {
  constructor(
    private readonly db: Database,
    private readonly textKey: TextKey,
  ) {}

  searchText(rule: Pick<RuleContent, 'ruleName' | 'questions' | 'answer'>): string {
    return ruleSearchText(this.textKey, rule);
  }

  async find(robot: RobotKey, ruleId: string): Promise<StoredRule | undefined> {
    return this.findIn(this.db, robot, ruleId);
  }

  async findMany(robot: RobotKey, ruleIds: readonly string[]): Promise<StoredRule[]> {
    if (ruleIds.length === 0) return [];
    const rows = await this.db.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_id = ANY($3::text[])`,
      [robot.tenantId, robot.robotId, ruleIds],
    );
    return rows.map(toStoredRule);
  }

  async answerOf(ruleId: string): Promise<string | undefined> {
    return (
      await this.db.get<{ answer: string }>('SELECT answer FROM rules WHERE rule_id = $1', [ruleId])
    )?.answer;
  }

  async namesOf(ruleIds: readonly string[]): Promise<Map<string, string>> {
    if (ruleIds.length === 0) return new Map();
    const rows = await this.db.all<{ rule_id: string; rule_name: string }>(
      'SELECT rule_id, rule_name FROM rules WHERE rule_id = ANY($1::text[])',
      [ruleIds],
    );
    return new Map(
      inOrderOf(ruleIds, rows, (row) => row.rule_id).map((r) => [r.rule_id, r.rule_name]),
    );
  }

  async takenNameKeys(robot: RobotKey, nameKeys: readonly string[]): Promise<Set<string>> {
    if (nameKeys.length === 0) return new Set();
    const rows = await this.db.all<{ name_key: string }>(
      `SELECT name_key FROM rules WHERE ${OF_ROBOT} AND name_key = ANY($3::text[])`,
      [robot.tenantId, robot.robotId, nameKeys],
    );
    return new Set(rows.map((row) => row.name_key));
  }

  async nameHolder(robot: RobotKey, nameKey: string): Promise<string | undefined> {
    return (
      await this.db.get<{ rule_id: string }>(
        `SELECT rule_id FROM rules WHERE ${OF_ROBOT} AND name_key = $3`,
        [robot.tenantId, robot.robotId, nameKey],
      )
    )?.rule_id;
  }

  async idExists(ruleId: string): Promise<boolean> {
    return (
      (await this.db.get('SELECT 1 AS found FROM rules WHERE rule_id = $1', [ruleId])) !== undefined
    );
  }

  async insert(
    robot: RobotKey,
    rules: readonly NewRule[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]> {
    if (rules.length === 0) return [];
    // In slices: the search texts of a batch take tens of milliseconds.
    const rows = await mapInSlices(rules, (rule) => jsonRow(rule, this.searchText(rule)));
    const seqs = await this.db.write(async (tx) => {
      const seqs = await newSeqs(tx, rules.length);
      const inserted = await insertRows(
        tx,
        robot,
        rows.map((row, i) => [seqs[i], ...row]),
        now,
        actor,
      );
      if (inserted !== rules.length)
        throw new Error(`inserted ${inserted} of ${rules.length} rules`);
      return seqs;
    });
    return mapInSlices(rules, (rule, i) => ({
      ...rule,
      matchPolicy: rule.matchPolicy ?? 'similarity',
      negativeKeywords: rule.negativeKeywords ?? [],
      menu: sqlMenu(rule.menu) === null ? null : (rule.menu ?? null),
      seq: seqs[i] as number,
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
    if (ruleIds.length === 0) return [];
    return this.db.write(async (tx) => {
      const found = await tx.all<RuleRow>(
        `SELECT ${TRASH_COLUMNS}, updated_by FROM deleted_rules WHERE ${OF_ROBOT} AND rule_id = ANY($3::text[])`,
        [robot.tenantId, robot.robotId, ruleIds],
      );
      const rules = inOrderOf(ruleIds, found, (row) => row.rule_id).map(toStoredRule);
      if (rules.length === 0) return [];
      const seqs = await placesFor(
        tx,
        rules.map((rule) => rule.seq),
      );
      const ids = rules.map((rule) => rule.ruleId);
      await insertRows(
        tx,
        robot,
        rules.map((rule, i) => [seqs[i], ...jsonRow(rule, this.searchText(rule))]),
        now,
        actor,
      );
      await tx.run('DELETE FROM deleted_rules WHERE rule_id = ANY($1::text[])', [ids]);
      return rules.map((rule, i) => ({
        ...rule,
        seq: seqs[i] as number,
        updatedAt: now,
        updatedBy: actor,
      }));
    });
  }

  async deleted(robot: RobotKey, limit: number): Promise<DeletedRule[]> {
    const rows = await this.db.all<RuleRow & { deleted_at: number }>(
      `SELECT ${TRASH_COLUMNS}, updated_by, deleted_at FROM deleted_rules WHERE ${OF_ROBOT}
       ORDER BY deleted_at DESC, rule_seq LIMIT $3`,
      [robot.tenantId, robot.robotId, limit],
    );
    return rows.map((row) => ({ ...toStoredRule(row), deletedAt: Number(row.deleted_at) }));
  }

  async purgeDeleted(before: number): Promise<number> {
    const due = 'FROM deleted_rules WHERE deleted_at < $1';
    // Looked at first: a purge with nothing to do writes nothing.
    if (!(await this.db.get(`SELECT 1 AS found ${due} LIMIT 1`, [before]))) return 0;
    return this.db.write((tx) => tx.run(`DELETE ${due}`, [before]));
  }

  async update(
    robot: RobotKey,
    ruleId: string,
    content: RuleContent,
    now: number,
    actor: string,
  ): Promise<StoredRule | undefined> {
    const [, ...fields] = jsonRow({ ...content, ruleId, createdAt: 0 }, this.searchText(content));
    return this.db.write(async (tx) => {
      const row = await tx.get<RuleRow>(
        `WITH c AS (SELECT $4::jsonb AS v)
         UPDATE rules SET rule_name = c.v ->> 0, name_key = c.v ->> 1, questions = c.v ->> 2,
           answer = c.v ->> 3, category_id = c.v ->> 4, active = (c.v ->> 5)::bigint,
           allow_sim_gen = (c.v ->> 6)::bigint, effect_begin = c.v ->> 7, effect_end = c.v ->> 8,
           effect_begin_ms = (c.v ->> 10)::bigint, effect_end_ms = (c.v ->> 11)::bigint,
           search_text = c.v ->> 12, match_policy = c.v ->> 13, negative_keywords = c.v ->> 14,
           menu = c.v ->> 15, updated_at = $5, updated_by = $6
         FROM c WHERE ${OF_ROBOT} AND rule_id = $3 RETURNING ${RULE_COLUMNS}`,
        [robot.tenantId, robot.robotId, ruleId, JSON.stringify(fields), now, actor],
      );
      return row ? toStoredRule(row) : undefined;
    });
  }

  async patchMany(
    robot: RobotKey,
    ruleIds: readonly string[],
    patch: RuleFieldsPatch,
    now: number,
    actor: string,
  ): Promise<StoredRule[]> {
    const params: SqlValue[] = [robot.tenantId, robot.robotId, ruleIds, now, actor];
    const sets: string[] = [];
    if (patch.active !== undefined) {
      params.push(patch.active ? 1 : 0);
      sets.push(`active = $${params.length}`);
    }
    if (patch.categoryId !== undefined) {
      params.push(patch.categoryId);
      sets.push(`category_id = $${params.length}`);
    }
    if (sets.length === 0 || ruleIds.length === 0) return [];
    return this.db.write(async (tx) => {
      const rows = await tx.all<RuleRow>(
        `UPDATE rules SET ${sets.join(', ')}, updated_at = $4, updated_by = $5
         WHERE ${OF_ROBOT} AND rule_id = ANY($3::text[]) RETURNING ${RULE_COLUMNS}`,
        params,
      );
      return inOrderOf(ruleIds, rows, (row) => row.rule_id).map(toStoredRule);
    });
  }

  /** The trash keeps who deleted each rule as its last change (`updated_by`). */
  async remove(
    robot: RobotKey,
    ruleIds: readonly string[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]> {
    if (ruleIds.length === 0) return [];
    return this.db.write(async (tx) => {
      const rows = await tx.all<RuleRow>(
        `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_id = ANY($3::text[])`,
        [robot.tenantId, robot.robotId, ruleIds],
      );
      const removed = inOrderOf(ruleIds, rows, (row) => row.rule_id).map(toStoredRule);
      if (removed.length > 0) {
        await trashRules(
          tx,
          robot,
          removed.map((rule) => rule.ruleId),
          now,
          actor,
        );
      }
      return removed;
    });
  }

  async seqs(robot: RobotKey): Promise<number[]> {
    const rows = await this.db.all<{ rule_seq: number }>(
      `SELECT rule_seq FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
      [robot.tenantId, robot.robotId],
    );
    return rows.map((row) => Number(row.rule_seq));
  }

  async maxSeq(robot: RobotKey): Promise<number> {
    const row = await this.db.get<{ last: number | null }>(
      `SELECT MAX(rule_seq) AS last FROM rules WHERE ${OF_ROBOT}`,
      [robot.tenantId, robot.robotId],
    );
    return Number(row?.last ?? 0);
  }

  async pageFrom(robot: RobotKey, fromSeq: number, limit: number): Promise<StoredRule[]> {
    const rows = await this.db.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_seq >= $3 ORDER BY rule_seq LIMIT $4`,
      [robot.tenantId, robot.robotId, fromSeq, limit],
    );
    return rows.map(toStoredRule);
  }

  async query(robot: RobotKey, filter: RuleFilter): Promise<{ rows: StoredRule[]; total: number }> {
    const params: SqlValue[] = [];
    const param = (value: SqlValue): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = [`tenant_id = ${param(robot.tenantId)}`, `robot_id = ${param(robot.robotId)}`];
    if (filter.active !== undefined) where.push(`active = ${param(filter.active ? 1 : 0)}`);
    if (filter.category !== undefined) where.push(`category_id = ${param(filter.category)}`);
    if (filter.state !== undefined)
      where.push(stateCondition(filter.state, () => `${param(filter.now)}::bigint`));
    const key = filter.text === undefined ? '' : this.textKey(filter.text);
    if (key !== '')
      where.push(`search_text LIKE ${param(`%${escapeLike(key)}%`)}::text ESCAPE '\\'`);
    if (filter.ruleIds !== undefined) where.push(`rule_id = ANY(${param(filter.ruleIds)}::text[])`);
    const condition = where.join(' AND ');
    const order = `${SORT_COLUMNS[filter.sort]} ${filter.descending ? 'DESC' : 'ASC'}, rule_seq ASC`;
    const counting = this.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM rules WHERE ${condition}`,
      params.slice(),
    );
    let sql: string;
    if (filter.sort === 'hits' || filter.sort === 'lastHit') {
      // The question log's figures of the rules hit; the others count 0.
      const sortKey = filter.sort;
      const hit = (filter.hitFigures ?? []).filter((figure) => figure.hits > 0);
      const ids = param(hit.map((figure) => figure.ruleId));
      const figures = param(hit.map((figure) => figure[sortKey] ?? 0));
      sql = `SELECT ${RULE_COLUMNS}, COALESCE(f.figure, 0) AS sort_key
        FROM rules LEFT JOIN unnest(${ids}::text[], ${figures}::float8[]) AS f(figure_rule_id, figure)
          ON f.figure_rule_id = rules.rule_id
        WHERE ${condition} ORDER BY ${order}`;
    } else {
      sql = `SELECT ${RULE_COLUMNS} FROM rules WHERE ${condition} ORDER BY ${order}`;
    }
    sql += ` LIMIT ${param(filter.limit)} OFFSET ${param(filter.offset)}`;
    const [rows, total] = await Promise.all([this.db.all<RuleRow>(sql, params), counting]);
    return { rows: rows.map(toStoredRule), total: Number(total?.n ?? 0) };
  }

  async matchable(robot?: RobotKey): Promise<MatchableRecord[]> {
    const rows = robot
      ? await this.db.all<MatchableRow>(
          `SELECT ${MATCHABLE_COLUMNS} FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
          [robot.tenantId, robot.robotId],
        )
      : await this.db.all<MatchableRow>(`SELECT ${MATCHABLE_COLUMNS} FROM rules ORDER BY rule_seq`);
    return rows.map(toMatchableRecord);
  }

  async menus(): Promise<{ ruleId: string; menu: MenuEntry[] }[]> {
    const rows = await this.db.all<{ rule_id: string; menu: string }>(
      'SELECT rule_id, menu FROM rules WHERE menu IS NOT NULL ORDER BY rule_seq',
    );
    return rows.map((row) => ({ ruleId: row.rule_id, menu: JSON.parse(row.menu) as MenuEntry[] }));
  }

  async questions(robot: RobotKey): Promise<{ ruleId: string; questions: string[] }[]> {
    const rows = await this.db.all<{ rule_id: string; questions: string }>(
      `SELECT rule_id, questions FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
      [robot.tenantId, robot.robotId],
    );
    return rows.map((row) => ({
      ruleId: row.rule_id,
      questions: JSON.parse(row.questions) as string[],
    }));
  }

  async languageCounts(robot: RobotKey): Promise<{ rules: number; han: number }> {
    // The range is of code points, as SQLite's GLOB reads it.
    const row = await this.db.get<{ rules: number; han: number }>(
      `SELECT COUNT(*) AS rules, COUNT(*) FILTER (WHERE rule_name COLLATE "C" ~ '[一-鿿]') AS han
       FROM rules WHERE ${OF_ROBOT}`,
      [robot.tenantId, robot.robotId],
    );
    return { rules: Number(row?.rules ?? 0), han: Number(row?.han ?? 0) };
  }

  private async findIn(
    reader: Pick<Tx, 'get'>,
    robot: RobotKey,
    ruleId: string,
  ): Promise<StoredRule | undefined> {
    const row = await reader.get<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} AND rule_id = $3`,
      [robot.tenantId, robot.robotId, ruleId],
    );
    return row ? toStoredRule(row) : undefined;
  }
}
