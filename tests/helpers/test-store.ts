/**
 * Which store the API tests run on: the embedded one (default) or PostgreSQL, when the run was
 * started by tests/with-postgres.ts (`KB_TEST_STORE=postgres`). On PostgreSQL each data directory
 * gets a database of its own, the same one again when a test restarts the service on it.
 */
import { freshDatabase } from './postgres';

export const onPostgres = process.env.KB_TEST_STORE === 'postgres';

/**
 * Why a test or suite does not run on PostgreSQL: it checks the embedded store's own files (the
 * journal, snapshots, the saved index), which a team server does not have.
 */
export const EMBEDDED_FILES_ONLY = onPostgres
  ? 'checks the embedded store’s files (journal, snapshot, saved index): not on PostgreSQL'
  : false;

const databases = new Map<string, Promise<string>>();

/** The database of a service on `dataDir` (undefined when the tests run on the embedded store). */
export function databaseFor(dataDir: string): Promise<string | undefined> {
  if (!onPostgres) return Promise.resolve(undefined);
  let database = databases.get(dataDir);
  if (!database) {
    database = freshDatabase('api');
    databases.set(dataDir, database);
  }
  return database;
}

/** The environment that points a child service on `dataDir` at its database (none when embedded). */
export async function storeEnv(dataDir: string): Promise<Record<string, string>> {
  const database = await databaseFor(dataDir);
  return database === undefined ? {} : { KB_DATABASE_URL: database };
}
