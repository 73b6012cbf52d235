/**
 * The team server's store: PostgreSQL through node-postgres (docs/team-server.md).
 * @module
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Logger } from '../../logger';
import { DatabaseAvailability } from './availability';
import { isConnectionFailure } from './database-errors';

export type Pool = pg.Pool;
export type Client = pg.PoolClient;

let driver: typeof pg | undefined;

/**
 * node-postgres, loaded with the first pool (synchronously: it is CommonJS), so that the embedded
 * store's start does not pay for loading it (50–140 ms here).
 */
export function loadDriver(): typeof pg {
  if (!driver) {
    driver = createRequire(import.meta.url)('pg') as typeof pg;
    // 64-bit integers (times in ms, ids) come back as numbers: every value we store fits in 2^53.
    driver.types.setTypeParser(driver.types.builtins.INT8, (text) => Number(text));
  }
  return driver;
}

/**
 * How long a node waits for PostgreSQL (docs/team-server.md, "When the database fails"): a
 * request that cannot reach it is answered 503 `storage-unavailable` within these, never held
 * for as long as the database is away.
 */
export interface DatabaseTimeouts {
  /** A new connection (TCP and PostgreSQL's start-up), or a free one of a full pool. */
  readonly connectMs: number;
  /** The answer to any statement, measured by the node (a frozen server answers nothing). */
  readonly queryMs: number;
  /** A statement's run on the server (`statement_timeout`): the server cancels it. */
  readonly statementMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5000,
  queryMs: 5000,
  statementMs: 5000,
};

/**
 * What a bulk read or a migration may take instead (every rule of the database at start, a
 * robot's purge, an index built by a migration on a large table): still bounded, so that a
 * frozen server does not hold the node forever.
 */
export const LONG_STATEMENT_MS = 10 * 60_000;

/**
 * A transaction left idle this long is ended by the server: a node frozen or cut off mid-write
 * does not keep its locks (a publish's advisory lock) from the other nodes.
 */
const IDLE_IN_TRANSACTION_MS = 60_000;

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  logger: Logger;
  /** Connections this node keeps at most (default 10). */
  maxConnections?: number;
  timeouts?: DatabaseTimeouts;
  /**
   * Where the pool's outages are told (one line each); a new one, of this pool alone, when not
   * given (tests of one part).
   */
  availability?: DatabaseAvailability;
  /** Settings of every session, given at connection start-up (no statement of their own). */
  settings?: Readonly<Record<string, string>>;
}

/** A client's configuration: the URL, the timeouts, and the sessions' settings. */
export function clientConfig(
  url: string,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
  settings: Readonly<Record<string, string>> = {},
): pg.ClientConfig {
  const options = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  return {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs,
    // These and `options` are sent at start-up: they cost no statement (a statement sent from the
    // pool's `connect` event would overlap the first query on the connection).
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    ...(options !== '' ? { options } : {}),
    // A server that vanishes without closing its connections (a host gone) is noticed.
    keepAlive: true,
  };
}

export function openPool(options: PostgresOptions): Pool {
  const availability = options.availability ?? new DatabaseAvailability(options.logger);
  const pool = new (loadDriver().Pool)({
    ...clientConfig(options.url, options.timeouts, options.settings),
    max: options.maxConnections ?? 10,
    // A connection the server drops (restart, failover) is replaced, not fatal to the node.
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that ends (the server restarts) is one sign of an outage, not a line each.
  pool.on('error', (error) => availability.lost(error));
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
  return onCheckedOut(client, async () => {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  });
}

/**
 * Runs `transaction` (which begins and commits) on a connection checked out of the pool, and
 * gives the connection back. When it throws, the transaction is rolled back, unless the
 * connection failed or timed out: that one is asked nothing more (a ROLLBACK would wait for the
 * timeout again) and is destroyed rather than reused, since its server may still be working on
 * a statement the node gave up on; the server rolls back when it sees it go.
 */
export async function onCheckedOut<T>(client: Client, transaction: () => Promise<T>): Promise<T> {
  // A checked-out connection that dies emits 'error', which would end the process unheard.
  let broken: unknown;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    return await transaction();
  } catch (error) {
    if (broken === undefined && !isConnectionFailure(error)) {
      await client.query('ROLLBACK').catch((failure: unknown) => (broken = failure));
    } else {
      broken ??= error;
    }
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken !== undefined);
  }
}
