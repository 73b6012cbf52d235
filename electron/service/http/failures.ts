/**
 * Every error a request can end in, as the contract's status and envelope: the service's own
 * errors, the store's, validation (every problem of the request at once) and what the framework
 * raises (framework-errors.ts). Null for an unexpected fault: a logged 500 without detail.
 * Console failures also say in `data` the field at fault and what failed with its values
 * (`ConsoleFailureData`); the openapi envelopes stay exactly as the contract has them.
 * @module
 */
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../api-types';
import type { ConsoleFailureData, ConsoleProblem } from '../console-types';
import { ServiceError } from '../errors';
import type { ErrorDetail } from '../errors';
import { LIMITS } from '../limits';
import { StorageFailure, StorageUnavailable } from '../store/contract/errors';
import { describeValidationErrors } from '../validation/ajv';
import type { ValidationProblem } from '../validation/ajv';
import { failure } from './envelope';
import { frameworkFailure } from './framework-errors';

export const UNEXPECTED = failure(
  'internal-error',
  'An unexpected error occurred; nothing was changed.',
);

/** Where a request failed its schema: its body or its query string. */
export type ValidationContext = 'body' | 'querystring';

/** A request that failed its schema (raised by our own handlers; Fastify raises its own kind). */
export class RequestValidationError extends Error {
  constructor(
    readonly validation: ErrorObject[],
    readonly validationContext: ValidationContext,
  ) {
    super('the request does not match its schema');
    this.name = 'RequestValidationError';
  }
}

/** Paging parameters of the list routes (a bad one is `invalid-paging`), with what they take. */
export const PAGING: Record<string, string> = {
  page: 'a whole number (0 or more)',
  offset: 'a whole number (0 or more)',
  pageSize: `a whole number from 1 to ${LIMITS.pageSizeMax}`,
  limit: `a whole number from 1 to ${LIMITS.pageSizeMax}`,
};

interface FrameworkError extends Error {
  statusCode?: number;
  validation?: ErrorObject[];
  validationContext?: string;
}

export interface Failure {
  status: number;
  body: unknown;
  /** Raised by the framework for a client's mistake: logged as one line. */
  refused?: boolean;
}

/** A problem as a console failure's `data` says it: only what it has. */
function consoleProblem(field: string | undefined, detail: ErrorDetail): ConsoleProblem {
  const params = detail.params ?? {};
  return {
    ...(field !== undefined ? { field } : {}),
    ...(detail.keyword !== undefined ? { keyword: detail.keyword } : {}),
    ...(Object.keys(params).length > 0 ? { params: { ...params } } : {}),
  };
}

/**
 * The failure of a request that failed validation: the first problem as `code` and `msg` (with
 * how many more there are), all of them in `errors`; console failures also say each in `data`
 * (the first, and all of them as `problems`) for the editor to mark and word.
 */
function invalid(problems: ValidationProblem[], isConsole: boolean): Failure | null {
  const [first, ...more] = problems;
  if (!first) return null;
  const msg =
    more.length === 0
      ? first.message
      : `${first.message} (${more.length} more ${more.length === 1 ? 'problem is' : 'problems are'} listed in errors.)`;
  const errors: FieldProblem[] = problems.map((p) => ({
    field: p.field ?? null,
    code: p.code,
    msg: p.message,
  }));
  const data: ConsoleFailureData | null = isConsole
    ? {
        ...consoleProblem(first.field, first),
        problems: problems.map((p) => consoleProblem(p.field, p)),
      }
    : null;
  return { status: 400, body: { code: first.code, msg, data, errors } };
}

/**
 * The status and envelope of a failure. Console failures also say the field at fault and what
 * failed (`data`), for the editor to mark and word; the openapi envelope stays as the contract
 * has it.
 */
export function failureOf(error: FrameworkError, isConsole: boolean): Failure | null {
  const fail = (code: string, message: string, field?: string, detail: ErrorDetail = {}) => {
    const data = consoleProblem(field, detail);
    return isConsole && Object.keys(data).length > 0
      ? { ...failure(code, message), data }
      : failure(code, message);
  };
  if (error instanceof ServiceError) {
    return { status: error.status, body: fail(error.code, error.message, error.field, error) };
  }
  if (error instanceof StorageFailure) {
    return { status: 500, body: failure('storage-failure', error.message) };
  }
  // Not logged per request: the store logs the outage once (store/postgres/availability.ts).
  if (error instanceof StorageUnavailable) {
    return { status: 503, body: failure('storage-unavailable', error.message) };
  }
  const validation = error.validation;
  if (validation?.length) {
    if (error.validationContext === 'querystring') {
      const first = validation[0];
      const name = first?.instancePath.slice(1) ?? '';
      const paging = PAGING[name];
      if (first && paging) {
        return {
          status: 400,
          body: fail('invalid-paging', `${name} must be ${paging}.`, name, first),
        };
      }
      const problems = invalid(describeValidationErrors(validation, 'the query'), isConsole);
      if (problems) return problems;
    }
    const tooMany = validation.find((e) => e.keyword === 'maxItems' && e.instancePath === '');
    if (tooMany) {
      return {
        status: 400,
        body: failure('batch-too-large', `A batch may hold at most ${LIMITS.rulesPerBatch} rules.`),
      };
    }
    const problems = invalid(describeValidationErrors(validation), isConsole);
    if (problems) return problems;
  }
  const refused = frameworkFailure(error);
  return refused && { ...refused, refused: true };
}
