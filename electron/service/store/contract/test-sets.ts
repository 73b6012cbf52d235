/**
 * A robot's test cases (a question and what it must get) and the kept runs of them.
 * @module
 */
import type { RobotKey } from './records';

/** `rule`: BESTMATCH of the rule; `recommend`: RECOMMEND listing the rule; `fallback`: no answer. */
export type TestExpectation = 'rule' | 'recommend' | 'fallback';

export interface TestCaseContent {
  question: string;
  expect: TestExpectation;
  /** The rule expected; null for `fallback`. */
  ruleId: string | null;
}

export interface TestCaseRecord extends TestCaseContent {
  caseId: number;
  createdAt: number;
  updatedAt: number;
}

export interface TestRunHead {
  runId: number;
  /** `draft` or `v<number>`. */
  edition: string;
  createdAt: number;
  /** JSON of the run's counts (the domain's `TestRunSummary`). */
  summary: string;
}

export interface TestRunRecord extends TestRunHead {
  /** JSON of the results of every case. */
  results: string;
}

export interface TestSetRepository {
  cases(robot: RobotKey): Promise<TestCaseRecord[]>;
  /** Adds cases in one transaction, in the given order. */
  add(robot: RobotKey, cases: readonly TestCaseContent[], now: number): Promise<TestCaseRecord[]>;
  update(
    robot: RobotKey,
    caseId: number,
    content: TestCaseContent,
    now: number,
  ): Promise<TestCaseRecord | undefined>;
  /** Removes cases; returns how many there were. */
  remove(robot: RobotKey, caseIds: readonly number[]): Promise<number>;
  saveRun(robot: RobotKey, run: Omit<TestRunRecord, 'runId'>): Promise<number>;
  /** The robot's kept runs, newest first. */
  runs(robot: RobotKey, limit: number): Promise<TestRunHead[]>;
  run(robot: RobotKey, runId: number): Promise<TestRunRecord | undefined>;
}
