/**
 * The shapes of the console API's publishing and test-set routes (docs/publishing.md), shared
 * by the service and the editor. Request bodies are their schemas' types
 * (validation/publishing-schemas.ts).
 * @module
 */
import type { Static } from '@sinclair/typebox';
import type {
  ImpactQuery,
  ModeSwitchBody,
  PublishBody,
  RollbackBody,
  TestCaseBody,
  expectation,
} from './validation/publishing-schemas';

/** `confirmFailures`: publish even though test cases now fail (the gate's `nowFailing`). */
export type PublishRequest = Static<typeof PublishBody>;

/** `note`: empty when absent (the version's `rolledBackTo` says what it is). */
export type RollbackRequest = Static<typeof RollbackBody>;

/** `author`: who switches (the administrator chosen in the editor). */
export type ModeSwitchRequest = Static<typeof ModeSwitchBody>;

export type PublishMode = 'live' | 'review';

/**
 * A version is described by facts, which the editor says in its own language: `note` is what
 * its author typed (empty for the versions the service makes itself), `rolledBackTo` and
 * `modeSwitch` say why it was made.
 */
export interface VersionRecord {
  version: number;
  /** What the author wrote; empty for a rollback or a change of mode without a note. */
  note: string;
  /**
   * The administrator chosen in the editor, the one signed in on a team server, or an actor
   * id: `api` (the openapi or a client of the console API), `editor` (the desktop editor).
   */
  author: string;
  createdAt: number;
  /** Rules in the version. */
  rules: number;
  /** Rules added, changed and removed since the version before. */
  added: number;
  changed: number;
  removed: number;
  /** Set on a rollback: the version whose content this one has. */
  rolledBackTo: number | null;
  /** Set when the publish went over new test failures: the ids of those cases (JSON). */
  confirmedFailures: string | null;
  /** Set on the version a change of publish mode recorded (the draft published): the new mode. */
  modeSwitch: PublishMode | null;
}

/** A rule of the draft that is not as the latest version has it. */
export interface UnpublishedChange {
  ruleId: string;
  /** Its name in the draft (in the latest version for a rule removed). */
  ruleName: string;
  change: 'added' | 'changed' | 'removed';
}

/** `GET …/versions/unpublished`: what publishing (or discarding the draft) would change. */
export interface UnpublishedChanges {
  publishMode: PublishMode;
  /** The latest version, null before the first. */
  latest: number | null;
  /** At most 5,000 of them (publishing/versions.ts); `more` when there are others. */
  changes: UnpublishedChange[];
  more: boolean;
}

/** `POST …/versions/mode`: the robot's mode now, and the version the switch published if any. */
export interface ModeSwitchResult {
  publishMode: PublishMode;
  version: VersionRecord | null;
}

/** `POST …/versions/discard`: how many rules went back to the latest version. */
export interface DiscardResult {
  /** Draft rules moved to the trash (added or changed since the latest version). */
  removed: number;
  /** Rules of the latest version written back (changed or removed since). */
  restored: number;
}

export interface VersionHistory {
  publishMode: PublishMode;
  /** The draft has changes that are not in the latest version. */
  draftChanged: boolean;
  versions: VersionRecord[];
}

export interface GateCase {
  caseId: number;
  question: string;
}

/** What publishing the draft would change in the test set's results. */
export interface GateReport {
  cases: number;
  /** Cases failing on the draft. */
  failing: number;
  /** Passing on the published version, failing on the draft. */
  nowFailing: GateCase[];
  /** Failing on the published version, passing on the draft. */
  nowPassing: GateCase[];
}

export type DiffField =
  | 'ruleName'
  | 'categoryId'
  | 'active'
  | 'allowSimGen'
  | 'effectBegin'
  | 'effectEnd'
  | 'questions'
  | 'answer'
  | 'matchPolicy'
  | 'negativeKeywords'
  | 'menu';

export interface RuleBrief {
  ruleId: string;
  ruleName: string;
}

export interface FieldChange {
  field: DiffField;
  from: unknown;
  to: unknown;
}

export interface ChangedRule extends RuleBrief {
  fields: FieldChange[];
  questionsAdded: string[];
  questionsRemoved: string[];
}

export interface RulesDiff {
  added: RuleBrief[];
  removed: RuleBrief[];
  changed: ChangedRule[];
}

/** `rule`: BESTMATCH of the rule; `recommend`: RECOMMEND listing the rule; `fallback`: no answer. */
export type TestExpectation = Static<typeof expectation>;

