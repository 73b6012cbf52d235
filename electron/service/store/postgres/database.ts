/**
 * How the PostgreSQL repositories talk to the database: reads on the pool, each write one
 * transaction on one connection, PostgreSQL's uniqueness errors in the store's terms, and the
 * store's position (a sequence taken by every transaction that changed something).
 * @module
 */
import type pg from 'pg';
import { ServiceError } from '../../errors';
import { StorageFailure, UniqueViolation } from '../contract/errors';
import { uniqueKeyOfPostgresConstraint } from '../sql/unique-keys';
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

/** PostgreSQL's `unique_violation`. */
const UNIQUE_VIOLATION = '23505';

/**
 * PostgreSQL's refusals of text it cannot hold: `character_not_in_repertoire` (a NUL byte in a
 * parameter) and `untranslatable_character` (`\u0000` in JSON read as text).
 */
const NUL_IN_TEXT = new Set(['22021', '22P05']);

/**
 * The database cannot be reached or is going away: SQLSTATE class 08 (connection exception),
 * 57P01–57P03 (shut down, starting up), 53300 (too many connections), a socket error, or the
 * driver's own (a connection that ended, a connect that timed out).
 */
function unreachable(code: string | undefined, error: unknown): boolean {
  // Node's socket errors carry their errno as `code` (ECONNREFUSED; no SQLSTATE class starts
  // with E); the driver's own errors carry none.
  if (code !== undefined && /^E[A-Z]+$/.test(code)) return true;
  if (code !== undefined) {
    return code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300';
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded/i.test(message);
}

/**
 * A uniqueness error of a known constraint as `UniqueViolation`; text PostgreSQL cannot store
 * (U+0000, which SQLite keeps) as the client's mistake; a database out of reach as
 * `StorageFailure` (the request's 500 says so); anything else as it is.
 */
export function mappedError(error: unknown): unknown {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (unreachable(code, error)) {
    return new StorageFailure(
      `The database cannot be reached (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
  if (code !== undefined && NUL_IN_TEXT.has(code)) {
    return new ServiceError(
      'invalid-field',
      'Text must not contain the NUL character (U+0000): the team server cannot store it.',
    );
  }
  if (code !== UNIQUE_VIOLATION || constraint === undefined) return error;
  const key = uniqueKeyOfPostgresConstraint(constraint);
  return key ? new UniqueViolation(key, { cause: error }) : error;
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

export class Database implements Reader {
  private readonly pool: Reader;
  private lastPosition = 0;

  constructor(readonly connections: Pool) {
    this.pool = readerOf((sql, params) =>
      connections.query(sql, params as unknown[]).catch((error: unknown) => {
        throw mappedError(error);
      }),
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
   * write is on the server's disk), rolled back when it throws, with uniqueness errors thrown
   * as `UniqueViolation`. A transaction that changed rows takes the next position in the same
   * round trip as its COMMIT; one that changed nothing leaves the position as it was.
   */
  async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.connections.connect().catch((error: unknown) => {
      throw mappedError(error);
    });
    // Rows changed by any statement of the transaction (a SELECT changes none).
    let changed = 0;
    const query: Query = async (sql, params) => {
      const result = await client.query(sql, params as unknown[]);
      if (result.command !== 'SELECT') changed += result.rowCount ?? 0;
      return result;
    };
    const tx: Tx = {
      ...readerOf(query),
      run: async (sql, params = []) => (await query(sql, params)).rowCount ?? 0,
    };
    let broken: Error | undefined;
    // A checked-out connection that dies (the server restarts) emits 'error': without a listener
    // that would end the process; the query in flight fails, and the connection is not reused.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(tx);
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
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped from the pool, not reused.
      await client.query('ROLLBACK').catch((failure: Error) => (broken = failure));
      throw mappedError(error);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}
