/**
 * The embedded store's test sets (statements: sql/test-sets.ts). New cases and runs are numbered
 * from the highest so far. The contract (store/contract/test-sets.ts) states what each method
 * returns.
 * @module
 */
import type { RobotKey } from '../../contract/records';
import type { TestCaseContent, TestRunRecord, TestSetRepository } from '../../contract/test-sets';
import { sqlite } from '../../sql/dialect';
import * as testSets from '../../sql/test-sets';
import type { Store } from '../database';

const SQL = testSets.statements(sqlite);

/** Many cases in one statement: ?5 is a JSON array of [question, expect, ruleId]. */
const INSERT_CASES = `INSERT INTO test_cases (case_id, tenant_id, robot_id, question, expect, rule_id, created_at, updated_at)
SELECT ?1 + key, ?2, ?3, value ->> 0, value ->> 1, value ->> 2, ?4, ?4 FROM json_each(CAST(?5 AS TEXT))`;

const INSERT_RUN = `INSERT INTO test_runs (run_id, tenant_id, robot_id, edition, created_at, summary, results)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, CAST(?7 AS TEXT))`;

export class SqlJsTestSetRepository implements TestSetRepository {
  constructor(private readonly store: Store) {}

  async cases(robot: RobotKey) {
    return this.store
      .all<testSets.CaseRow>(SQL.cases, [robot.tenantId, robot.robotId])
      .map(testSets.toCase);
  }

  async add(robot: RobotKey, cases: readonly TestCaseContent[], now: number) {
    if (cases.length === 0) return [];
    const rows = JSON.stringify(cases.map((c) => [c.question, c.expect, c.ruleId]));
    const first = this.store.write((tx) => {
      const next = nextId(tx.get<{ last: number }>('SELECT MAX(case_id) AS last FROM test_cases'));
      tx.run(INSERT_CASES, [next, robot.tenantId, robot.robotId, now, { utf8: rows }]);
      return next;
    });
    return testSets.addedCases(cases, (i) => first + i, now);
  }

  async update(robot: RobotKey, caseId: number, content: TestCaseContent, now: number) {
    const params = testSets.caseUpdateParams(robot, caseId, content, now);
    if (this.store.write((tx) => tx.run(SQL.updateCase, params)) === 0) return undefined;
    const row = this.store.get<testSets.CaseRow>(SQL.caseById, [caseId]);
    return row && testSets.toCase(row);
  }

  async remove(robot: RobotKey, caseIds: readonly number[]) {
    if (caseIds.length === 0) return 0;
    const ids = { utf8: sqlite.list(caseIds) };
    return this.store.write((tx) => tx.run(SQL.removeCases, [robot.tenantId, robot.robotId, ids]));
  }

  async saveRun(robot: RobotKey, run: Omit<TestRunRecord, 'runId'>) {
    return this.store.write((tx) => {
      const next = nextId(tx.get<{ last: number }>('SELECT MAX(run_id) AS last FROM test_runs'));
      const head = [next, robot.tenantId, robot.robotId, run.edition, run.createdAt, run.summary];
      tx.run(INSERT_RUN, [...head, { utf8: run.results }]);
      return next;
    });
  }

  async runs(robot: RobotKey, limit: number) {
    return this.store
      .all<testSets.RunRow>(SQL.runs, [robot.tenantId, robot.robotId, limit])
      .map(testSets.toRunHead);
  }

  async run(robot: RobotKey, runId: number) {
    const row = this.store.get<testSets.RunRow & { results: string }>(SQL.run, [
      robot.tenantId,
      robot.robotId,
      runId,
    ]);
    return row && testSets.toRun(row);
  }
}

/** The id after the highest so far (1 for the first). */
const nextId = (row: { last: number | null } | undefined): number => Number(row?.last ?? 0) + 1;
