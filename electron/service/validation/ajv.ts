/**
 * Request validation with Ajv, and the translation of its errors into the contract's failure
 * codes and readable English sentences that name the field.
 * @module
 */
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ErrorCode } from '../errors';
import { MAIL_PATTERN, PHONE_PATTERN, USERNAME_PATTERN } from './schemas';
import { addWellFormedKeyword } from './well-formed';

/**
 * One Ajv for the whole service: no type coercion (a number is not a string), all lengths in code
 * points, and the `u` flag on patterns so `\p{Script=Han}` works.
 */
export function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes: false,
    useDefaults: false,
    strict: false,
    unicodeRegExp: true,
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
}

/** Turns the first Ajv error into one code, one sentence and the field at fault. */
export function describeValidationError(
  error: ErrorObject,
  what = 'the request body',
): ValidationProblem {
  const problem = describe(error, what);
  const path =
    error.keyword === 'required'
      ? `${error.instancePath}/${String((error.params as { missingProperty?: unknown }).missingProperty)}`
      : error.instancePath;
  return path === '' ? problem : { ...problem, field: fieldName(path, what) };
}

function describe(error: ErrorObject, what: string): ValidationProblem {
  const field = fieldName(error.instancePath, what);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        code: 'missing-field',
        message: `${fieldName(`${error.instancePath}/${String(p.missingProperty)}`, what)} is required.`,
      };
    case 'type':
      return { code: 'invalid-field', message: `${field} must be ${article(String(p.type))}.` };
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
    case 'pattern':
      return {
        code: 'invalid-field',
        message: `${field} ${PATTERN_MESSAGES[String(p.pattern)] ?? 'has an invalid format'}.`,
      };
    case 'anyOf':
      return {
        code: 'missing-field',
        message: `${field} must contain at least one of username, password and role.`,
      };
    default:
      return { code: 'invalid-field', message: `${field} ${error.message ?? 'is invalid'}.` };
  }
}

function article(type: string): string {
  if (type === 'array' || type === 'object' || type === 'integer') return `an ${type}`;
  return `a ${type}`;
}

/** Validates `value`; returns the problem, or null when it is valid. */
export function check(
  validate: ValidateFunction,
  value: unknown,
  what?: string,
): ValidationProblem | null {
  if (validate(value)) return null;
  const first = validate.errors?.[0];
  return first
    ? describeValidationError(first, what)
    : { code: 'invalid-field', message: 'The request is invalid.' };
}
