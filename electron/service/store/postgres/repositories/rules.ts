/**
 * The team server's rules (statements: sql/rule-statements.ts, rows: sql/rule-rows.ts), with
 * what PostgreSQL does its own way: many rules in one statement where the embedded store takes
 * them one by one (each statement is a round trip), positions (`rule_seq`) from the column's
 * sequence, so that nodes writing at once never take the same one, and a page sorted by the
 * question log's figures through a join. The contract (store/contract/rules.ts) states what each
 * method returns.
 * @module
 */
import type { NewRule, RobotKey, RuleContent, RuleFilter } from '../../contract/records';
import type { RuleRepository } from '../../contract/rules';
import { mapInSlices } from '../../../time-slices';
import { postgres } from '../../sql/dialect';
import * as ruleRows from '../../sql/rule-rows';
import * as ruleSql from '../../sql/rule-statements';
import type { Database, Reader, Tx } from '../database';

/** A robot's change marks are folded into one past this many (`changeCount`). */
export const MARKS_FOLDED_PAST = 64;

const SQL = ruleSql.statements(postgres);

/**
 * Inserts rules from one JSON array parameter ($4): each row is its position followed by the
 * values both stores write a rule from (`jsonRow`); $5 is who wrote them.
 */
export const INSERT_RULES = `INSERT INTO rules (${ruleRows.INSERTED_COLUMNS})
SELECT (j.v ->> 0)::bigint, j.v ->> 1, $1, $2, j.v ->> 2, j.v ->> 3, j.v ->> 4, j.v ->> 5,
  j.v ->> 6, (j.v ->> 7)::bigint, (j.v ->> 8)::bigint, j.v ->> 9, j.v ->> 10, 'TEXT', (j.v ->> 11)::bigint, $3,
  (j.v ->> 12)::bigint, (j.v ->> 13)::bigint, j.v ->> 14, j.v ->> 15, j.v ->> 16, j.v ->> 17, $5
FROM jsonb_array_elements($4::jsonb) AS j(v)`;

/** Rules per INSERT statement: one parameter of a few hundred kilobytes. */
const INSERT_CHUNK = 1000;

const OF_ROBOT = 'tenant_id = $1 AND robot_id = $2';

const NAMES = 'SELECT rule_id, rule_name FROM rules WHERE rule_id = ANY($1::text[])';

/** $3: rule ids. */
const OF_RULES = `${OF_ROBOT} AND rule_id = ANY($3::text[])`;

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
  stamp: ruleRows.Stamp,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + INSERT_CHUNK));
    const params = [robot.tenantId, robot.robotId, stamp.now, chunk, stamp.actor];
    inserted += await tx.run(INSERT_RULES, params);
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
  stamp: ruleRows.Stamp,
): Promise<void> {
  const key = [robot.tenantId, robot.robotId, ruleIds];
  await tx.run('DELETE FROM deleted_rules WHERE rule_id = ANY($1::text[])', [ruleIds]);
  await tx.run(
    `INSERT INTO deleted_rules (${ruleRows.TRASH_COLUMNS}, deleted_at, updated_by)
     SELECT ${ruleRows.TRASH_COLUMNS}, $4, $5 FROM rules WHERE ${OF_RULES} ORDER BY rule_seq`,
    [...key, stamp.now, stamp.actor],
  );
  await tx.run(`DELETE FROM rules WHERE ${OF_RULES}`, key);
}

/** Rows in the order of `ids` (each once), those not found left out. */
export function inOrderOf<R>(
  ids: readonly string[],
  rows: readonly R[],
  idOf: (row: R) => string,
): R[] {
  const byId = new Map(rows.map((row) => [idOf(row), row]));
  const ordered: R[] = [];
  for (const id of new Set(ids)) {
    const row = byId.get(id);
    if (row !== undefined) ordered.push(row);
  }
  return ordered;
}

/** The names of rules found by `statement` ($1: their ids), in the order of `ruleIds`. */
export async function namesOf(
  reader: Reader,
  statement: string,
  ruleIds: readonly string[],
): Promise<Map<string, string>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await reader.all<{ rule_id: string; rule_name: string }>(statement, [ruleIds]);
  const found = inOrderOf(ruleIds, rows, (row) => row.rule_id);
  return new Map(found.map((row) => [row.rule_id, row.rule_name]));
}

