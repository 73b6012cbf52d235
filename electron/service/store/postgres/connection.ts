/**
 * The team server's store: PostgreSQL through node-postgres (docs/team-server.md).
 * @module
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Logger } from '../../logger';

export type Pool = pg.Pool;
export type Client = pg.PoolClient;

let driver: typeof pg | undefined;

/**
 * node-postgres, loaded with the first pool (synchronously: it is CommonJS), so that the embedded
 * store's start does not pay for loading it (50–140 ms here).
 */
function loadDriver(): typeof pg {
  if (!driver) {
    driver = createRequire(import.meta.url)('pg') as typeof pg;
    // 64-bit integers (times in ms, ids) come back as numbers: every value we store fits in 2^53.
    driver.types.setTypeParser(driver.types.builtins.INT8, (text) => Number(text));
  }
  return driver;
}

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  logger: Logger;
  /** Connections this node keeps at most (default 10). */
  maxConnections?: number;
}

export function openPool(options: PostgresOptions): Pool {
  const pool = new (loadDriver().Pool)({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // A connection the server drops (restart, failover) is replaced, not fatal to the node.
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (error) => options.logger.warn(`PostgreSQL connection lost: ${error.message}`));
  return pool;
}

/**
 * Runs `work` in one transaction on one connection: committed when it returns, rolled back when
 * it throws. An answered write is a committed one (synchronous_commit stays on).
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // A checked-out connection that dies emits 'error', which would end the process unheard.
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((failure: Error) => (broken ??= failure));
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
