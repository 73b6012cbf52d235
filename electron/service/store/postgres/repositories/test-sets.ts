/**
 * The team server's test sets (statements: sql/test-sets.ts). Case and run ids come from their
 * columns' sequences. The contract (store/contract/test-sets.ts) states what each method
 * returns.
 * @module
 */
import type { RobotKey } from '../../contract/records';
import type { TestCaseContent, TestRunRecord, TestSetRepository } from '../../contract/test-sets';
import { postgres } from '../../sql/dialect';
import * as testSets from '../../sql/test-sets';
import type { Database } from '../database';

const SQL = testSets.statements(postgres);

/**
 * Many cases in one statement ($3: a JSON array of [id, question, expect, ruleId]); ids are
 * taken first, ascending, so that the cases keep the order given.
 */
const INSERT_CASES = `INSERT INTO test_cases (case_id, tenant_id, robot_id, question, expect, rule_id, created_at, updated_at)
SELECT (j.v ->> 0)::bigint, $1, $2, j.v ->> 1, j.v ->> 2, j.v ->> 3, $4, $4
FROM jsonb_array_elements($3::jsonb) AS j(v)`;

const NEW_CASE_IDS =
  "SELECT nextval(pg_get_serial_sequence('test_cases', 'case_id')) AS id FROM generate_series(1, $1)";

export class PostgresTestSetRepository implements TestSetRepository {
  constructor(private readonly db: Database) {}

  async cases(robot: RobotKey) {
    return (await this.db.all<testSets.CaseRow>(SQL.cases, [robot.tenantId, robot.robotId])).map(
      testSets.toCase,
    );
  }

  async add(robot: RobotKey, cases: readonly TestCaseContent[], now: number) {
    if (cases.length === 0) return [];
    const ids = await this.db.write(async (tx) => {
      const taken = await tx.all<{ id: number }>(NEW_CASE_IDS, [cases.length]);
      const ids = taken.map((row) => Number(row.id)).sort((a, b) => a - b);
      const rows = cases.map((c, i) => [ids[i], c.question, c.expect, c.ruleId]);
      await tx.run(INSERT_CASES, [robot.tenantId, robot.robotId, JSON.stringify(rows), now]);
      return ids;
    });
    return testSets.addedCases(cases, (i) => ids[i] as number, now);
  }

  async update(robot: RobotKey, caseId: number, content: TestCaseContent, now: number) {
    const params = testSets.caseUpdateParams(robot, caseId, content, now);
    const returning = `${SQL.updateCase} RETURNING ${testSets.CASE_COLUMNS}`;
    const row = await this.db.write((tx) => tx.get<testSets.CaseRow>(returning, params));
    return row && testSets.toCase(row);
  }

  async remove(robot: RobotKey, caseIds: readonly number[]) {
    if (caseIds.length === 0) return 0;
    const ids = postgres.list(caseIds);
    return this.db.write((tx) => tx.run(SQL.removeCases, [robot.tenantId, robot.robotId, ids]));
  }

  async saveRun(robot: RobotKey, run: Omit<TestRunRecord, 'runId'>) {
    const row = await this.db.write((tx) =>
      tx.get<{ run_id: number }>(
        `INSERT INTO test_runs (tenant_id, robot_id, edition, created_at, summary, results)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING run_id`,
        [robot.tenantId, robot.robotId, run.edition, run.createdAt, run.summary, run.results],
      ),
    );
    return Number(row?.run_id);
  }

  async runs(robot: RobotKey, limit: number) {
    const rows = await this.db.all<testSets.RunRow>(SQL.runs, [
      robot.tenantId,
      robot.robotId,
      limit,
    ]);
    return rows.map(testSets.toRunHead);
  }

  async run(robot: RobotKey, runId: number) {
    const key = [robot.tenantId, robot.robotId, runId];
    const row = await this.db.get<testSets.RunRow & { results: string }>(SQL.run, key);
    return row && testSets.toRun(row);
  }
}
