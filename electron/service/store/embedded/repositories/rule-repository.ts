/**
 * The embedded store's rules (statements: sql/rule-statements.ts, rows: sql/rule-rows.ts), with
 * what SQLite does its own way: a batch of rules unpacked by SQLite from one JSON parameter, a
 * new position one past the highest, a page sorted by the question log's figures. The contract
 * (store/contract/rules.ts) states what each method returns.
 * @module
 */
import type {
  NewRule,
  RobotKey,
  RuleContent,
  RuleFilter,
  StoredRule,
} from '../../contract/records';
import type { RuleRepository } from '../../contract/rules';
import { mapInSlices, nextTurn } from '../../../time-slices';
import { sqlite } from '../../sql/dialect';
import * as ruleRows from '../../sql/rule-rows';
import * as ruleSql from '../../sql/rule-statements';
import type { Reader, Store, Tx } from '../database';
import { needsScan, scanRulePage } from './rule-page-scan';
import { mappingUniqueViolations } from './unique-violations';

const SQL = ruleSql.statements(sqlite);

/**
 * Inserts many rules in one statement: ?5 is a JSON array of rows, unpacked by SQLite itself.
 * One bound parameter instead of a dozen per rule (each a copy into the WebAssembly heap), one
 * journal operation per batch, and a deterministic replay: rule_seq is given (?1 + position),
 * not left to SQLite. `jsonb_each`, not `json_each`: its rows are binary JSON, read by `->>`
 * without being parsed again (`json_each` hands each row over as text, parsed by every `->>`:
 * a 1000-rule batch spent 40 ms there instead of 14).
 */
