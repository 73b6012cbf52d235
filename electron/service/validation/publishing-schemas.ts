/**
 * Schemas of the console API's publishing and test-set bodies (docs/publishing.md).
 * @module
 */
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../limits';
import { string, text } from './schemas';

/** Notes and authors of versions. */
const NOTE_MAX = 500;
const AUTHOR_MAX = 64;
/** Cases sent at once (a sheet's import). */
export const TEST_CASES_MAX = 20_000;

/** `draft`, `published` or a version number (`12` or `v12`). */
export const target = string({ pattern: '^(?:draft|published|v?[1-9]\\d{0,8})$' });

export const PublishBody = Type.Object({
  note: string({ maxLength: NOTE_MAX }),
  author: text(AUTHOR_MAX),
  confirmFailures: Type.Optional(Type.Boolean()),
  /** Publish even though more questions change answer than the robot's impact gate allows. */
  confirmImpact: Type.Optional(Type.Boolean()),
});

export const RollbackBody = Type.Object({
  note: Type.Optional(string({ maxLength: NOTE_MAX })),
  author: text(AUTHOR_MAX),
});

/** A change of publish mode made in the editor, credited to `author`. */
export const ModeSwitchBody = Type.Object({
  publishMode: Type.Unsafe<'live' | 'review'>({ type: 'string', enum: ['live', 'review'] }),
  author: text(AUTHOR_MAX),
});

export const DiffQuery = Type.Object({ from: target, to: target });

export const expectation = Type.Unsafe<'rule' | 'recommend' | 'fallback'>({
  type: 'string',
  enum: ['rule', 'recommend', 'fallback'],
});

export const TestCaseBody = Type.Object({
  question: text(LIMITS.askQuestionMax),
  expect: expectation,
  ruleId: Type.Optional(Type.Union([string({ minLength: 1, maxLength: 64 }), Type.Null()])),
  ruleName: Type.Optional(text(LIMITS.ruleNameMax)),
});

export const TestCasesBody = Type.Object({
  cases: Type.Array(TestCaseBody, { minItems: 1, maxItems: TEST_CASES_MAX }),
});

export const CaseIdsBody = Type.Object({
  caseIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: TEST_CASES_MAX }),
});

export const TestRunBody = Type.Object({ target: Type.Optional(target) });

export const CompareQuery = Type.Object({
  a: string({ pattern: '^[1-9]\\d{0,14}$' }),
  b: string({ pattern: '^[1-9]\\d{0,14}$' }),
});

export const TargetQuery = Type.Object({ target: Type.Optional(target) });

/** Days of the question log an impact preview reads, at most (the default is a week). */
export const IMPACT_DAYS_MAX = 90;

/** `GET R/versions/impact`: from (default `published`) to (default `draft`), over `days` (7). */
export const ImpactQuery = Type.Object({
  from: Type.Optional(target),
  to: Type.Optional(target),
  days: Type.Optional(string({ pattern: '^(?:[1-9]|[1-8]\\d|90)$' })),
});

/** `POST R/versions/impact/jobs`: the same preview, run as a job the editor polls. */
export const ImpactJobBody = Type.Object({
  from: Type.Optional(target),
  to: Type.Optional(target),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: IMPACT_DAYS_MAX })),
});
