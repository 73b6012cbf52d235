/**
 * How the PostgreSQL repositories talk to the database: reads on the pool, each write one
 * transaction on one connection, PostgreSQL's uniqueness errors in the store's terms, and the
 * store's position (a sequence taken by every transaction that changed something).
 * @module
 */
import type pg from 'pg';
import type { DatabaseAvailability } from './availability';
import { LONG_STATEMENT_MS, onCheckedOut } from './connection';
import type { Pool } from './connection';

/** What a statement is given: PostgreSQL casts the text of numbers and arrays as declared. */
export type SqlValue = string | number | boolean | null | readonly string[] | readonly number[];

/** Reads, on the pool or inside a transaction. */
export interface Reader {
  all<T extends pg.QueryResultRow>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T extends pg.QueryResultRow>(
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<T | undefined>;
}

/**
 * A write transaction: `run` returns the rows a statement changed; any statement may change rows
 * (`UPDATE … RETURNING` through `all`).
 */
export interface Tx extends Reader {
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

type Query = (sql: string, params: readonly SqlValue[]) => Promise<pg.QueryResult>;

function readerOf(query: Query): Reader {
  return {
    all: async <T extends pg.QueryResultRow>(sql: string, params: readonly SqlValue[] = []) =>
      (await query(sql, params)).rows as T[],
    get: async <T extends pg.QueryResultRow>(sql: string, params: readonly SqlValue[] = []) =>
      (await query(sql, params)).rows[0] as T | undefined,
  };
}

/** The sequence every committed change takes a number of (server migration 1). */
const POSITION = 'kb_position';

/** A statement with its own client-side timeout (node-postgres reads `query_timeout` per query). */
type TimedQuery = pg.QueryConfig & { query_timeout?: number };

export interface WriteOptions {
  /**
   * Its statements may run up to `LONG_STATEMENT_MS` instead of the node's timeouts: bulk reads
   * (every rule at start) and purges, whose time grows with the data.
   */
  long?: boolean;
}

export class Database implements Reader {
  private readonly pool: Reader;
  /** Reads whose time grows with the data (every rule of the database), under the long timeout. */
  readonly long: Reader;
  private lastPosition = 0;

  constructor(
    readonly connections: Pool,
    /** Where outages are noted (one line each); the store's, shared by the node's parts. */
    readonly availability: DatabaseAvailability,
  ) {
    this.pool = readerOf((sql, params) =>
      availability.call(() => connections.query(sql, params as unknown[])),
    );
    this.long = readerOf((sql, params) =>
      this.write((tx) => tx.result(sql, params), { long: true }),
    );
  }

  /** Reads the store's position as the database has it (at open). */
  async loadPosition(): Promise<void> {
    const row = await this.get<{ last_value: number; is_called: boolean }>(
      `SELECT last_value, is_called FROM ${POSITION}`,
    );
    this.lastPosition = row?.is_called ? Number(row.last_value) : 0;
  }

  /** The highest position this node has committed or read. */
  get position(): number {
    return this.lastPosition;
  }

  all<T extends pg.QueryResultRow>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.pool.all<T>(sql, params);
  }

  get<T extends pg.QueryResultRow>(
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<T | undefined> {
    return this.pool.get<T>(sql, params);
  }

  /**
   * Runs `work` as one transaction: committed when it returns (synchronous_commit: an answered
   * write is on the server's disk), rolled back when it throws, with PostgreSQL's errors in the
   * store's terms (database-errors.ts). A transaction that changed rows takes the next position
   * in the same round trip as its COMMIT; one that changed nothing leaves the position as it was.
   */
  async write<T>(
    work: (tx: Tx & { result: Query }) => Promise<T>,
    options: WriteOptions = {},
  ): Promise<T> {
    const { availability } = this;
    const outage = availability.outageCount;
    const client = await this.connections.connect().catch((error: unknown) => {
      throw availability.failed(error);
    });
    // Rows changed by any statement of the transaction (a SELECT changes none).
    let changed = 0;
    const query: Query = async (sql, params) => {
      const statement: TimedQuery = {
        text: sql,
        values: params as unknown[],
        ...(options.long ? { query_timeout: LONG_STATEMENT_MS } : {}),
      };
      const result = await client.query(statement);
      if (result.command !== 'SELECT') changed += result.rowCount ?? 0;
      return result;
    };
    const tx = {
      ...readerOf(query),
      run: async (sql: string, params: readonly SqlValue[] = []) =>
        (await query(sql, params)).rowCount ?? 0,
      result: query,
    };
    let committing = false;
    try {
      return await onCheckedOut(client, async () => {
        await client.query('BEGIN');
        if (options.long) await client.query(`SET LOCAL statement_timeout = ${LONG_STATEMENT_MS}`);
        const result = await work(tx);
        // A COMMIT that changed nothing has no outcome to be unsure of.
        committing = changed > 0;
        if (changed > 0) {
          // Two statements in one message (the simple protocol): one round trip.
          const results = (await client.query(
            `SELECT nextval('${POSITION}') AS position; COMMIT`,
          )) as unknown as pg.QueryResult<{ position: number }>[];
          const position = Number(results[0]?.rows[0]?.position);
          if (position > this.lastPosition) this.lastPosition = position;
        } else {
          await client.query('COMMIT');
        }
        availability.answered(outage);
        return result;
      });
    } catch (error) {
      throw availability.failed(error, { committing });
    }
  }
}
