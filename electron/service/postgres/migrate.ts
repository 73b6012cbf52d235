/**
 * Brings a PostgreSQL database to the code's schema: the same migrations as the embedded store
 * (storage/migrations, in PostgreSQL's spelling), checked the same way, applied by whichever node
 * starts first (an advisory lock makes the others wait, then find nothing to do).
 * @module
 */
import type { Logger } from '../logger';
import { MIGRATIONS } from '../storage/migrations/index';
import { postgresMigration } from '../storage/migrations/postgres-dialect';
import { migrationHash, pendingMigrations } from '../storage/migrations/runner';
import type { AppliedMigration, Migration } from '../storage/migrations/runner';
import { inTransaction } from './connection';
import type { Pool } from './connection';

/** Any constant: the lock key every node of one database agrees on. */
const MIGRATION_LOCK = 7_253_771;

/**
 * @param ledger the table the applied migrations are recorded in: `_migrations` for the shared
 *   list; the team server's own tables (cluster/schema.ts) keep a list of their own
 */
export async function migrate(
  pool: Pool,
  logger: Logger,
  available: readonly Migration[] = MIGRATIONS,
  ledger = '_migrations',
): Promise<void> {
  const migrations = available.map(postgresMigration);
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${ledger} (version BIGINT PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL)`,
    );
    const { rows } = await client.query<AppliedMigration>(
      `SELECT version, name, sha256 FROM ${ledger} ORDER BY version`,
    );
    for (const migration of pendingMigrations(migrations, rows)) {
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${ledger} (version, name, sha256) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        migrationHash(migration),
      ]);
      logger.info(`applied schema migration ${migration.version} (${migration.name})`);
    }
  });
}
