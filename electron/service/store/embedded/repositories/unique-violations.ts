/**
 * SQLite's uniqueness errors in the store's terms.
 * @module
 */
import { UniqueViolation } from '../../contract/errors';
import { uniqueKeyInSqliteMessage } from '../../sql/unique-keys';

function mapped(error: unknown): unknown {
  const key = uniqueKeyInSqliteMessage(error instanceof Error ? error.message : String(error));
  return key ? new UniqueViolation(key, { cause: error }) : error;
}

/**
 * Runs `work`, turning SQLite's uniqueness errors into `UniqueViolation`, whether it throws or
 * returns a promise that rejects.
 */
export function mappingUniqueViolations<T>(work: () => T): T {
  try {
    const result = work();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw mapped(error);
      }) as T;
    }
    return result;
  } catch (error) {
    throw mapped(error);
  }
}
