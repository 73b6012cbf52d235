/**
 * Brings a PostgreSQL database to the code's schema: the same migrations as the embedded store
 * (store/sql/migrations, in PostgreSQL's spelling), checked the same way, then the server's own
 * (server-migrations.ts), applied by whichever node starts first (an advisory lock makes the
 * others wait, then find nothing to do).
 * @module
 */
import type { Logger } from '../../logger';
import { MIGRATIONS } from '../sql/migrations/index';
import { postgresMigration } from '../sql/migrations/postgres-dialect';
import { migrationHash, pendingMigrations } from '../sql/migrations/runner';
import type { AppliedMigration, Migration } from '../sql/migrations/runner';
import { inTransaction } from './connection';
import type { Client, Pool } from './connection';
import { SERVER_MIGRATIONS } from './server-migrations';

/** Any constant: the lock key every node of one database agrees on. */
const MIGRATION_LOCK = 7_253_771;

async function applyPending(
  client: Client,
  table: string,
  migrations: readonly Migration[],
  logger: Logger,
  label: string,
): Promise<void> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${table} (version BIGINT PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL)`,
  );
  const { rows } = await client.query<AppliedMigration>(
    `SELECT version, name, sha256 FROM ${table} ORDER BY version`,
  );
  for (const migration of pendingMigrations(migrations, rows)) {
    await client.query(migration.sql);
    await client.query(`INSERT INTO ${table} (version, name, sha256) VALUES ($1, $2, $3)`, [
      migration.version,
      migration.name,
      migrationHash(migration),
    ]);
    logger.info(`applied ${label} migration ${migration.version} (${migration.name})`);
  }
}

export async function migrate(
  pool: Pool,
  logger: Logger,
  available: readonly Migration[] = MIGRATIONS,
  server: readonly Migration[] = SERVER_MIGRATIONS,
): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await applyPending(client, '_migrations', available.map(postgresMigration), logger, 'schema');
    await applyPending(client, '_server_migrations', server, logger, 'server schema');
  });
}
