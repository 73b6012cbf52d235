/**
 * Test runs: every case of a robot's test set asked against a target (draft, published, a
 * version), in time slices that leave room for other requests, with progress; each run is kept with
 * what changed since the run before it.
 * @module
 */
import type {
  CaseResult,
  CaseStatus,
  RunComparison,
  TestRun,
  TestRunSummary,
} from '../publishing-types';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { ServiceError } from '../errors';
import type { MatchDecision, MatchSettings } from '../matching/types';
import type { TestCaseRecord } from '../store/contract/test-sets';
import { SLICE_MS, nextTurn } from '../time-slices';
import { withTargetIndex } from './targets';
import type { Target, TargetIndex } from './targets';

/** Whether an answer is what a case expects. */
export function meets(test: TestCaseRecord, decision: MatchDecision): boolean {
  switch (test.expect) {
    case 'rule':
      return decision.kind === 'bestmatch' && decision.top.ruleId === test.ruleId;
    case 'recommend':
      return (
        decision.kind === 'recommend' && decision.items.some((item) => item.ruleId === test.ruleId)
      );
    case 'fallback':
      return decision.kind === 'none';
  }
}

export interface Asked {
  test: TestCaseRecord;
  decision: MatchDecision;
}

/** Asks every case against an index, in time slices; `progress` hears how many are done. */
export async function askAll(
  target: TargetIndex,
  cases: readonly TestCaseRecord[],
  settings: MatchSettings,
  at: number,
  progress?: (done: number) => void,
): Promise<Asked[]> {
  const asked: Asked[] = [];
  while (asked.length < cases.length) {
    // A run of thousands of cases must not hold up the openapi's questions: it asks in slices,
    // taking turns with the other batch work (time-slices.ts).
    const sliceEnd = performance.now() + SLICE_MS;
    do {
      const test = cases[asked.length] as TestCaseRecord;
      const { index } = target;
      const decision =
        index.matchExact?.(test.question, at) ?? index.match(test.question, at, settings);
      asked.push({ test, decision });
    } while (asked.length < cases.length && performance.now() < sliceEnd);
    progress?.(asked.length);
    if (asked.length < cases.length) await nextTurn();
  }
  return asked;
}

const gotOf = (decision: MatchDecision): CaseResult['got'] => ({
  kind: decision.kind,
  ruleIds:
    decision.kind === 'bestmatch'
      ? [decision.top.ruleId]
      : decision.kind === 'recommend'
        ? decision.items.map((item) => item.ruleId)
        : [],
  ruleName: null,
});

const scoreOf = (decision: MatchDecision): number =>
  Math.floor(
    (decision.kind === 'bestmatch' ? decision.top.score : (decision.candidates[0]?.score ?? 0)) *
      10_000,
  ) / 10_000;

/** Results of asked cases, each compared with its status in `before` (case id → status). */
export async function resultsOf(
  asked: readonly Asked[],
  target: TargetIndex,
  before: ReadonlyMap<number, CaseStatus>,
): Promise<CaseResult[]> {
  const results = asked.map(({ test, decision }): CaseResult => {
    const status: CaseStatus = meets(test, decision) ? 'passed' : 'failed';
    const previous = before.get(test.caseId);
    return {
      caseId: test.caseId,
      question: test.question,
      expect: test.expect,
      ruleId: test.ruleId,
      status,
      change:
        previous === undefined
          ? 'new'
          : previous === status
            ? 'same'
            : status === 'passed'
              ? 'now-passing'
              : 'now-failing',
      got: gotOf(decision),
      score: scoreOf(decision),
    };
  });
  // Names of what came instead, for the failures only.
  const failed = results.filter((result) => result.status === 'failed' && result.got.ruleIds[0]);
  const names = await target.namesOf([...new Set(failed.map((r) => r.got.ruleIds[0] as string))]);
  for (const result of failed) result.got.ruleName = names.get(result.got.ruleIds[0] ?? '') ?? null;
  return results;
}

export function summarize(results: readonly CaseResult[], ms: number): TestRunSummary {
  const count = (pick: (result: CaseResult) => boolean) => results.filter(pick).length;
  return {
    total: results.length,
    passed: count((r) => r.status === 'passed'),
    failed: count((r) => r.status === 'failed'),
    nowFailing: count((r) => r.change === 'now-failing'),
    nowPassing: count((r) => r.change === 'now-passing'),
    ms,
  };
}

async function lastStatuses(ctx: DomainContext, robot: Robot): Promise<Map<number, CaseStatus>> {
  const [head] = await ctx.store.testSets.runs(robot, 1);
  const last = head && (await ctx.store.testSets.run(robot, head.runId));
  if (!last) return new Map();
  const results = JSON.parse(last.results) as CaseResult[];
  return new Map(results.map((result) => [result.caseId, result.status]));
}

/** Runs the robot's test set against `target` and keeps the run. */
export async function runTestSet(
  ctx: DomainContext,
  robot: Robot,
  target: Target,
  progress?: (done: number, total: number) => void,
): Promise<TestRun> {
  const started = performance.now();
  const cases = await ctx.store.testSets.cases(robot);
  const { edition, results } = await withTargetIndex(ctx, robot, target, async (index) => {
    progress?.(0, cases.length);
    const asked = await askAll(index, cases, robot.settings, ctx.now(), (done) =>
      progress?.(done, cases.length),
    );
    return {
      edition: index.name,
      results: await resultsOf(asked, index, await lastStatuses(ctx, robot)),
    };
  });
  const summary = summarize(results, Math.round(performance.now() - started));
  const createdAt = ctx.now();
  const runId = await ctx.store.testSets.saveRun(robot, {
    edition,
    createdAt,
    summary: JSON.stringify(summary),
    results: JSON.stringify(results),
  });
  return { runId, edition, createdAt, summary, results };
}

export async function readRun(ctx: DomainContext, robot: Robot, runId: number): Promise<TestRun> {
  const record = await ctx.store.testSets.run(robot, runId);
  if (!record) throw new ServiceError('test-run-not-found', `Test run ${runId} does not exist.`);
  return {
    runId: record.runId,
    edition: record.edition,
    createdAt: record.createdAt,
    summary: JSON.parse(record.summary) as TestRunSummary,
    results: JSON.parse(record.results) as CaseResult[],
  };
}

export async function compareRuns(
  ctx: DomainContext,
  robot: Robot,
  aId: number,
  bId: number,
): Promise<RunComparison> {
  const [a, b] = [await readRun(ctx, robot, aId), await readRun(ctx, robot, bId)];
  const inB = new Map(b.results.map((result) => [result.caseId, result]));
  const differences: RunComparison['differences'] = [];
  for (const result of a.results) {
    const other = inB.get(result.caseId) ?? null;
    inB.delete(result.caseId);
    const same =
      other !== null &&
      other.status === result.status &&
      other.got.kind === result.got.kind &&
      other.got.ruleIds.join() === result.got.ruleIds.join();
    if (!same)
      differences.push({ caseId: result.caseId, question: result.question, a: result, b: other });
  }
  for (const result of inB.values()) {
    differences.push({ caseId: result.caseId, question: result.question, a: null, b: result });
  }
  const head = (run: TestRun) => ({
    runId: run.runId,
    edition: run.edition,
    createdAt: run.createdAt,
    summary: run.summary,
  });
  return { a: head(a), b: head(b), differences };
}
