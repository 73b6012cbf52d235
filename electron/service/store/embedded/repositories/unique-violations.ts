/**
 * SQLite's uniqueness errors in the store's terms.
 * @module
 */
import { UniqueViolation } from '../../contract/errors';
import type { UniqueKey } from '../../contract/errors';

const CONSTRAINTS: [RegExp, UniqueKey][] = [
  [/UNIQUE constraint failed: rules\.tenant_id, rules\.robot_id, rules\.name_key/, 'rule-name'],
  [/UNIQUE constraint failed: rules\.rule_id/, 'rule-id'],
  [/UNIQUE constraint failed: users\.tenant_id, users\.username_key/, 'username'],
  [
    /UNIQUE constraint failed: categories\.tenant_id, categories\.robot_id, categories\.name_key/,
    'category-name',
  ],
];

function mapped(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const known = CONSTRAINTS.find(([pattern]) => pattern.test(message));
  return known ? new UniqueViolation(known[1], { cause: error }) : error;
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
