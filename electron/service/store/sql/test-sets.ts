/**
 * Test sets as both stores keep them, and the statements both run on `test_cases` and
 * `test_runs` (each in its dialect). How a store numbers new cases and runs is its own.
 * @module
 */
import type {
  TestCaseContent,
  TestCaseRecord,
  TestExpectation,
  TestRunHead,
  TestRunRecord,
} from '../contract/test-sets';
import { spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';

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

export interface RunRow {
  [column: string]: string | number;
  run_id: number;
  edition: string;
  created_at: number;
  summary: string;
}

export const toRunHead = (row: RunRow): TestRunHead => ({
  runId: Number(row.run_id),
  edition: row.edition,
  createdAt: Number(row.created_at),
  summary: row.summary,
});

export const toRun = (row: RunRow & { results: string }): TestRunRecord => ({
  ...toRunHead(row),
  results: row.results,
});

/** The records of cases just added, numbered by the store. */
export const addedCases = (
  cases: readonly TestCaseContent[],
  caseIdAt: (index: number) => number,
  now: number,
): TestCaseRecord[] =>
  cases.map((c, i) => ({ ...c, caseId: caseIdAt(i), createdAt: now, updatedAt: now }));

/** The parameters of `updateCase`. */
export const caseUpdateParams = (
  robot: { tenantId: number; robotId: string },
  caseId: number,
  content: TestCaseContent,
  now: number,
): Scalar[] => [
  robot.tenantId,
  robot.robotId,
  caseId,
  content.question,
  content.expect,
  content.ruleId,
  now,
];

export const CASE_COLUMNS = 'case_id, question, expect, rule_id, created_at, updated_at';
const RUN_HEAD = 'run_id, edition, created_at, summary';

/** ?1 and ?2: the robot of every statement. */
const OF_ROBOT = 'tenant_id = ?1 AND robot_id = ?2';

export function statements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    cases: `SELECT ${CASE_COLUMNS} FROM test_cases WHERE ${OF_ROBOT} ORDER BY case_id`,
    /** `caseUpdateParams`. */
    updateCase: `UPDATE test_cases SET question = ?4, expect = ?5, rule_id = ?6, updated_at = ?7
      WHERE ${OF_ROBOT} AND case_id = ?3`,
    /** After `updateCase` (case ids are unique across robots). */
    caseById: `SELECT ${CASE_COLUMNS} FROM test_cases WHERE case_id = ?1`,
    /** ?3: the list of case ids. */
    removeCases: `DELETE FROM test_cases WHERE ${OF_ROBOT} AND ${dialect.inList('case_id', '?3', 'bigint')}`,
    /** ?3: how many, newest first. */
    runs: `SELECT ${RUN_HEAD} FROM test_runs WHERE ${OF_ROBOT} ORDER BY run_id DESC LIMIT ?3`,
    run: `SELECT ${RUN_HEAD}, results FROM test_runs WHERE ${OF_ROBOT} AND run_id = ?3`,
  });
}