export interface TestCaseView {
  caseId: number;
  question: string;
  expect: TestExpectation;
  ruleId: string | null;
  /** The rule's name in the draft (null for fallback, or a rule deleted since). */
  ruleName: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The rule expected is named by `ruleId`, or by `ruleName` (the draft's rule of that name). */
export type TestCaseInput = Static<typeof TestCaseBody>;

export type CaseStatus = 'passed' | 'failed';
/** Against the run before: `new` case, `same` status, or a status that flipped. */
export type CaseChange = 'new' | 'same' | 'now-passing' | 'now-failing';

export interface CaseResult {
  caseId: number;
  question: string;
  expect: TestExpectation;
  ruleId: string | null;
  status: CaseStatus;
  change: CaseChange;
  /** What came: the kind of answer, its rules (the top one, or the RECOMMEND list) and score. */
  got: { kind: 'bestmatch' | 'recommend' | 'none'; ruleIds: string[]; ruleName: string | null };
  score: number;
}

export interface TestRunSummary {
  total: number;
  passed: number;
  failed: number;
  nowFailing: number;
  nowPassing: number;
  ms: number;
}

export interface TestRun {
  runId: number;
  edition: string;
  createdAt: number;
  summary: TestRunSummary;
  results: CaseResult[];
}

export interface TestRunHead {
  runId: number;
  edition: string;
  createdAt: number;
  summary: TestRunSummary;
}

export interface RunComparison {
  a: TestRunHead;
  b: TestRunHead;
  /** Cases whose status or answer differs between the runs (or that only one run has). */
  differences: { caseId: number; question: string; a: CaseResult | null; b: CaseResult | null }[];
}

export type RunJob =
  | { jobId: string; state: 'running'; done: number; total: number }
  | { jobId: string; state: 'done'; done: number; total: number; runId: number }
  | { jobId: string; state: 'failed'; done: number; total: number; message: string };

export interface ThresholdPoint {
  threshold: number;
  /** BESTMATCH answers. */
  answered: number;
  /** BESTMATCH answers of the rule the case expects. */
  right: number;
  /** BESTMATCH answers of another rule, or where the case expects none. */
  wrong: number;
  /** RECOMMEND answers. */
  recommended: number;
  /** Cases passing. */
  passed: number;
}

export interface ThresholdCurves {
  cases: number;
  current: { bestmatchThreshold: number; recommendThreshold: number };
  /** The BESTMATCH threshold varied, the RECOMMEND threshold as set (capped at it). */
  bestmatch: ThresholdPoint[];
  /** The RECOMMEND threshold varied, the BESTMATCH threshold as set. */
  recommend: ThresholdPoint[];
}

/** `from`/`to`: `draft`, `published` or a version (`v3`); `days`: how far back the log is read. */
export type ImpactRequest = Static<typeof ImpactQuery>;

/** How a logged question was answered by one side of an impact preview. */
export interface ImpactAnswer {
  /** `bestmatch`: a rule answered; `recommend`/`none`: no rule did (a list, or the fallback). */
  kind: 'bestmatch' | 'recommend' | 'none';
  /** The rule that answered (bestmatch only). */
  ruleId: string | null;
  ruleName: string | null;
}

/** One distinct logged question whose answer changes, with how often it was asked. */
export interface ImpactExample {
  question: string;
  asks: number;
  before: ImpactAnswer;
  after: ImpactAnswer;
}

/** One kind of change: distinct questions, asks (weighted), share of all asks, top examples. */
export interface ImpactKind {
  questions: number;
  asks: number;
  /** `asks` / all asks of the window read, 0–1. */
  share: number;
  /** The most asked, at most IMPACT_EXAMPLES. */
  examples: ImpactExample[];
}

export const IMPACT_KINDS = [
  'newlyAnswered',
  'newlyUnanswered',
  'otherRule',
  'otherAnswer',
] as const;
export type ImpactKindName = (typeof IMPACT_KINDS)[number];

/**
 * What changing the answers from `from` to `to` does to the customers' questions of the last
 * `days` days (docs/publishing.md, "What a publish changes for customers").
 */
export interface ImpactReport {
  from: string;
  to: string;
  days: number;
  /** The window read: asks since this time (ms). */
  since: number;
  /** Customers' asks in the window (openapi only; try-pane asks and menu replies left out). */
  asks: number;
  /** Distinct questions among them (by the matcher's normalised text). */
  questions: number;
  /** Distinct questions replayed: the most asked, at most `cap`. */
  replayed: number;
  /** Asks of the replayed questions. */
  replayedAsks: number;
  /**
   * Replayed questions asked of both targets: those a rule that differs between them can reach
   * (the others keep their answer), or every one when a change moves every answer.
   */
  matched: number;
  /**
   * Replayed questions asked of `from` by this preview: the others' answers there were kept
   * from an earlier preview or worked out ahead, after a publish (decision 179), or not needed.
   */
  fromAsked: number;
  cap: number;
  /** More distinct questions than `cap`: the least asked were not replayed. */
  capped: boolean;
  /** Every kind together. */
  changed: { questions: number; asks: number; share: number };
  kinds: Record<ImpactKindName, ImpactKind>;
  ms: number;
}

/**
 * An impact preview run as a job (POST `versions/impact/jobs`, then GET its id): `done` of
 * `total` distinct questions replayed (`total` 0 while the log is read); `cancelled` when the
 * robot changed while it ran (its rules, settings or published version: the result would be stale).
 */
export type ImpactJob =
  | { jobId: string; state: 'running'; done: number; total: number }
  | { jobId: string; state: 'done'; done: number; total: number; report: ImpactReport }
  | { jobId: string; state: 'failed' | 'cancelled'; done: number; total: number; message: string };
