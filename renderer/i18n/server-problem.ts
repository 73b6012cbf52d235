/**
 * Failures of the service as problems the editor can say in the user's language. The console API
 * says what failed as a code, and for a refused field the field, the rule it failed and its
 * values (`data`: field, keyword, params; electron/service/console-types.ts); those are read as
 * they are. Only the openapi batch route's per-rule failures (`failInfo`, fixed by the
 * interface) carry no more than an English sentence: `problemOfBatchFailure` reads those back.
 * @module
 */
import { ApiError } from '../api/api-error';
import type { ApiProblem } from '../api/api-error';
import type { Problem } from '../api/problem';

const VALIDATION_CODES = new Set(['invalid-field', 'missing-field']);

/**
 * The rules a field may fail that the editor says in words of their own (describe-problem.ts);
 * any other (an enum, an unknown key, a union, `anyRequired`, a check of the service) is said as
 * "not valid".
 */
const SAID_KEYWORDS = new Set([
  'required',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'type',
  'minimum',
  'maximum',
  'wellFormed',
  'date',
  'date-order',
  'not-above',
]);

/** The field each conflict is about, when the service does not name it. */
const CODE_FIELDS: Record<string, string> = {
  'username-taken': 'username',
  'rule-name-taken': 'ruleName',
};

/** Fields of the robot's settings come as `settings.margin`: the settings form names `margin`. */
function withoutPrefix(field: string | undefined): string | undefined {
  return field?.replace(/^settings\./, '');
}

/** A problem from a failure's code and what the console API says of it. */
function problemOf(
  code: string,
  field: string | undefined,
  keyword: string | undefined,
  params: Record<string, unknown>,
): Problem {
  if (VALIDATION_CODES.has(code)) {
    const said = keyword !== undefined && SAID_KEYWORDS.has(keyword);
    return { field: withoutPrefix(field), keyword: said ? keyword : 'invalid', params };
  }
  return { field: field ?? CODE_FIELDS[code], keyword: code, params };
}

/** A failed call (ApiError, or anything thrown) as a problem. */
export function problemOfError(error: unknown): Problem {
  if (!(error instanceof ApiError)) return { keyword: 'internal-error', params: {} };
  return problemOf(error.code, error.field, error.keyword, error.params);
}

/**
 * Every problem of a failed call: each of a body refused for several (the envelope's `errors`
 * with the console's `data.problems`), else the one of `problemOfError`.
 */
export function problemsOfError(error: unknown): Problem[] {
  if (!(error instanceof ApiError) || error.problems.length < 2) return [problemOfError(error)];
  return error.problems.map((problem: ApiProblem) =>
    problemOf(problem.code, problem.field ?? undefined, problem.keyword, problem.params ?? {}),
  );
}

// The batch route's failInfo: `{ index, ruleName, code, msg }` and nothing more (the interface
// fixes it), so a refused rule's keyword and limit are read back from the sentence the service
// made of its schema (validation/ajv.ts over RuleInputSchema). Only those sentences are here.

type Reading = Omit<Problem, 'field'>;

const BATCH_SENTENCES: [RegExp, (match: RegExpExecArray) => Reading][] = [
  [/ is required\.$/, () => ({ keyword: 'required', params: {} })],
  [
    / must be at least (\d+) characters long\.$/,
    (m) => ({ keyword: 'minLength', params: { limit: Number(m[1]) } }),
  ],
  [
    / must be at most (\d+) characters long\.$/,
    (m) => ({ keyword: 'maxLength', params: { limit: Number(m[1]) } }),
  ],
  [
    / must have at least (\d+) item/,
    (m) => ({ keyword: 'minItems', params: { limit: Number(m[1]) } }),
  ],
  [
    / must have at most (\d+) items/,
    (m) => ({ keyword: 'maxItems', params: { limit: Number(m[1]) } }),
  ],
  [/ must not be blank\.$/, () => ({ keyword: 'pattern', params: { pattern: '\\S' } })],
  [/ must be an? (\w+)\.$/, (m) => ({ keyword: 'type', params: { type: m[1] } })],
  [/ must be well-formed text\b/, () => ({ keyword: 'wellFormed', params: {} })],
];

/** Keyword and params of one of the batch route's sentences about a rule; `invalid` if unknown. */
export function readBatchSentence(sentence: string): Reading {
  for (const [pattern, read] of BATCH_SENTENCES) {
    const match = pattern.exec(sentence);
    if (match) return read(match);
  }
  return { keyword: 'invalid', params: {} };
}

/** The field a sentence starts with (`questions[2] must…` → `questions[2]`), if any. */
function leadingField(sentence: string): string | undefined {
  return /^([A-Za-z][\w.]*(?:\[\d+\])*) /.exec(sentence)?.[1];
}

/** A row the batch route refused (`failInfo`: code and sentence) as a problem. */
export function problemOfBatchFailure(code: string, msg: string, ruleName: string): Problem {
  if (VALIDATION_CODES.has(code)) return { field: leadingField(msg), ...readBatchSentence(msg) };
  if (code === 'rule-name-taken') {
    return { field: 'ruleName', keyword: code, params: { name: ruleName.trim() } };
  }
  return { keyword: code, params: {} };
}
