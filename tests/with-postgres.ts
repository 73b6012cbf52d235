/**
 * Runs a test command against PostgreSQL: starts one throwaway cluster for the whole run
 * (tests/helpers/postgres.ts), points the tests at it (`KB_TEST_STORE=postgres`, each service
 * then takes a database of its own in it) and stops it after.
 * Usage: tsx tests/with-postgres.ts node tests/run.mjs tests/api
 */
import { spawnSync } from 'node:child_process';
import { startPostgresCluster } from './helpers/postgres';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx tests/with-postgres.ts <command> [args…]');
  process.exit(2);
}
const cluster = await startPostgresCluster();
console.log(`PostgreSQL test cluster at ${cluster.url}`);
const result = spawnSync(command, args, {
  stdio: 'inherit',
  env: { ...process.env, KB_TEST_STORE: 'postgres', KB_TEST_PG_URL: cluster.url },
});
cluster.stop();
process.exit(result.status ?? 1);
