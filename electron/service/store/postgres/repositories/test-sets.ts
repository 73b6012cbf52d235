/**
 * The team server's test sets (the embedded store's statements in PostgreSQL's SQL). Case and
 * run ids come from their columns' sequences.
 * @module
 */
import type { RobotKey } from '../../contract/records';
import type {
  TestCaseContent,
  TestCaseRecord,
  TestRunHead,
  TestRunRecord,
  TestSetRepository,
} from '../../contract/test-sets';
import { CASE_COLUMNS, RUN_HEAD, toCase } from '../../embedded/repositories/test-set-repository';
import type { CaseRow } from '../../embedded/repositories/test-set-repository';
import type { Database } from '../database';

interface RunRow {
  run_id: number;
  edition: string;
  created_at: number;
  summary: string;
}

const toRunHead = (row: RunRow): TestRunHead => ({
  runId: Number(row.run_id),
  edition: row.edition,
  createdAt: Number(row.created_at),
  summary: row.summary,
});

const OF_ROBOT = 'tenant_id = $1 AND robot_id = $2';

/**
 * Many cases in one statement ($3: a JSON array of [id, question, expect, ruleId]); ids are
 * taken first, ascending, so that the cases keep the order given.
 */
const INSERT_CASES = `INSERT INTO test_cases (case_id, tenant_id, robot_id, question, expect, rule_id, created_at, updated_at)
SELECT (j.v ->> 0)::bigint, $1, $2, j.v ->> 1, j.v ->> 2, j.v ->> 3, $4, $4
FROM jsonb_array_elements($3::jsonb) AS j(v)`;

export class PostgresTestSetRepository implements TestSetRepository {
  constructor(private readonly db: Database) {}

  async cases(robot: RobotKey): Promise<TestCaseRecord[]> {
    const rows = await this.db.all<CaseRow>(
      `SELECT ${CASE_COLUMNS} FROM test_cases WHERE ${OF_ROBOT} ORDER BY case_id`,
      [robot.tenantId, robot.robotId],
    );
    return rows.map(toCase);
  }

  async add(
    robot: RobotKey,
    cases: readonly TestCaseContent[],
    now: number,
  ): Promise<TestCaseRecord[]> {
    if (cases.length === 0) return [];
    const ids = await this.db.write(async (tx) => {
      const ids = (
        await tx.all<{ id: number }>(
          "SELECT nextval(pg_get_serial_sequence('test_cases', 'case_id')) AS id FROM generate_series(1, $1)",
          [cases.length],
        )
      )
        .map((row) => Number(row.id))
        .sort((a, b) => a - b);
      const rows = cases.map((c, i) => [ids[i], c.question, c.expect, c.ruleId]);
      await tx.run(INSERT_CASES, [robot.tenantId, robot.robotId, JSON.stringify(rows), now]);
      return ids;
    });
    return cases.map((c, i) => ({
      ...c,
      caseId: ids[i] as number,
      createdAt: now,
      updatedAt: now,
    }));
  }

  async update(
    robot: RobotKey,
    caseId: number,
    content: TestCaseContent,
    now: number,
  ): Promise<TestCaseRecord | undefined> {
    const row = await this.db.write((tx) =>
      tx.get<CaseRow>(
        `UPDATE test_cases SET question = $4, expect = $5, rule_id = $6, updated_at = $7
         WHERE ${OF_ROBOT} AND case_id = $3 RETURNING ${CASE_COLUMNS}`,
        [
          robot.tenantId,
          robot.robotId,
          caseId,
          content.question,
          content.expect,
          content.ruleId,
          now,
        ],
      ),
    );
    return row && toCase(row);
  }

  async remove(robot: RobotKey, caseIds: readonly number[]): Promise<number> {
    if (caseIds.length === 0) return 0;
    return this.db.write((tx) =>
      tx.run(`DELETE FROM test_cases WHERE ${OF_ROBOT} AND case_id = ANY($3::bigint[])`, [
        robot.tenantId,
        robot.robotId,
        caseIds,
      ]),
    );
  }

  async saveRun(robot: RobotKey, run: Omit<TestRunRecord, 'runId'>): Promise<number> {
    const row = await this.db.write((tx) =>
      tx.get<{ run_id: number }>(
        `INSERT INTO test_runs (tenant_id, robot_id, edition, created_at, summary, results)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING run_id`,
        [robot.tenantId, robot.robotId, run.edition, run.createdAt, run.summary, run.results],
      ),
    );
    return Number(row?.run_id);
  }

  async runs(robot: RobotKey, limit: number): Promise<TestRunHead[]> {
    const rows = await this.db.all<RunRow>(
      `SELECT ${RUN_HEAD} FROM test_runs WHERE ${OF_ROBOT} ORDER BY run_id DESC LIMIT $3`,
      [robot.tenantId, robot.robotId, limit],
    );
    return rows.map(toRunHead);
  }

  async run(robot: RobotKey, runId: number): Promise<TestRunRecord | undefined> {
    const row = await this.db.get<RunRow & { results: string }>(
      `SELECT ${RUN_HEAD}, results FROM test_runs WHERE ${OF_ROBOT} AND run_id = $3`,
      [robot.tenantId, robot.robotId, runId],
    );
    return row && { ...toRunHead(row), results: row.results };
  }
}
