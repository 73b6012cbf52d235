/**
 * Failures of the service as problems the editor can say in the user's language. The console API
 * names the field at fault (`data.field`) next to an English sentence; the openapi batch route
 * gives only the sentence. The sentences are the service's own (validation/ajv.ts, domain/), so
 * the keyword and limit are read back from them; a sentence not recognised still gives a
 * message that names the field.
 * @module
 */
import {
  MAIL_PATTERN,
  PHONE_PATTERN,
  USERNAME_PATTERN,
} from '../../electron/service/validation/schemas';
import { ApiError } from '../api/api-error';
import type { Problem } from './problem';

type Reading = Omit<Problem, 'field'>;

const SENTENCES: [RegExp, (match: RegExpExecArray) => Reading][] = [
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
  [
    / may contain only letters/,
    () => ({ keyword: 'pattern', params: { pattern: USERNAME_PATTERN } }),
  ],
  [
    / must be a mainland China mobile/,
    () => ({ keyword: 'pattern', params: { pattern: PHONE_PATTERN } }),
  ],
  [
    / must be a valid e-mail address\.$/,
    () => ({ keyword: 'pattern', params: { pattern: MAIL_PATTERN } }),
  ],
  [/ must not be blank\.$/, () => ({ keyword: 'pattern', params: { pattern: '\\S' } })],
  [/ has an invalid format\.$/, () => ({ keyword: 'pattern', params: { pattern: '' } })],
  [/ is not a valid date\.$/, () => ({ keyword: 'date', params: {} })],
  [/ must not be before (\S+)\.$/, (m) => ({ keyword: 'date-order', params: { other: m[1] } })],
  [/ must not be above (\S+)\.$/, (m) => ({ keyword: 'not-above', params: { other: m[1] } })],
  [/ must be an? (\w+)\.$/, (m) => ({ keyword: 'type', params: { type: m[1] } })],
  [/ must be >= ([\d.]+)\.$/, (m) => ({ keyword: 'minimum', params: { limit: Number(m[1]) } })],
  [/ must be <= ([\d.]+)\.$/, (m) => ({ keyword: 'maximum', params: { limit: Number(m[1]) } })],
  [/ must contain at least one of /, () => ({ keyword: 'anyOf', params: {} })],
  [/ must be well-formed text\b/, () => ({ keyword: 'well-formed', params: {} })],
];

/**
 * A body refused for several problems says the first and how many more (`… (2 more problems
 * are listed in errors.)`): the editor says the first, in its own words.
 */
const MORE_PROBLEMS = / \(\d+ more problems? (?:is|are) listed in errors\.\)$/;

/** Keyword and params of one of the service's validation sentences; `invalid` if unknown. */
export function readSentence(sentence: string): Reading {
  const first = sentence.replace(MORE_PROBLEMS, '');
  for (const [pattern, read] of SENTENCES) {
    const match = pattern.exec(first);
    if (match) return read(match);
  }
  return { keyword: 'invalid', params: {} };
}

/** The field a sentence starts with (`questions[2] must…` → `questions[2]`), if any. */
function leadingField(sentence: string): string | undefined {
  return /^([A-Za-z][\w.]*(?:\[\d+\])*) /.exec(sentence)?.[1];
}

/** Fields of the robot's settings come as `settings.margin`: the settings form names `margin`. */
function withoutPrefix(field: string | undefined): string | undefined {
  return field?.replace(/^settings\./, '');
}

const VALIDATION_CODES = new Set(['invalid-field', 'missing-field']);

/** The field each conflict is about, when the service does not name it. */
const CODE_FIELDS: Record<string, string> = {
  'username-taken': 'username',
  'rule-name-taken': 'ruleName',
};

/** A failed call (ApiError, or anything thrown) as a problem. */
export function problemOfError(error: unknown): Problem {
  if (!(error instanceof ApiError)) return { keyword: 'internal-error', params: {} };
  if (VALIDATION_CODES.has(error.code)) {
    return {
      field: withoutPrefix(error.field ?? leadingField(error.message)),
      ...readSentence(error.message),
    };
  }
  return { field: error.field ?? CODE_FIELDS[error.code], keyword: error.code, params: {} };
}

/**
 * Every problem of a failed call: each of a body refused for several (the envelope's `errors`),
 * else the one of `problemOfError`.
 */
export function problemsOfError(error: unknown): Problem[] {
  if (!(error instanceof ApiError) || error.problems.length < 2) return [problemOfError(error)];
  return error.problems.map((problem) =>
    problemOfError(
      new ApiError(error.status, problem.code, problem.msg, problem.field ?? undefined),
    ),
  );
}

/** A row the batch route refused (`failInfo`: code and sentence) as a problem. */
export function problemOfBatchFailure(code: string, msg: string, ruleName: string): Problem {
  if (VALIDATION_CODES.has(code)) return { field: leadingField(msg), ...readSentence(msg) };
  if (code === 'rule-name-taken') {
    return { field: 'ruleName', keyword: code, params: { name: ruleName.trim() } };
  }
  return { keyword: code, params: {} };
}
