/**
 * Versioned schema migrations. Each one is recorded with the SHA-256 of its SQL: a database whose
 * applied migrations are not a prefix of the code's list (edited after being applied, or written
 * by a newer version of KB Studio) is refused rather than guessed at.
 * @module
 */
import { createHash } from 'node:crypto';

export interface Migration {
  version: number;
  name: string;
  /** The script, in SQLite's dialect (the embedded store runs it as written). */
  sql: string;
  /**
   * The same change for PostgreSQL where `sql` cannot be translated mechanically (see
   * postgres-dialect.ts); checked like `sql`, so it never changes once released either.
   */
  postgres?: string;
}

export interface AppliedMigration {
  version: number;
  name: string;
  sha256: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export function migrationHash(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/** Returns the migrations still to apply, after checking the applied ones against the code. */
export function pendingMigrations(
  available: readonly Migration[],
  applied: readonly AppliedMigration[],
): Migration[] {
  if (applied.length > available.length) {
    const newest = applied.at(-1);
    throw new MigrationError(
      `The database is at schema version ${newest?.version}, newer than this KB Studio ` +
        `understands (${available.length}). Use a newer KB Studio to open it.`,
    );
  }
  applied.forEach((done, i) => {
    const code = available[i] as Migration;
    if (done.version !== code.version || done.sha256 !== migrationHash(code)) {
      throw new MigrationError(
        `Schema migration ${done.version} (${done.name}) in the database does not match the ` +
          `code's migration ${code.version} (${code.name}): migrations must never change once released.`,
      );
    }
  });
  return available.slice(applied.length);
}