export class PostgresRuleRepository implements RuleRepository {
  constructor(
    private readonly db: Database,
    private readonly textKey: ruleRows.TextKey,
  ) {}

  async find(robot: RobotKey, ruleId: string) {
    return this.findIn(this.db, robot, ruleId);
  }

  async findMany(robot: RobotKey, ruleIds: readonly string[]) {
    if (ruleIds.length === 0) return [];
    const key = [robot.tenantId, robot.robotId, ruleIds];
    const rows = await this.db.all<ruleRows.RuleRow>(
      `SELECT ${ruleRows.RULE_COLUMNS} FROM rules WHERE ${OF_RULES}`,
      key,
    );
    return rows.map(ruleRows.toStoredRule);
  }

  async answerOf(ruleId: string) {
    return (await this.db.get<{ answer: string }>(SQL.answerOf, [ruleId]))?.answer;
  }

  async namesOf(ruleIds: readonly string[]) {
    return namesOf(this.db, NAMES, ruleIds);
  }

  async takenNameKeys(robot: RobotKey, nameKeys: readonly string[]) {
    if (nameKeys.length === 0) return new Set<string>();
    const rows = await this.db.all<{ name_key: string }>(
      `SELECT name_key FROM rules WHERE ${OF_ROBOT} AND name_key = ANY($3::text[])`,
      [robot.tenantId, robot.robotId, nameKeys],
    );
    return new Set(rows.map((row) => row.name_key));
  }

  async nameHolder(robot: RobotKey, nameKey: string) {
    const key = [robot.tenantId, robot.robotId, nameKey];
    return (await this.db.get<{ rule_id: string }>(SQL.nameHolder, key))?.rule_id;
  }

  async idExists(ruleId: string) {
    return (await this.db.get(SQL.idExists, [ruleId])) !== undefined;
  }

  async insert(robot: RobotKey, rules: readonly NewRule[], now: number, actor: string) {
    if (rules.length === 0) return [];
    // In slices: the search texts of a batch take tens of milliseconds.
    const rows = await mapInSlices(rules, (rule) => ruleRows.jsonRow(rule, this.textKey));
    const seqs = await this.db.write(async (tx) => {
      const seqs = await newSeqs(tx, rules.length);
      const positioned = rows.map((row, i) => [seqs[i], ...row]);
      const inserted = await insertRows(tx, robot, positioned, { now, actor });
      if (inserted !== rules.length)
        throw new Error(`inserted ${inserted} of ${rules.length} rules`);
      return seqs;
    });
    return mapInSlices(rules, (rule, i) =>
      ruleRows.insertedRule(robot, rule, seqs[i] as number, { now, actor }),
    );
  }

  async restore(robot: RobotKey, ruleIds: readonly string[], now: number, actor: string) {
    if (ruleIds.length === 0) return [];
    return this.db.write(async (tx) => {
      const found = await tx.all<ruleRows.RuleRow>(
        `SELECT ${ruleRows.TRASH_COLUMNS}, updated_by FROM deleted_rules WHERE ${OF_RULES}`,
        [robot.tenantId, robot.robotId, ruleIds],
      );
      const rules = inOrderOf(ruleIds, found, (row) => row.rule_id).map(ruleRows.toStoredRule);
      if (rules.length === 0) return [];
      const seqs = await placesFor(
        tx,
        rules.map((rule) => rule.seq),
      );
      const rows = rules.map((rule, i) => [seqs[i], ...ruleRows.jsonRow(rule, this.textKey)]);
      await insertRows(tx, robot, rows, { now, actor });
      const ids = rules.map((rule) => rule.ruleId);
      await tx.run('DELETE FROM deleted_rules WHERE rule_id = ANY($1::text[])', [ids]);
      return rules.map((rule, i) => ({
        ...rule,
        seq: seqs[i] as number,
        updatedAt: now,
        updatedBy: actor,
      }));
    });
  }

