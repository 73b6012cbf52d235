/**
 * Typed client of the console API's publishing and test-set routes (docs/publishing.md).
 * @module
 */
import type {
  DiscardResult,
  GateReport,
  ImpactJob,
  ImpactReport,
  ModeSwitchRequest,
  ModeSwitchResult,
  PublishMode,
  PublishRequest,
  RollbackRequest,
  RulesDiff,
  RunComparison,
  RunJob,
  TestCaseInput,
  TestCaseView,
  TestRun,
  TestRunHead,
  ThresholdCurves,
  UnpublishedChanges,
  VersionHistory,
  VersionRecord,
} from '../../electron/service/publishing-types';
import type { ConsoleRule, TryResult } from '../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from './console-client';

/** `draft`, `published` or a version number. */
export type Target = 'draft' | 'published' | number;

export type PublishingClient = ReturnType<typeof publishingClient>;

export function publishingClient(client: ConsoleClient, ref: RobotRef) {
  const base = `/tenants/${ref.tenantId}/robots/${encodeURIComponent(ref.robotId)}`;
  const call = client.call;
  return {
    history: () => call<VersionHistory>('GET', `${base}/versions`),
    preview: () => call<{ diff: RulesDiff; gate: GateReport }>('GET', `${base}/versions/preview`),
    /** The draft's differences from the latest version, rule by rule. */
    unpublished: () => call<UnpublishedChanges>('GET', `${base}/versions/unpublished`),
    /** The draft back to the latest version (its edits to the trash); no version written. */
    discard: () => call<DiscardResult>('POST', `${base}/versions/discard`, {}),
    /** A change of publish mode, credited to `author` (the draft is published first if need be). */
    switchMode: (publishMode: PublishMode, author: string) => {
      const body: ModeSwitchRequest = { publishMode, author };
      return call<ModeSwitchResult>('POST', `${base}/versions/mode`, body);
    },
    /** What answering from `to` instead of `from` changes for last `days` days' questions. */
    impact: (from: Target, to: Target, days: number) =>
      call<ImpactReport>('GET', `${base}/versions/impact?from=${from}&to=${to}&days=${days}`),
    /** The same preview as a job (one per pair while it runs), polled with `impactJob`. */
    startImpact: (from: Target, to: Target, days: number) =>
      call<ImpactJob>('POST', `${base}/versions/impact/jobs`, {
        from: String(from),
        to: String(to),
        days,
      }),
    impactJob: (jobId: string) => call<ImpactJob>('GET', `${base}/versions/impact/jobs/${jobId}`),
    publish: (note: string, author: string, confirmFailures: boolean, confirmImpact = false) => {
      const body: PublishRequest = { note, author, confirmFailures, confirmImpact };
      return call<{ version: VersionRecord; gate: GateReport }>('POST', `${base}/versions`, body);
    },
    rollback: (version: number, author: string) => {
      const body: RollbackRequest = { author };
      return call<{ version: VersionRecord }>('POST', `${base}/versions/${version}/rollback`, body);
    },
    diff: (from: Target, to: Target) =>
      call<RulesDiff>('GET', `${base}/versions/diff?from=${from}&to=${to}`),
    versionRules: (version: number) =>
      call<{ rules: ConsoleRule[] }>('GET', `${base}/versions/${version}/rules`),
    cases: () => call<{ cases: TestCaseView[] }>('GET', `${base}/test-cases`),
    addCases: (cases: TestCaseInput[]) =>
      call<{ cases: TestCaseView[] }>('POST', `${base}/test-cases`, { cases }),
    updateCase: (caseId: number, input: TestCaseInput) =>
      call<Pick<TestCaseView, 'caseId' | 'question' | 'expect' | 'ruleId'>>(
        'PUT',
        `${base}/test-cases/${caseId}`,
        input,
      ),
    deleteCases: (caseIds: number[]) =>
      call<{ deleted: number }>('POST', `${base}/test-cases/delete`, { caseIds }),
    startRun: (target: Target) =>
      call<RunJob>('POST', `${base}/test-runs`, { target: String(target) }),
    job: (jobId: string) => call<RunJob>('GET', `${base}/test-runs/jobs/${jobId}`),
    runs: () => call<{ runs: TestRunHead[] }>('GET', `${base}/test-runs`),
    run: (runId: number) => call<TestRun>('GET', `${base}/test-runs/${runId}`),
    compare: (a: number, b: number) =>
      call<RunComparison>('GET', `${base}/test-runs/compare?a=${a}&b=${b}`),
    thresholds: () => call<ThresholdCurves>('GET', `${base}/thresholds`),
    tryPublished: (question: string) =>
      call<TryResult>('POST', `${base}/try`, { question, edition: 'published' }),
  };
}