export const INSERT_RULES = `INSERT INTO rules (${ruleRows.INSERTED_COLUMNS})
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

const OF_ROBOT = 'tenant_id = ?1 AND robot_id = ?2';

/**
 * The names of the rules of the JSON array ?1, in one statement (a page's rules: the inbox's,
 * analytics'), one primary-key lookup each: looked up one statement a rule, sql.js paid a
 * statement's preparation and a turn through its bindings per rule.
 */
const NAMES_OF = `SELECT r.rule_id, r.rule_name FROM json_each(CAST(?1 AS TEXT)) AS j
JOIN rules AS r ON r.rule_id = j.value`;

/** A page's rules by their positions (the JSON array ?3), one index lookup each. */
const SQL_ROWS_AT = `SELECT ${ruleRows.RULE_COLUMNS} FROM rules
WHERE ${OF_ROBOT} AND rule_seq IN (SELECT value FROM json_each(CAST(?3 AS TEXT)))`;

/** Rules looked up per statement: a bounded statement whatever the page's size. */
const NAMES_SLICE = 500;
/** A robot's rules read per statement in whole reads (a few ms of the event loop each). */
const ROBOT_PAGE = 500;

/** Rules at a time to fill their search text at open (a first open after an upgrade). */
const SEARCH_FILL_BATCH = 2000;

/** The position after the highest of the store (a position is never reused by another rule). */
const nextSeq = (reader: Reader): number =>
  Number(reader.get<{ last: number }>('SELECT MAX(rule_seq) AS last FROM rules')?.last ?? 0) + 1;

/**
 * Writes a rule back into the robot (from the trash, from a version), taking it out of the
 * trash: at its old position where that is free, else after the last. Returns the position.
 */
export function reinsertRule(
  tx: Tx,
  robot: RobotKey,
  rule: StoredRule,
  textKey: ruleRows.TextKey,
  stamp: ruleRows.Stamp,
): number {
  const seqFree = !tx.get('SELECT 1 AS found FROM rules WHERE rule_seq = ?1', [rule.seq]);
  const seq = seqFree ? rule.seq : nextSeq(tx);
  const row = { utf8: JSON.stringify([ruleRows.jsonRow(rule, textKey)]) };
  tx.run('DELETE FROM deleted_rules WHERE rule_id = ?1', [rule.ruleId]);
  tx.run(INSERT_RULES, [seq, robot.tenantId, robot.robotId, stamp.now, row, stamp.actor]);
  return seq;
}

/**
 * Moves a rule of the robot to the trash (a rule deleted before under the same id — deleted,
 * restored, deleted — is replaced); the trash keeps who deleted it as its last change.
 */
export function trashRule(tx: Tx, robot: RobotKey, ruleId: string, stamp: ruleRows.Stamp): void {
  const where = [robot.tenantId, robot.robotId, ruleId];
  tx.run('DELETE FROM deleted_rules WHERE rule_id = ?1', [ruleId]);
  tx.run(
    `INSERT INTO deleted_rules (${ruleRows.TRASH_COLUMNS}, deleted_at, updated_by)
     SELECT ${ruleRows.TRASH_COLUMNS}, ?4, ?5 FROM rules WHERE ${OF_ROBOT} AND rule_id = ?3`,
    [...where, stamp.now, stamp.actor],
  );
  tx.run(`DELETE FROM rules WHERE ${OF_ROBOT} AND rule_id = ?3`, where);
}

/** The names of rules found by `statement` (?1: a rule id), each looked up by its id. */
export function namesOf(
  reader: Reader,
  statement: string,
  ruleIds: readonly string[],
): Map<string, string> {
  const names = new Map<string, string>();
  for (const ruleId of ruleIds) {
    const row = reader.get<{ rule_name: string }>(statement, [ruleId]);
    if (row) names.set(ruleId, row.rule_name);
  }
  return names;
}

export class SqlJsRuleRepository implements RuleRepository {
  constructor(
    private readonly store: Store,
    private readonly textKey: ruleRows.TextKey,
  ) {}

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
        'SELECT rule_id, rule_name, questions, answer FROM rules WHERE search_text IS NULL LIMIT ?1',
        [SEARCH_FILL_BATCH],
      );
      if (rows.length === 0) return filled;
      this.store.write((tx) => {
        for (const row of rows) {
          const text = ruleRows.ruleSearchText(this.textKey, {
            ruleName: row.rule_name,
            questions: JSON.parse(row.questions) as string[],
            answer: row.answer,
          });
          tx.run('UPDATE rules SET search_text = ?1 WHERE rule_id = ?2', [text, row.rule_id]);
        }
      });
      filled += rows.length;
    }
  }

  async find(robot: RobotKey, ruleId: string) {
    return this.findIn(this.store, robot, ruleId);
  }

  async findMany(robot: RobotKey, ruleIds: readonly string[]) {
    const found: StoredRule[] = [];
    for (const ruleId of new Set(ruleIds)) {
      const rule = this.findIn(this.store, robot, ruleId);
      if (rule) found.push(rule);
    }
    return found;
  }

  async answerOf(ruleId: string) {
    return this.store.get<{ answer: string }>(SQL.answerOf, [ruleId])?.answer;
  }

  async namesOf(ruleIds: readonly string[]) {
    const names = new Map<string, string>();
    const unique = [...new Set(ruleIds)];
    for (let i = 0; i < unique.length; i += NAMES_SLICE) {
      if (i > 0) await nextTurn();
      const ids = { utf8: sqlite.list(unique.slice(i, i + NAMES_SLICE)) };
      const rows = this.store.all<{ rule_id: string; rule_name: string }>(NAMES_OF, [ids]);
      for (const row of rows) names.set(row.rule_id, row.rule_name);
    }
    // In the order asked, as the one-by-one lookup gave them.
    const ordered = new Map<string, string>();
    for (const ruleId of unique) {
      const name = names.get(ruleId);
      if (name !== undefined) ordered.set(ruleId, name);
    }
    return ordered;
  }

  async takenNameKeys(robot: RobotKey, nameKeys: readonly string[]) {
    if (nameKeys.length === 0) return new Set<string>();
    const keys = { utf8: sqlite.list(nameKeys) };
    const rows = this.store.all<{ name_key: string }>(TAKEN_NAMES, [
      robot.tenantId,
      robot.robotId,
      keys,
    ]);
    return new Set(rows.map((row) => row.name_key));
  }

  async nameHolder(robot: RobotKey, nameKey: string) {
    const key = [robot.tenantId, robot.robotId, nameKey];
    return this.store.get<{ rule_id: string }>(SQL.nameHolder, key)?.rule_id;
  }

  async idExists(ruleId: string) {
    return this.store.get(SQL.idExists, [ruleId]) !== undefined;
  }

  async insert(robot: RobotKey, rules: readonly NewRule[], now: number, actor: string) {
    if (rules.length === 0) return [];
    // Before the write, in slices: the search texts of a batch take tens of milliseconds.
    const rows = await mapInSlices(rules, (rule) => ruleRows.jsonRow(rule, this.textKey));
    // One transaction, its statements a slice of rows each (made into JSON in its own step)
    // with a turn of the event loop between them, and the disk waited for off the event loop
    // (Store.writeInSteps).
    const first = await mappingUniqueViolations(() =>
      this.store.writeInSteps(async (tx) => {
        const next = nextSeq(tx);
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
    return mapInSlices(rules, (rule, i) =>
      ruleRows.insertedRule(robot, rule, first + i, { now, actor }),
    );
  }

  async restore(robot: RobotKey, ruleIds: readonly string[], now: number, actor: string) {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const restored: StoredRule[] = [];
        for (const ruleId of new Set(ruleIds)) {
          const row = tx.get<ruleRows.RuleRow>(
            `SELECT ${ruleRows.TRASH_COLUMNS}, updated_by FROM deleted_rules WHERE ${OF_ROBOT} AND rule_id = ?3`,
            [robot.tenantId, robot.robotId, ruleId],
          );
          if (!row) continue;
          const rule = ruleRows.toStoredRule(row);
          const seq = reinsertRule(tx, robot, rule, this.textKey, { now, actor });
          restored.push({ ...rule, seq, updatedAt: now, updatedBy: actor });
        }
        return restored;
      }),
    );
  }

  async deleted(robot: RobotKey, limit: number) {
    const key = [robot.tenantId, robot.robotId, limit];
    return this.store.all<ruleRows.DeletedRuleRow>(SQL.trash, key).map(ruleRows.toDeletedRule);
  }

  async purgeDeleted(before: number) {
    // Looked at first: a purge with nothing to do writes nothing (no journal record).
    if (!this.store.get(SQL.anyTrashBefore, [before])) return 0;
    return this.store.write((tx) => tx.run(SQL.purgeTrashBefore, [before]));
  }

  async update(robot: RobotKey, ruleId: string, content: RuleContent, now: number, actor: string) {
    const params = ruleSql.updateParams(robot, ruleId, content, this.textKey, {
      now,
      actor,
    });
    return mappingUniqueViolations(() =>
      this.store.write((tx) =>
        tx.run(SQL.update, params) === 0 ? undefined : this.findIn(tx, robot, ruleId),
      ),
    );
  }

  /** Typed by the contract (`RuleRepository.patchMany`). */
  patchMany: RuleRepository['patchMany'] = async (robot, ruleIds, patch, now, actor) => {
    const assigned = ruleSql.patchAssignments(sqlite, patch);
    if (!assigned) return [];
    const statement = `UPDATE rules SET ${assigned.set} WHERE ${OF_ROBOT} AND rule_id = ?3`;
    return this.store.write((tx) => {
      const changed: StoredRule[] = [];
      for (const ruleId of new Set(ruleIds)) {
        const params = [robot.tenantId, robot.robotId, ruleId, now, actor, ...assigned.values];
        if (tx.run(statement, params) === 0) continue;
        const rule = this.findIn(tx, robot, ruleId);
        if (rule) changed.push(rule);
      }
      return changed;
    });
  };

  /** The trash keeps who deleted each rule as its last change (`updated_by`). */
  async remove(robot: RobotKey, ruleIds: readonly string[], now: number, actor: string) {
    return this.store.write((tx) => {
      const removed: StoredRule[] = [];
      for (const ruleId of new Set(ruleIds)) {
        const rule = this.findIn(tx, robot, ruleId);
        if (!rule) continue;
        trashRule(tx, robot, ruleId, { now, actor });
        removed.push(rule);
      }
      return removed;
    });
  }

  async seqs(robot: RobotKey) {
    const rows = this.store.all<{ rule_seq: number }>(SQL.seqs, [robot.tenantId, robot.robotId]);
    return rows.map((row) => Number(row.rule_seq));
  }

  async maxSeq(robot: RobotKey) {
    const row = this.store.get<{ last: number | null }>(SQL.maxSeq, [
      robot.tenantId,
      robot.robotId,
    ]);
    return Number(row?.last ?? 0);
  }

  async changeCount(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    return Number(this.store.get<{ changes: number }>(SQL.changeCount, key)?.changes ?? 0);
  }

  async pageFrom(robot: RobotKey, fromSeq: number, limit: number) {
    const page = [robot.tenantId, robot.robotId, fromSeq, limit];
    return this.store.all<ruleRows.RuleRow>(SQL.pageFrom, page).map(ruleRows.toStoredRule);
  }

  async query(robot: RobotKey, filter: RuleFilter) {
    const page = ruleSql.rulePage(sqlite, robot, filter, this.textKey);
    if (needsScan(filter)) {
      const { seqs, total } = await scanRulePage(this.store, page, filter);
      const rows = this.store.all<ruleRows.RuleRow>(SQL_ROWS_AT, [
        robot.tenantId,
        robot.robotId,
        JSON.stringify(seqs),
      ]);
      const bySeq = new Map(rows.map((row) => [Number(row.rule_seq), row]));
      return {
        rows: seqs.flatMap((seq) => {
          const row = bySeq.get(seq);
          return row ? [ruleRows.toStoredRule(row)] : [];
        }),
        total,
      };
    }
    const total = Number(this.store.get<{ n: number }>(page.count, page.countParams)?.n ?? 0);
    const { condition, order, params } = page;
    // Sorts and filters an index serves (by position, category or time of change); the others
    // were walked above.
    const statement = `SELECT ${ruleRows.RULE_COLUMNS} FROM rules WHERE ${condition} ORDER BY ${order}`;
    const paged = `${statement} LIMIT ${params.add(filter.limit)} OFFSET ${params.add(filter.offset)}`;
    return {
      rows: this.store.all<ruleRows.RuleRow>(paged, params.values).map(ruleRows.toStoredRule),
      total,
    };
  }

  async matchable(robot?: RobotKey) {
    if (robot) return this.inPages(SQL.matchableOfRobotFrom, robot, ruleRows.toMatchableRecord);
    return this.store.all<ruleRows.MatchableRow>(SQL.matchable).map(ruleRows.toMatchableRecord);
  }

  async menus() {
    return this.store.all<{ rule_id: string; menu: string }>(SQL.menus).map(ruleRows.toRuleMenu);
  }

  async questions(robot: RobotKey) {
    return this.inPages(SQL.questionsFrom, robot, ruleRows.toRuleQuestions);
  }

  async facts(robot: RobotKey) {
    return this.inPages(SQL.factsFrom, robot, ruleRows.toRuleFacts);
  }

  /**
   * Every rule of the robot read `ROBOT_PAGE` at a time, with a turn of the event loop between
   * (sql.js reads on it: one statement over 100k rules held it ~215 ms for their facts alone).
   * Each page waits for a batch written in steps to end, as the first does (`afterSteps`): a
   * page read inside a batch's open transaction would list rows its rollback then takes back,
   * and a list kept until the store's next write (decision 168) would keep them.
   */
  private async inPages<Row, T>(sql: string, robot: RobotKey, map: (row: Row) => T): Promise<T[]> {
    const out: T[] = [];
    for (let from = 0; ;) {
      if (from > 0) await nextTurn();
      const rows = await this.store.unlocked(() =>
        this.store.all<Row & { rule_seq: number }>(sql, [
          robot.tenantId,
          robot.robotId,
          from,
          ROBOT_PAGE,
        ]),
      );
      for (const row of rows) out.push(map(row));
      const last = rows[rows.length - 1];
      if (rows.length < ROBOT_PAGE || last === undefined) return out;
      from = last.rule_seq + 1;
    }
  }

  async languageCounts(robot: RobotKey) {
    const row = this.store.get<{ rules: number; han: number | null }>(
      `SELECT COUNT(*) AS rules, SUM(rule_name GLOB '*[一-鿿]*') AS han FROM rules WHERE ${OF_ROBOT}`,
      [robot.tenantId, robot.robotId],
    );
    return { rules: Number(row?.rules ?? 0), han: Number(row?.han ?? 0) };
  }

  private findIn(reader: Reader, robot: RobotKey, ruleId: string): StoredRule | undefined {
    const row = reader.get<ruleRows.RuleRow>(SQL.find, [robot.tenantId, robot.robotId, ruleId]);
    return row && ruleRows.toStoredRule(row);
  }
}
