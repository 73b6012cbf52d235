/**
 * SQLite's uniqueness errors in the store's terms.
 * @module
 */
import { UniqueViolation } from '../../repositories/errors';
import type { UniqueKey } from '../../repositories/errors';

const CONSTRAINTS: [RegExp, UniqueKey][] = [
  [/UNIQUE constraint failed: rules\.tenant_id, rules\.robot_id, rules\.name_key/, 'rule-name'],
  [/UNIQUE constraint failed: rules\.rule_id/, 'rule-id'],
  [/UNIQUE constraint failed: users\.tenant_id, users\.username_key/, 'username'],
  [
    /UNIQUE constraint failed: categories\.tenant_id, categories\.robot_id, categories\.name_key/,
    'category-name',
  ],
];

/** Runs `work`, turning SQLite's uniqueness errors into `UniqueViolation`. */
export function mappingUniqueViolations<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const known = CONSTRAINTS.find(([pattern]) => pattern.test(message));
    if (known) throw new UniqueViolation(known[1], { cause: error });
    throw error;
  }
}