  async deleted(robot: RobotKey, limit: number) {
    const key = [robot.tenantId, robot.robotId, limit];
    return (await this.db.all<ruleRows.DeletedRuleRow>(SQL.trash, key)).map(ruleRows.toDeletedRule);
  }

  async purgeDeleted(before: number) {
    // Looked at first: a purge with nothing to do writes nothing.
    if (!(await this.db.get(SQL.anyTrashBefore, [before]))) return 0;
    return this.db.write((tx) => tx.run(SQL.purgeTrashBefore, [before]), { long: true });
  }

  async update(robot: RobotKey, ruleId: string, content: RuleContent, now: number, actor: string) {
    const params = ruleSql.updateParams(robot, ruleId, content, this.textKey, {
      now,
      actor,
    });
    return this.db.write(async (tx) => {
      const row = await tx.get<ruleRows.RuleRow>(
        `${SQL.update} RETURNING ${ruleRows.RULE_COLUMNS}`,
        params,
      );
      return row && ruleRows.toStoredRule(row);
    });
  }

  /** Typed by the contract (`RuleRepository.patchMany`). */
  patchMany: RuleRepository['patchMany'] = async (robot, ruleIds, patch, now, actor) => {
    const assigned = ruleSql.patchAssignments(postgres, patch);
    if (!assigned || ruleIds.length === 0) return [];
    const params = [robot.tenantId, robot.robotId, ruleIds, now, actor, ...assigned.values];
    return this.db.write(async (tx) => {
      const rows = await tx.all<ruleRows.RuleRow>(
        `UPDATE rules SET ${assigned.set} WHERE ${OF_RULES} RETURNING ${ruleRows.RULE_COLUMNS}`,
        params,
      );
      return inOrderOf(ruleIds, rows, (row) => row.rule_id).map(ruleRows.toStoredRule);
    });
  };

  /** The trash keeps who deleted each rule as its last change (`updated_by`). */
  async remove(robot: RobotKey, ruleIds: readonly string[], now: number, actor: string) {
    if (ruleIds.length === 0) return [];
    return this.db.write(async (tx) => {
      const rows = await tx.all<ruleRows.RuleRow>(
        `SELECT ${ruleRows.RULE_COLUMNS} FROM rules WHERE ${OF_RULES}`,
        [robot.tenantId, robot.robotId, ruleIds],
      );
      const removed = inOrderOf(ruleIds, rows, (row) => row.rule_id).map(ruleRows.toStoredRule);
      const ids = removed.map((rule) => rule.ruleId);
      if (ids.length > 0) await trashRules(tx, robot, ids, { now, actor });
      return removed;
    });
  }

  async seqs(robot: RobotKey) {
    const rows = await this.db.all<{ rule_seq: number }>(SQL.seqs, [robot.tenantId, robot.robotId]);
    return rows.map((row) => Number(row.rule_seq));
  }

  async maxSeq(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    return Number((await this.db.get<{ last: number | null }>(SQL.maxSeq, key))?.last ?? 0);
  }

  async changeCount(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    // Rows, not a counter (migration 0010): a write locks nothing another node's write waits for.
    const count = await this.db.get<{ changes: string | null; marks: string }>(
      'SELECT sum(weight) AS changes, count(*) AS marks FROM rule_change_marks WHERE tenant_id = $1 AND robot_id = $2',
      key,
    );
    // Folded in one statement (atomic on its own): a concurrent reader sees the rows before or
    // after, the same sum; a write's mark not yet committed is not among the rows deleted; a
    // second fold at once finds the rows gone and adds nothing. Bookkeeping, not a change of the
    // knowledge base: it takes no store position (`write` would).
    if (Number(count?.marks ?? 0) > MARKS_FOLDED_PAST)
      await this.db.get(
        `WITH folded AS (DELETE FROM rule_change_marks WHERE tenant_id = $1 AND robot_id = $2 RETURNING weight)
         INSERT INTO rule_change_marks (tenant_id, robot_id, weight)
           SELECT $1::bigint, $2::text, sum(weight) FROM folded HAVING count(*) > 0`,
        key,
      );
    return Number(count?.changes ?? 0);
  }

