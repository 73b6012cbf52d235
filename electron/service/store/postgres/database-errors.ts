/**
 * PostgreSQL's failures in the store's terms (store/contract/errors.ts), the same for every part
 * of a team server that talks to the database (the store, the question log, the signatures, the
 * change feed): the database out of reach or too slow is `StorageUnavailable` (503), a write
 * whose fate is unknown is `StorageFailure` (500), a uniqueness error is `UniqueViolation`, text
 * PostgreSQL cannot hold is the client's `invalid-field`.
 * @module
 */
import { ServiceError } from '../../errors';
import { StorageFailure, StorageUnavailable, UniqueViolation } from '../contract/errors';
import { uniqueKeyOfPostgresConstraint } from '../sql/unique-keys';

/** PostgreSQL's `unique_violation`. */
const UNIQUE_VIOLATION = '23505';

/** `query_canceled`: the server's `statement_timeout` ended the statement. */
const STATEMENT_TIMEOUT = '57014';

/**
 * PostgreSQL's refusals of text it cannot hold: `character_not_in_repertoire` (a NUL byte in a
 * parameter) and `untranslatable_character` (`\u0000` in JSON read as text).
 */
const NUL_IN_TEXT = new Set(['22021', '22P05']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A connection that can no longer be used: a socket error (its errno as `code`), one of
 * PostgreSQL's connection or shut-down states (08…, 57P01–57P03, 53300), or the driver's own (a
 * connection that ended, a connect or a query that timed out).
 */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) {
    // Node's socket errors carry their errno (ECONNREFUSED; no SQLSTATE class starts with E).
    if (/^E[A-Z]+$/.test(code)) return true;
    return code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300';
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded|Query read timeout|not queryable/i.test(message);
}

/** The server ended a statement that ran over its `statement_timeout`. */
export function isStatementTimeout(error: unknown): boolean {
  return codeOf(error) === STATEMENT_TIMEOUT;
}

const UNAVAILABLE =
  'The database cannot be reached or did not answer in time: nothing was changed. Try again shortly.';

const OUTCOME_UNKNOWN =
  'The connection to the database was lost while the change was being committed: it may have been made or not. Look before trying again.';

/**
 * `error` in the store's terms. `committing`: the error met a write's COMMIT, whose outcome the
 * node then cannot know. The client's message never carries the driver's (addresses, names).
 */
export function mappedError(error: unknown, options: { committing?: boolean } = {}): unknown {
  if (error instanceof StorageFailure || error instanceof StorageUnavailable) return error;
  if (isConnectionFailure(error)) {
    return options.committing
      ? new StorageFailure(OUTCOME_UNKNOWN, { cause: error })
      : new StorageUnavailable(UNAVAILABLE, { cause: error });
  }
  if (isStatementTimeout(error)) return new StorageUnavailable(UNAVAILABLE, { cause: error });
  const code = codeOf(error);
  if (code !== undefined && NUL_IN_TEXT.has(code)) {
    return new ServiceError(
      'invalid-field',
      'Text must not contain the NUL character (U+0000): the team server cannot store it.',
    );
  }
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  if (code !== UNIQUE_VIOLATION || typeof constraint !== 'string') return error;
  const key = uniqueKeyOfPostgresConstraint(constraint);
  return key ? new UniqueViolation(key, { cause: error }) : error;
}
