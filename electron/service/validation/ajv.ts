/**
 * Request validation with Ajv, and the translation of its errors into the contract's failure
 * codes and readable English sentences that name the field, each with the Ajv keyword and params
 * it was made from (for a program: the editor says them in its own words).
 * @module
 */
import { Ajv } from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { ErrorCode } from '../errors';
import { MAIL_PATTERN, PHONE_PATTERN, USERNAME_PATTERN } from './schemas';
import { addWellFormedKeyword } from './well-formed';

/**
 * One Ajv for the whole service: every problem of a request reported at once (a client fixes
 * them in one go), no type coercion (a number is not a string), all lengths in code points, and
 * the `u` flag on patterns so `\p{Script=Han}` works. `code`: Ajv's code options (the editor's
 * validators are compiled to source at build time, build/field-validators.ts).
 */
export function createAjv(code?: Options['code']): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    strict: false,
    unicodeRegExp: true,
    ...(code ? { code } : {}),
  });
  addWellFormedKeyword(ajv);
  return ajv;
}

const PATTERN_MESSAGES: Record<string, string> = {
  [USERNAME_PATTERN]: 'may contain only letters, digits, Chinese characters and underscores',
  [PHONE_PATTERN]:
    'must be a mainland China mobile number (11 digits starting with 13-19) or an international number (+ and 8 to 15 digits)',
  [MAIL_PATTERN]: 'must be a valid e-mail address',
  '\\S': 'must not be blank',
};

/** `/questions/3` → `questions[3]`; the root is named by `what`. */
function fieldName(path: string, what: string): string {
  if (path === '') return what;
  return path
    .slice(1)
    .split('/')
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

export interface ValidationProblem {
  code: ErrorCode;
  message: string;
  /** The field at fault, as named in the message (`questions[1]`); absent for the whole body. */
  field?: string;
  /** The Ajv keyword that failed (`maxLength`), or `anyRequired` for "one of these fields". */
  keyword: string;
  /** Its params as Ajv gives them (`{ limit: 200 }`); `anyRequired`: `{ alternatives }`. */
  params: Record<string, unknown>;
}

/** What `describe` makes of an Ajv error: its code and sentence. */
type Described = Pick<ValidationProblem, 'code' | 'message'>;

/** Turns the first Ajv error into one code, one sentence and the field at fault. */
export function describeValidationError(
  error: ErrorObject,
  what = 'the request body',
): ValidationProblem {
  const problem = { ...describe(error, what), keyword: error.keyword, params: error.params };
  const path =
    error.keyword === 'required'
      ? `${error.instancePath}/${String((error.params as { missingProperty?: unknown }).missingProperty)}`
      : error.instancePath;
  return path === '' ? problem : { ...problem, field: fieldName(path, what) };
}

function describe(error: ErrorObject, what: string): Described {
  const field = fieldName(error.instancePath, what);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        code: 'missing-field',
        message: `${fieldName(`${error.instancePath}/${String(p.missingProperty)}`, what)} is required.`,
      };
    case 'type':
      return {
        code: 'invalid-field',
        message: `${capitalized(field)} must be ${article(String(p.type))}.`,
      };
    case 'minLength':
      return {
        code: 'invalid-field',
        message: `${field} must be at least ${String(p.limit)} characters long.`,
      };
    case 'maxLength':
      return {
        code: 'invalid-field',
        message: `${field} must be at most ${String(p.limit)} characters long.`,
      };
    case 'minItems':
      return {
        code: 'invalid-field',
        message: `${field} must have at least ${String(p.limit)} item(s).`,
      };
    case 'maxItems':
      return {
        code: 'invalid-field',
        message: `${field} must have at most ${String(p.limit)} items.`,
      };
    case 'const':
      return { code: 'invalid-field', message: `${field} must be ${String(p.allowedValue)}.` };
    case 'enum':
      return {
        code: 'invalid-field',
        message: `${field} must be one of ${(p.allowedValues as unknown[])
          .filter((value) => value !== null)
          .join(', ')}.`,
      };
    case 'pattern':
      return {
        code: 'invalid-field',
        message: `${field} ${PATTERN_MESSAGES[String(p.pattern)] ?? 'has an invalid format'}.`,
      };
    case 'additionalProperties':
      return {
        code: 'invalid-field',
        message: `${capitalized(field)} has an unknown key "${String(p.additionalProperty)}".`,
      };
    default:
      return { code: 'invalid-field', message: `${field} ${error.message ?? 'is invalid'}.` };
  }
}

/** `the request body …` opens a sentence as `The request body …`; field names keep their case. */
function capitalized(field: string): string {
  return field.startsWith('the ') ? `T${field.slice(1)}` : field;
}

/**
 * Every problem of a failed validation, one per field, in the schema's order. The branches of an
 * `anyOf` (update administrator: one of three fields) are not problems of their own: the
 * `anyOf` says what is needed.
 */
export function describeValidationErrors(
  errors: readonly ErrorObject[],
  what = 'the request body',
): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  const alternatives: string[] = [];
  for (const error of errors) {
    if (/\/anyOf\/\d+\//.test(error.schemaPath)) {
      const missing = (error.params as { missingProperty?: unknown }).missingProperty;
      if (error.keyword === 'required') alternatives.push(String(missing));
      continue;
    }
    const problem: ValidationProblem =
      error.keyword === 'anyOf' && alternatives.length > 0
        ? {
            code: 'missing-field',
            message: `At least one of ${listed(alternatives)} is needed: each is optional, but not all of them.`,
            keyword: 'anyRequired',
            params: { alternatives: [...alternatives] },
          }
        : describeValidationError(error, what);
    if (error.keyword === 'anyOf') alternatives.length = 0;
    const key = problem.field ?? '';
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

interface BodySchema {
  type?: string;
  required?: string[];
  anyOf?: { required?: string[] }[];
}

/** `a, b and c` */
function listed(names: readonly string[]): string {
  return names.length < 2
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** What a route's body must be, for the message of an empty body ("a JSON object with …"). */
export function expectedBody(schema: unknown): string {
  const { type, required, anyOf } = (schema ?? {}) as BodySchema;
  if (type === 'array') return 'a JSON array';
  if (type !== 'object') return 'a JSON body';
  if (required?.length) return `a JSON object with ${listed(required)}`;
  const oneOf = anyOf?.flatMap((branch) => branch.required ?? []) ?? [];
  return oneOf.length ? `a JSON object with at least one of ${listed(oneOf)}` : 'a JSON object';
}

function article(type: string): string {
  if (type === 'array' || type === 'object' || type === 'integer') return `an ${type}`;
  return `a ${type}`;
}

/** Validates `value`; returns its first problem, or null when it is valid. */
export function check(
  validate: ValidateFunction,
  value: unknown,
  what?: string,
): ValidationProblem | null {
  if (validate(value)) return null;
  return (
    describeValidationErrors(validate.errors ?? [], what)[0] ?? {
      code: 'invalid-field',
      message: 'The request is invalid.',
      keyword: 'invalid',
      params: {},
    }
  );
}
