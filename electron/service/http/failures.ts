/**
 * Every error a request can end in, as the contract's status and envelope: the service's own
 * errors, the store's, and what the framework raises (validation, body size, unreadable body).
 * Null for an unexpected fault: a logged 500 without detail.
 * @module
 */
import type { ErrorObject } from 'ajv';
import { ServiceError } from '../errors';
import { LIMITS } from '../limits';
import { StorageFailure } from '../repositories/errors';
import { describeValidationError } from '../validation/ajv';
import { failure } from './envelope';

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
const PAGING: Record<string, string> = {
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
}

/**
 * The status and envelope of a failure. Console failures also name the field at fault, for the
 * editor to mark; the openapi envelope stays as the contract has it.
 */
export function failureOf(error: FrameworkError, isConsole: boolean): Failure | null {
  const fail = (code: string, message: string, field?: string) =>
    isConsole && field ? { ...failure(code, message), data: { field } } : failure(code, message);
  if (error instanceof ServiceError) {
    return { status: error.status, body: fail(error.code, error.message, error.field) };
  }
  if (error instanceof StorageFailure) {
    return { status: 500, body: failure('storage-failure', error.message) };
  }
  const first = error.validation?.[0];
  if (first) {
    if (error.validationContext === 'querystring') {
      const name = first.instancePath.slice(1);
      const paging = PAGING[name];
      if (paging) {
        return { status: 400, body: fail('invalid-paging', `${name} must be ${paging}.`, name) };
      }
      const problem = describeValidationError(first, 'the query');
      return { status: 400, body: fail('invalid-field', problem.message, problem.field) };
    }
    const problem = describeValidationError(first);
    if (first.keyword === 'maxItems' && first.instancePath === '') {
      return {
        status: 400,
        body: failure('batch-too-large', `A batch may hold at most ${LIMITS.rulesPerBatch} rules.`),
      };
    }
    return { status: 400, body: fail(problem.code, problem.message, problem.field) };
  }
  if (error.statusCode === 413) {
    return {
      status: 413,
      body: failure('body-too-large', 'The request body is larger than 10 MiB.'),
    };
  }
  if (error.statusCode === 400) {
    return {
      status: 400,
      body: failure('malformed-json', `The request could not be read: ${error.message}`),
    };
  }
  return null;
}
