/**
 * The embedded store's test sets: every SQL statement on `test_cases` and `test_runs`.
 * @module
 */
import type { RobotKey } from '../../contract/records';
import type {
  TestCaseContent,
  TestCaseRecord,
  TestExpectation,
  TestRunHead,
  TestRunRecord,
  TestSetRepository,
} from '../../contract/test-sets';
import type { Store } from '../database';

export interface CaseRow {
  [column: string]: string | number | null;
  case_id: number;
  question: string;
  expect: string;
  rule_id: string | null;
  created_at: number;
  updated_at: number;
}

export const toCase = (row: CaseRow): TestCaseRecord => ({
  caseId: Number(row.case_id),
  question: row.question,
  expect: row.expect as TestExpectation,
  ruleId: row.rule_id,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const OF_ROBOT = 'tenant_id = ? AND robot_id = ?';
export const CASE_COLUMNS = 'case_id, question, expect, rule_id, created_at, updated_at';
export const RUN_HEAD = 'run_id, edition, created_at, summary';

/** Many cases in one statement: ?3 is a JSON array of [question, expect, ruleId]. */
const INSERT_CASES = `INSERT INTO test_cases (case_id, tenant_id, robot_id, question, expect, rule_id, created_at, updated_at)
SELECT ?1 + key, ?2, ?3, value ->> 0, value ->> 1, value ->> 2, ?4, ?4 FROM json_each(CAST(?5 AS TEXT))`;

export class SqlJsTestSetRepository implements TestSetRepository {
  constructor(private readonly store: Store) {}

  async cases(robot: RobotKey): Promise<TestCaseRecord[]> {
    return this.store
      .all<CaseRow>(`SELECT ${CASE_COLUMNS} FROM test_cases WHERE ${OF_ROBOT} ORDER BY case_id`, [
        robot.tenantId,
        robot.robotId,
      ])
      .map(toCase);
  }

  async add(
    robot: RobotKey,
    cases: readonly TestCaseContent[],
    now: number,
  ): Promise<TestCaseRecord[]> {
    if (cases.length === 0) return [];
    const rows = JSON.stringify(cases.map((c) => [c.question, c.expect, c.ruleId]));
    const first = this.store.write((tx) => {
      const next =
        Number(tx.get<{ last: number }>('SELECT MAX(case_id) AS last FROM test_cases')?.last ?? 0) +
        1;
      tx.run(INSERT_CASES, [next, robot.tenantId, robot.robotId, now, { utf8: rows }]);
      return next;
    });
    return cases.map((c, i) => ({ ...c, caseId: first + i, createdAt: now, updatedAt: now }));
  }

  async update(
    robot: RobotKey,
    caseId: number,
    content: TestCaseContent,
    now: number,
  ): Promise<TestCaseRecord | undefined> {
    const changed = this.store.write((tx) =>
      tx.run(
        `UPDATE test_cases SET question = ?, expect = ?, rule_id = ?, updated_at = ? WHERE case_id = ? AND ${OF_ROBOT}`,
        [
          content.question,
          content.expect,
          content.ruleId,
          now,
          caseId,
          robot.tenantId,
          robot.robotId,
        ],
      ),
    );
    if (changed === 0) return undefined;
    const row = this.store.get<CaseRow>(
      `SELECT ${CASE_COLUMNS} FROM test_cases WHERE case_id = ?`,
      [caseId],
    );
    return row && toCase(row);
  }

  async remove(robot: RobotKey, caseIds: readonly number[]): Promise<number> {
    if (caseIds.length === 0) return 0;
    return this.store.write((tx) =>
      tx.run(
        `DELETE FROM test_cases WHERE ${OF_ROBOT} AND case_id IN (SELECT value FROM json_each(CAST(? AS TEXT)))`,
        [robot.tenantId, robot.robotId, { utf8: JSON.stringify(caseIds) }],
      ),
    );
  }

  async saveRun(robot: RobotKey, run: Omit<TestRunRecord, 'runId'>): Promise<number> {
    return this.store.write((tx) => {
      const next =
        Number(tx.get<{ last: number }>('SELECT MAX(run_id) AS last FROM test_runs')?.last ?? 0) +
        1;
      tx.run(
        'INSERT INTO test_runs (run_id, tenant_id, robot_id, edition, created_at, summary, results) VALUES (?, ?, ?, ?, ?, ?, CAST(? AS TEXT))',
        [
          next,
          robot.tenantId,
          robot.robotId,
          run.edition,
          run.createdAt,
          run.summary,
          { utf8: run.results },
        ],
      );
      return next;
    });
  }

  async runs(robot: RobotKey, limit: number): Promise<TestRunHead[]> {
    return this.store
      .all<{ run_id: number; edition: string; created_at: number; summary: string }>(
        `SELECT ${RUN_HEAD} FROM test_runs WHERE ${OF_ROBOT} ORDER BY run_id DESC LIMIT ?`,
        [robot.tenantId, robot.robotId, limit],
      )
      .map((row) => ({
        runId: Number(row.run_id),
        edition: row.edition,
        createdAt: Number(row.created_at),
        summary: row.summary,
      }));
  }

  async run(robot: RobotKey, runId: number): Promise<TestRunRecord | undefined> {
    const row = this.store.get<{
      run_id: number;
      edition: string;
      created_at: number;
      summary: string;
      results: string;
    }>(`SELECT ${RUN_HEAD}, results FROM test_runs WHERE run_id = ? AND ${OF_ROBOT}`, [
      runId,
      robot.tenantId,
      robot.robotId,
    ]);
    return (
      row && {
        runId: Number(row.run_id),
        edition: row.edition,
        createdAt: Number(row.created_at),
        summary: row.summary,
        results: row.results,
      }
    );
  }
}
