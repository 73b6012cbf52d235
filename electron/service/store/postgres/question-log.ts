/**
 * The team server's question log: one table every node appends to and reads from
 * (`question_log`, server migration 2), with the inbox's marks beside it. Like the embedded day
 * files, appends are buffered and written about once a second, in one INSERT per flush; an
 * entry is the day file's line, so both stores keep the same bytes and count the same size.
 * @module
 */
import type { QueryResult, QueryResultRow } from 'pg';
import type { Logger } from '../../logger';
import type { LoggedQuestion } from '../../question-log-types';
import type { InboxMark, LogKey, QuestionLogRepository } from '../contract/question-log';
import { FlushSchedule } from '../sql/flush-schedule';
import {
  DAY_MS,
  clampTime,
  dayOf,
  decode as decodeLine,
  encode as encodeLine,
} from '../sql/question-log-line';
import { DatabaseAvailability } from './availability';
import type { Pool } from './connection';
import type { SqlValue } from './database';
import { StorageUnavailable } from '../contract/errors';

interface Buffered {
  log: LogKey;
  at: number;
  line: string;
}

export interface PostgresQuestionLogOptions {
  pool: Pool;
  logger: Logger;
  /** How often buffered entries are written (ms). */
  flushMs?: number;
  /** Where outages are noted (the store's); one of its own when not given. */
  availability?: DatabaseAvailability;
}

export class PostgresQuestionLog implements QuestionLogRepository {
  private readonly pool: Pool;
  private readonly logger: Logger;
  private buffer: Buffered[] = [];
  private readonly writes: FlushSchedule;
  private readonly availability: DatabaseAvailability;
  /** Entries dropped while the database was away, told once it answers again. */
  private lost = 0;

  /** Entries dropped because they could not be written (the metrics read it). */
  failedWrites = 0;

  constructor(options: PostgresQuestionLogOptions) {
    this.pool = options.pool;
    this.logger = options.logger;
    this.availability = options.availability ?? new DatabaseAvailability(options.logger);
    this.writes = new FlushSchedule(() => this.writeBuffered(), options.flushMs);
  }

  append(log: LogKey, entry: LoggedQuestion): void {
    this.buffer.push({ log, at: entry.at, line: encodeLine(entry) });
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writeBuffered(): Promise<void> {
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    try {
      await this.query(
        `INSERT INTO question_log (log_key, at, line)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])`,
        [batch.map((b) => b.log), batch.map((b) => b.at), batch.map((b) => b.line)],
      );
    } catch (error) {
      // A record of traffic, not data: entries that cannot be written are dropped rather than
      // held in memory without bound (as the day files do on a full disk). While the database
      // is away they are counted, and said in one line once it is back (the outage has its own).
      this.failedWrites += batch.length;
      if (error instanceof StorageUnavailable) this.lost += batch.length;
      else this.logger.error(`could not write ${batch.length} question log entries`, error);
      return;
    }
    if (this.lost > 0) {
      this.logger.warn(
        `${this.lost} question log entries could not be written while the database was away`,
      );
      this.lost = 0;
    }
  }

  /** One statement on the pool, its failure in the store's terms and its outage noted. */
  private query<R extends QueryResultRow>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<QueryResult<R>> {
    return this.availability.call(() => this.pool.query<R>(sql, params as unknown[]));
  }

  async read(log: LogKey, from: number, to: number): Promise<LoggedQuestion[]> {
    await this.flush();
    const { rows } = await this.query<{ line: string }>(
      `SELECT line FROM question_log WHERE log_key = $1 AND at >= $2 AND at < $3
       ORDER BY at, entry_id`,
      [log, clampTime(from), clampTime(to)],
    );
    const entries: LoggedQuestion[] = [];
    const take = (line: string) => {
      const entry = decodeLine(line);
      if (entry && entry.at >= from && entry.at < to) entries.push(entry);
    };
    for (const row of rows) take(row.line);
    // Appended while the rows were read.
    for (const buffered of this.buffer) if (buffered.log === log) take(buffered.line);
    return entries.sort((a, b) => a.at - b.at);
  }

  private dropBuffered(log: LogKey): number {
    const before = this.buffer.length;
    this.buffer = this.buffer.filter((buffered) => buffered.log !== log);
    return before - this.buffer.length;
  }

  async clear(log: LogKey): Promise<number> {
    await this.writes.settled();
    const dropped = this.dropBuffered(log);
    const { rowCount } = await this.query('DELETE FROM question_log WHERE log_key = $1', [log]);
    return dropped + (rowCount ?? 0);
  }

  async enforceRetention(log: LogKey, keepFrom: number, maxBytes: number): Promise<number> {
    await this.flush();
    // Whole UTC days, as the day files: before the day of `keepFrom`, then the oldest while the
    // log is over the size (the newest day stays even when it alone is over).
    const firstKept = Date.parse(dayOf(clampTime(keepFrom)));
    const { rows } = await this.query<{ day: number; bytes: number }>(
      `SELECT at / ${DAY_MS} AS day, SUM(octet_length(line) + 1) AS bytes
       FROM question_log WHERE log_key = $1 AND at >= $2 GROUP BY 1 ORDER BY 1`,
      [log, firstKept],
    );
    let total = rows.reduce((sum, row) => sum + Number(row.bytes), 0);
    let cut = firstKept;
    for (let i = 0; total > maxBytes && i < rows.length - 1; i++) {
      const day = rows[i] as { day: number; bytes: number };
      total -= Number(day.bytes);
      cut = (Number(day.day) + 1) * DAY_MS;
    }
    const { rowCount } = await this.query(
      'DELETE FROM question_log WHERE log_key = $1 AND at < $2',
      [log, cut],
    );
    return rowCount ?? 0;
  }

  async size(log: LogKey): Promise<number> {
    await this.flush();
    const { rows } = await this.query<{ bytes: number | null }>(
      'SELECT SUM(octet_length(line) + 1) AS bytes FROM question_log WHERE log_key = $1',
      [log],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  async logs(): Promise<LogKey[]> {
    const { rows } = await this.query<{ log_key: string }>(
      `SELECT DISTINCT log_key FROM question_log
       UNION SELECT log_key FROM question_log_marks`,
    );
    return rows.map((row) => row.log_key);
  }

  async marks(log: LogKey): Promise<InboxMark[]> {
    const { rows } = await this.query<{ marks: string }>(
      'SELECT marks FROM question_log_marks WHERE log_key = $1',
      [log],
    );
    const text = rows[0]?.marks;
    if (text === undefined) return [];
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) ? (parsed as InboxMark[]) : [];
    } catch (error) {
      this.logger.error(
        `could not read the inbox marks of ${log}; dismissed groups show again`,
        error,
      );
      return [];
    }
  }

  async saveMarks(log: LogKey, marks: readonly InboxMark[]): Promise<void> {
    await this.query(
      `INSERT INTO question_log_marks (log_key, marks) VALUES ($1, $2)
       ON CONFLICT (log_key) DO UPDATE SET marks = EXCLUDED.marks`,
      [log, JSON.stringify(marks)],
    );
  }

  close(): Promise<void> {
    return this.writes.stop();
  }
}