  async pageFrom(robot: RobotKey, fromSeq: number, limit: number) {
    const page = [robot.tenantId, robot.robotId, fromSeq, limit];
    return (await this.db.all<ruleRows.RuleRow>(SQL.pageFrom, page)).map(ruleRows.toStoredRule);
  }

  async query(robot: RobotKey, filter: RuleFilter) {
    const page = ruleSql.rulePage(postgres, robot, filter, this.textKey);
    const counting = this.db.get<{ n: number }>(page.count, page.countParams);
    const { condition, order, params } = page;
    let sql = `SELECT ${ruleRows.RULE_COLUMNS} FROM rules WHERE ${condition} ORDER BY ${order}`;
    if (page.figures) {
      // The question log's figures of the rules hit; the others count 0.
      const ids = params.add(page.figures.map(([ruleId]) => ruleId));
      const figures = params.add(page.figures.map(([, figure]) => figure));
      sql = `SELECT ${ruleRows.RULE_COLUMNS}, COALESCE(f.figure, 0) AS sort_key
        FROM rules LEFT JOIN unnest(${ids}::text[], ${figures}::float8[]) AS f(figure_rule_id, figure)
          ON f.figure_rule_id = rules.rule_id
        WHERE ${condition} ORDER BY ${order}`;
    }
    sql += ` LIMIT ${params.add(filter.limit)} OFFSET ${params.add(filter.offset)}`;
    const [rows, total] = await Promise.all([
      this.db.all<ruleRows.RuleRow>(sql, params.values),
      counting,
    ]);
    return { rows: rows.map(ruleRows.toStoredRule), total: Number(total?.n ?? 0) };
  }

  // Every rule of a robot, or of the database (at start): the long timeout.
  async matchable(robot?: RobotKey) {
    const rows = robot
      ? await this.db.long.all<ruleRows.MatchableRow>(SQL.matchableOfRobot, [
          robot.tenantId,
          robot.robotId,
        ])
      : await this.db.long.all<ruleRows.MatchableRow>(SQL.matchable);
    return rows.map(ruleRows.toMatchableRecord);
  }

  async menus() {
    return (await this.db.long.all<{ rule_id: string; menu: string }>(SQL.menus)).map(
      ruleRows.toRuleMenu,
    );
  }

  async menusOf(robot: RobotKey, ruleIds: readonly string[]) {
    if (ruleIds.length === 0) return [];
    const rows = await this.db.all<{ rule_id: string; menu: string }>(
      `SELECT rule_id, menu FROM rules WHERE ${OF_RULES} AND menu IS NOT NULL`,
      [robot.tenantId, robot.robotId, ruleIds],
    );
    return rows.map(ruleRows.toRuleMenu);
  }

  async questions(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    const rows = await this.db.all<{ rule_id: string; questions: string }>(SQL.questions, key);
    return rows.map(ruleRows.toRuleQuestions);
  }

  async facts(robot: RobotKey) {
    type Row = Parameters<typeof ruleRows.toRuleFacts>[0];
    const rows = await this.db.all<Row>(SQL.facts, [robot.tenantId, robot.robotId]);
    return rows.map(ruleRows.toRuleFacts);
  }

  async languageCounts(robot: RobotKey) {
    // The range is of code points, as SQLite's GLOB reads it.
    const row = await this.db.get<{ rules: number; han: number }>(
      `SELECT COUNT(*) AS rules, COUNT(*) FILTER (WHERE rule_name COLLATE "C" ~ '[一-鿿]') AS han
       FROM rules WHERE ${OF_ROBOT}`,
      [robot.tenantId, robot.robotId],
    );
    return { rules: Number(row?.rules ?? 0), han: Number(row?.han ?? 0) };
  }

  private async findIn(reader: Reader, robot: RobotKey, ruleId: string) {
    const row = await reader.get<ruleRows.RuleRow>(SQL.find, [
      robot.tenantId,
      robot.robotId,
      ruleId,
    ]);
    return row && ruleRows.toStoredRule(row);
  }
}
