/**
 * The team server's question log (tables of server migration 7, question-log-schema.ts): every
 * node appends to the same tables and reads from them. Appends are buffered and written about
 * once a second: the entries, their figures (question-log-figures.ts) and the log's count and
 * bytes in one transaction, so that a crash loses both or neither. Reads go by index (the entry
 * number, a user's or a rule's hash); a text filter reads the lines newest first. Old entries go
 * in batches of a few thousand rows, each its own short statement, so that no lock is held long.
 * A write that fails (the database unreachable, full) drops its entries, counts them, and never
 * fails an ask.
 * @module
 */
import type { Logger } from '../../logger';
import type { LoggedQuestion } from '../../question-log-types';
import type {
  EntryFigures,
  InboxMark,
  LogKey,
  LostEntries,
  PageRequest,
  PageResult,
  QuestionLogRepository,
  Replay,
  SearchProgress,
} from '../contract/question-log';
import { DAY_MS, OUTCOMES, filterOutcome, outcomeOf } from '../contract/question-log';
import { FlushSchedule } from '../sql/flush-schedule';
import { decode } from '../sql/question-log-line';
import { textVariants } from '../sql/question-log-text';
import type { Pool } from './connection';
import { inTransaction } from './connection';
import {
  FIGURE_TABLES,
  PendingFigures,
  TOTAL_TABLES,
  PostgresFigures,
  dropFiguresBefore,
} from './question-log-figures';
import { exportRows } from './question-log-export';
import type { ExportOptions } from './question-log-export';
import { RuleNumbers, encodeStored } from './question-log-row';
import { LOG_OF_ENTRY, LOG_SHIFT, entriesOfLog, entryNumber } from './question-log-schema';
import { SLICE_ROWS, decodeRows, readSlice } from './question-log-slice';
import type { StoredRow } from './question-log-slice';
import { fnv1a } from '../../text-hash';

/**
 * What an entry takes on disk besides its line (decision 143): its heap tuple (item pointer,
 * header, columns: 72 bytes), its three index entries and its share of the pages' free space.
 * The size budget counts it, so that it bounds the table's files, where counting the lines alone
 * let the table take ~2.3 times its budget. 195 until server migration 16 (decision 178), whose
 * rule index holds each rule once: counted at 195 (or 170) a log under its budget from its first
 * entry then held 0.8 of it on disk, at 130 0.95. That migration lowered each log's count of
 * bytes by the difference. 112 since server migration 17 (decision 204), whose row has no log
 * column and no padding (10 bytes less) and whose primary key is one number (8 less); it lowered
 * each log's count of bytes likewise.
 */
export const ENTRY_ROW_BYTES = 112;
/** Rows deleted per statement when old entries go. */
const PURGE_BATCH = 5000;
/** How far out of time order entries of several nodes may be written (retention's windows). */
const ORDER_SLACK_MS = 3_600_000;
/** Entries moved per transaction from the table of an older version. */
const MOVE_BATCH = 2000;
const TRY_OFFSET = 8;
/** Past this offset and half the matching entries, a page is read from the oldest end. */
const FAR_END_OFFSET = 10_000;
/** Entries a text search reads per page at most (decision 132). */
const SEARCH_BUDGET = 20_000;

const withProgress = (searched: SearchProgress | undefined) => (searched ? { searched } : {});

interface Buffered {
  entry: LoggedQuestion;
}

interface Log {
  buffer: Buffered[];
  figures: PendingFigures;
  maxBytes: number | null;
}

export interface PostgresQuestionLogOptions {
  pool: Pool;
  logger: Logger;
  /** How often buffered entries are written (ms). */
  flushMs?: number;
  /** Entries a text search reads per page at most (SEARCH_BUDGET; tests set less). */
  searchBudget?: number;
  now?: () => number;
  /** How exports are made (question-log-export.ts; tests). */
  export?: ExportOptions;
}

/** The same 32-bit hash as the embedded index (segment-index.ts), as PostgreSQL's INT. */
const hash32 = (text: string): number => fnv1a(text) || 1;

const outcomeCode = (entry: LoggedQuestion) =>
  OUTCOMES.indexOf(outcomeOf(entry)) + (entry.source === 'try' ? TRY_OFFSET : 0);
/** Characters JSON writes escaped: a line holds them otherwise than the text does. */
// eslint-disable-next-line no-control-regex -- exactly the control characters JSON escapes
const ESCAPED = /["\\\u0000-\u001f\u2028\u2029]/;

export class PostgresQuestionLog implements QuestionLogRepository {
  private readonly pool: Pool;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly searchBudget: number;
  private readonly writes: FlushSchedule;
  private readonly pending = new Map<LogKey, Log>();
  private readonly ids = new Map<LogKey, Promise<number>>();
  private readonly opened = new Map<LogKey, Promise<void>>();
  private readonly lostEntries = new Map<LogKey, LostEntries>();
  private failing: { count: number; since: number; code: string } | null = null;
  private failures = 0;
  private readonly rules: RuleNumbers;
  private readonly exportOptions: ExportOptions;
  readonly figures: PostgresFigures;

  constructor(options: PostgresQuestionLogOptions) {
    this.pool = options.pool;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.searchBudget = options.searchBudget ?? SEARCH_BUDGET;
    this.writes = new FlushSchedule(() => this.writeBuffered(), options.flushMs);
    this.rules = new RuleNumbers(this.pool);
    this.exportOptions = options.export ?? {};
    this.figures = new PostgresFigures(this.pool, async (log) => {
      // This node's asks are in the tables before they are read.
      await this.flush();
      return this.logId(log);
    });
  }

  private logOf(key: LogKey): Log {
    let log = this.pending.get(key);
    if (!log) {
      log = { buffer: [], figures: new PendingFigures(), maxBytes: null };
      this.pending.set(key, log);
    }
    return log;
  }

  /** The log's number (its row made on first use). */
  private logId(log: LogKey): Promise<number> {
    let id = this.ids.get(log);
    if (!id) {
      id = (async () => {
        await this.pool.query(
          'INSERT INTO question_logs (log_key) VALUES ($1) ON CONFLICT (log_key) DO NOTHING',
          [log],
        );
        const { rows } = await this.pool.query<{ log_id: number }>(
          'SELECT log_id FROM question_logs WHERE log_key = $1',
          [log],
        );
        return rows[0]?.log_id ?? 0;
      })();
      id.catch(() => this.ids.delete(log));
      this.ids.set(log, id);
    }
    return id;
  }

  open(log: LogKey, replay: Replay): Promise<void> {
    let opened = this.opened.get(log);
    if (!opened) {
      opened = this.openLog(log, replay);
      opened.catch(() => this.opened.delete(log));
      this.opened.set(log, opened);
    }
    return opened;
  }

  private async openLog(log: LogKey, replay: Replay): Promise<void> {
    const logId = await this.logId(log);
    const { rows } = await this.pool.query<{ key: string; grp: string }>(
      'SELECT key, grp FROM question_log_groups WHERE log_id = $1',
      [logId],
    );
    replay.known(new Map(rows.map((row) => [row.key, row.grp])));
    // Entries of the table of an older version move over with their figures, a batch at a time;
    // several nodes may move at once: each takes rows the others have not locked.
    let movedAny = false;
    for (;;) {
      const moved = await inTransaction(this.pool, async (client) => {
        const batch = await client.query<{ line: string }>(
          `DELETE FROM question_log WHERE entry_id IN (
             SELECT entry_id FROM question_log WHERE log_key = $1 ORDER BY entry_id
             LIMIT ${MOVE_BATCH} FOR UPDATE SKIP LOCKED)
           RETURNING line`,
          [log],
        );
        const entries = batch.rows
          .map((row) => decode(row.line))
          .filter((entry): entry is LoggedQuestion => entry !== null)
          .sort((a, b) => a.at - b.at);
        const figures = new PendingFigures();
        for (const entry of entries) {
          const counted = replay.figuresOf(entry);
          if (counted) figures.add(counted);
        }
        await this.insertEntries(
          client,
          logId,
          entries.map((entry) => ({ entry })),
        );
        await figures.write(client, logId);
        return batch.rows.length;
      });
      movedAny ||= moved > 0;
      if (moved < MOVE_BATCH) break;
    }
    if (movedAny) await this.truncateMovedTable();
  }

  /**
   * The table of an older version, once a move has emptied it, gives its files back (decision
   * 167): deleted rows leave them their size. Only when no node is using it (NOWAIT: a node
   * still moving keeps it, and truncates it itself when its own move ends) and it holds no row.
   */
  private async truncateMovedTable(): Promise<void> {
    try {
      await inTransaction(this.pool, async (client) => {
        await client.query('LOCK TABLE question_log IN ACCESS EXCLUSIVE MODE NOWAIT');
        const { rows } = await client.query('SELECT 1 FROM question_log LIMIT 1');
        if (rows.length === 0) await client.query('TRUNCATE question_log');
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code ?? String(error);
      this.logger.warn(
        `question log: the old table of moved entries is left to the next move (${code})`,
      );
    }
  }

  private async insertEntries(
    client: { query: Pool['query'] },
    logId: number,
    batch: readonly Buffered[],
  ): Promise<number> {
    if (batch.length === 0) return 0;
    await this.rules.number(batch.map((b) => b.entry));
    const lines = batch.map((b) => encodeStored(b.entry, this.rules.numberOf));
    const bytes = lines.reduce(
      (sum, line) => sum + Buffer.byteLength(line) + 1 + ENTRY_ROW_BYTES,
      0,
    );
    // The log's row first: its lock orders the numbers of concurrent flushes (migration 17).
    const { rows } = await client.query<{ bytes: number; last_entry: string }>(
      `UPDATE question_logs SET entries = entries + $2, bytes = bytes + $3,
                                last_entry = last_entry + $2
       WHERE log_id = $1 RETURNING bytes, last_entry`,
      [logId, batch.length, bytes],
    );
    const first = Number(rows[0]?.last_entry ?? 0) - batch.length + 1;
    await client.query(
      `INSERT INTO question_log_entries (entry_id, at, outcome, user_hash, rule_hash, line)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::int[], $5::int[],
                            $6::text[])`,
      [
        batch.map((_, i) => entryNumber(logId, first + i)),
        batch.map((b) => b.entry.at),
        batch.map((b) => outcomeCode(b.entry)),
        batch.map((b) => hash32(b.entry.userId)),
        batch.map((b) => (b.entry.ruleId === null ? 0 : hash32(b.entry.ruleId))),
        lines,
      ],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  append(log: LogKey, entry: LoggedQuestion, figures: EntryFigures | null): void {
    const pending = this.logOf(log);
    pending.buffer.push({ entry });
    if (figures) pending.figures.add(figures);
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writeBuffered(): Promise<void> {
    for (const [key, log] of this.pending) {
      if (log.buffer.length === 0) continue;
      const batch = log.buffer;
      const figures = log.figures;
      log.buffer = [];
      log.figures = new PendingFigures();
      let bytes: number;
      try {
        const logId = await this.logId(key);
        bytes = await inTransaction(this.pool, async (client) => {
          const total = await this.insertEntries(client, logId, batch);
          await figures.write(client, logId);
          return total;
        });
        this.recovered();
      } catch (error) {
        this.lose(key, batch.length, error);
        continue;
      }
      // The size budget holds as entries come.
      if (log.maxBytes !== null && bytes > log.maxBytes) {
        await this.dropOldestOver(key, log.maxBytes).catch((error: unknown) =>
          this.logger.error(`could not drop the oldest question log entries of ${key}`, error),
        );
      }
    }
  }

  private lose(log: LogKey, count: number, error: unknown): void {
    const now = this.now();
    const code = (error as NodeJS.ErrnoException | null)?.code ?? String(error);
    this.failures += count;
    const known = this.lostEntries.get(log);
    this.lostEntries.set(log, {
      count: (known?.count ?? 0) + count,
      since: known?.since ?? now,
      until: now,
    });
    if (!this.failing) {
      this.logger.error(
        `question log: could not write ${count} entries of ${log} (${code}); entries are dropped ` +
          'and counted until writing works again',
        error,
      );
    }
    this.failing = {
      count: (this.failing?.count ?? 0) + count,
      since: this.failing?.since ?? now,
      code: this.failing?.code ?? code,
    };
  }

  private recovered(): void {
    const failing = this.failing;
    if (!failing) return;
    this.failing = null;
    this.logger.warn(
      `question log: ${failing.count} entries could not be written (${failing.code}) since ` +
        `${new Date(failing.since).toISOString()}; writing works again`,
    );
  }

  writeFailures(): number {
    return this.failures;
  }

  lost(log: LogKey): LostEntries | null {
    return this.lostEntries.get(log) ?? null;
  }

  /** Rows' entries, the rules other nodes numbered learnt first (one query, when there are any). */
  private decodeAll(rows: readonly StoredRow[]): Promise<LoggedQuestion[]> {
    return decodeRows(rows, this.rules);
  }

  /** The WHERE of a filter (from `$2` on), with its values; the text's apart (`text`, if any). */
  private where(request: PageRequest): { sql: string; values: unknown[]; text: string | null } {
    const { filter } = request;
    const values: unknown[] = [
      Math.max(0, filter.from),
      Math.min(filter.to, Number.MAX_SAFE_INTEGER),
    ];
    const parts = [entriesOfLog('$1'), 'at >= $2', 'at < $3'];
    const add = (sql: (n: string) => string, value: unknown) => {
      values.push(value);
      parts.push(sql(`$${values.length + 1}`));
    };
    if (filter.outcome !== undefined || filter.source !== undefined) {
      const codes: number[] = [];
      OUTCOMES.forEach((outcome, code) => {
        if (filter.outcome !== undefined && filterOutcome(outcome) !== filter.outcome) return;
        if (filter.source !== 'try') codes.push(code);
        if (filter.source !== 'api') codes.push(code + TRY_OFFSET);
      });
      add((n) => `outcome = ANY(${n}::smallint[])`, codes);
    }
    // The user's and the rule's indexes key on the log as the entry number's high bits.
    if (filter.userId !== undefined || filter.ruleId !== undefined)
      parts.push(`${LOG_OF_ENTRY} = $1`);
    if (filter.userId !== undefined) add((n) => `user_hash = ${n}`, hash32(filter.userId));
    if (filter.ruleId !== undefined) add((n) => `rule_hash = ${n}`, hash32(filter.ruleId));
    let text: string | null = null;
    if (filter.text !== undefined) {
      const variants = textVariants(filter.text);
      // A cheap search of the line first; its question and user id then say for sure.
      const plain = variants.every((v) => !ESCAPED.test(v));
      values.push(variants);
      const n = `$${values.length + 1}`;
      text = `CASE WHEN ${plain ? `EXISTS (SELECT 1 FROM unnest(${n}::text[]) v WHERE strpos(line, v) > 0)` : 'true'}
           THEN EXISTS (SELECT 1 FROM unnest(${n}::text[]) v
                        WHERE strpos(line::json->>3, v) > 0 OR strpos(line::json->>1, v) > 0)
           ELSE false END`;
    }
    return { sql: parts.join(' AND '), values, text };
  }

  async page(log: LogKey, request: PageRequest): Promise<PageResult> {
    await this.flush();
    const logId = await this.logId(log);
    const { sql, values, text } = this.where(request);
    const before = request.before === null ? null : Number(request.before);
    // A cursor given before migration 17 (the entry's number within all logs) maps as its entry did.
    const cursor =
      before === null || !Number.isSafeInteger(before)
        ? null
        : before < 2 ** LOG_SHIFT
          ? entryNumber(logId, before)
          : before;
    if (text !== null) return this.search(logId, request, { sql, values, text }, cursor);
    const counted = true;
    // A page deep in the log (the oldest, by offset) is read from its far end: an OFFSET of a
    // million newest first walks a million rows, from the oldest end it walks a few.
    const deep = counted && cursor === null && request.offset > FAR_END_OFFSET;
    const known = deep ? await this.count(logId, sql, values, request) : null;
    if (known !== null && request.offset * 2 > known) {
      const total = known;
      if (request.offset >= total) return { entries: [], total, next: null };
      const end = total - request.offset;
      const { rows } = await this.pool.query<StoredRow & { entry_id: number }>(
        `SELECT entry_id, at, line FROM question_log_entries WHERE ${sql}
         ORDER BY entry_id LIMIT ${Math.min(request.limit, end)}
         OFFSET ${Math.max(0, end - request.limit)}`,
        [logId, ...values],
      );
      const shown = rows.reverse();
      const last = shown.at(-1);
      return {
        entries: await this.decodeAll(shown),
        total,
        next: end > request.limit && last ? String(last.entry_id) : null,
      };
    }
    const pageValues = [logId, ...values];
    let pageSql = sql;
    if (cursor !== null) {
      pageValues.push(cursor);
      pageSql += ` AND entry_id < $${pageValues.length}`;
    }
    const { rows } = await this.pool.query<StoredRow & { entry_id: number }>(
      `SELECT entry_id, at, line FROM question_log_entries WHERE ${pageSql}
       ORDER BY entry_id DESC LIMIT ${request.limit + 1} OFFSET ${request.offset}`,
      pageValues,
    );
    const shown = rows.slice(0, request.limit);
    const last = shown.at(-1);
    return {
      entries: await this.decodeAll(shown),
      total: counted ? (known ?? (await this.count(logId, sql, values, request))) : null,
      next: rows.length > request.limit && last ? String(last.entry_id) : null,
    };
  }

  /**
   * A page of a text search (decision 132): at most `SEARCH_BUDGET` entries of the other filters
   * read per page, newest first, each tested as it comes (a frequent text stops early). A page
   * the budget stopped ends where it stopped, with a `next` that continues the search there and
   * how far it got (`searched`), as the embedded store's (decision 97).
   */
  private async search(
    logId: number,
    request: PageRequest,
    where: { sql: string; values: unknown[]; text: string },
    cursor: number | null,
  ): Promise<PageResult> {
    const values = [logId, ...where.values];
    let sql = where.sql;
    if (cursor !== null) {
      values.push(cursor);
      sql += ` AND entry_id < $${values.length}`;
    }
    const { rows } = await this.pool.query<StoredRow & { entry_id: number }>(
      `SELECT entry_id, at, line FROM (
         SELECT entry_id, at, line FROM question_log_entries WHERE ${sql}
         ORDER BY entry_id DESC LIMIT ${this.searchBudget}) AS scanned
       WHERE ${where.text}
       ORDER BY entry_id DESC LIMIT ${request.limit + 1} OFFSET ${request.offset}`,
      values,
    );
    const shown = rows.slice(0, request.limit);
    const last = shown.at(-1);
    const period = { filter: { from: request.filter.from, to: request.filter.to } };
    const periodWhere = this.where({ ...request, ...period });
    // How far the search got, when the log's count says how many there are to search (a period
    // ending before now would be counted by reading it: then the page does not say).
    const whole = request.filter.to >= Number.MAX_SAFE_INTEGER;
    const of = whole
      ? await this.count(logId, periodWhere.sql, periodWhere.values, { ...request, ...period })
      : null;
    /** Entries of the period from the newest down to `stop`: how far the search got. */
    const progress = async (stop: number): Promise<SearchProgress | undefined> => {
      if (of === null) return undefined;
      const { rows: newer } = await this.pool.query<{ count: string }>(
        `SELECT count(*) AS count FROM question_log_entries
         WHERE ${periodWhere.sql} AND entry_id >= $${periodWhere.values.length + 2}`,
        [logId, ...periodWhere.values, stop],
      );
      return { entries: Number(newer[0]?.count ?? 0), of };
    };
    if (rows.length > request.limit && last) {
      const entryId = Number(last.entry_id);
      return {
        entries: await this.decodeAll(shown),
        total: null,
        next: String(entryId),
        ...withProgress(await progress(entryId)),
      };
    }
    // Fewer than a page: the log's end, or the budget's. Where the budget stopped, if it did.
    const { rows: ends } = await this.pool.query<{ read: string; stop: string | null }>(
      `SELECT count(*) AS read, min(entry_id) AS stop FROM (
         SELECT entry_id FROM question_log_entries
         WHERE ${sql} AND $${where.values.length + 1}::text[] IS NOT NULL
         ORDER BY entry_id DESC LIMIT ${this.searchBudget}) AS scanned`,
      values,
    );
    const stop = ends[0]?.stop ?? null;
    if (Number(ends[0]?.read ?? 0) < this.searchBudget || stop === null) {
      // The oldest entry reached: counted when this page searched the whole period.
      return {
        entries: await this.decodeAll(shown),
        total: cursor === null && request.offset === 0 ? shown.length : null,
        next: null,
        ...withProgress(of === null ? undefined : { entries: of, of }),
      };
    }
    return {
      entries: await this.decodeAll(shown),
      total: null,
      next: String(stop),
      ...withProgress(await progress(Number(stop))),
    };
  }

  /** Entries matching a filter: the log's count when it has none, else counted. */
  private async count(
    logId: number,
    sql: string,
    values: unknown[],
    request: PageRequest,
  ): Promise<number> {
    const { filter } = request;
    const plain =
      filter.outcome === undefined &&
      filter.source === undefined &&
      filter.userId === undefined &&
      filter.ruleId === undefined &&
      filter.to >= Number.MAX_SAFE_INTEGER;
    if (plain) {
      const { rows } = await this.pool.query<{ entries: number; oldest: number | null }>(
        `SELECT entries, (SELECT at FROM question_log_entries WHERE ${entriesOfLog('$1')}
                          ORDER BY entry_id LIMIT 1) AS oldest
         FROM question_logs WHERE log_id = $1`,
        [logId],
      );
      const row = rows[0];
      // Entries older than the retention may wait for their purge: then they are counted out.
      if (row && (row.oldest === null || Number(row.oldest) >= filter.from))
        return Number(row.entries);
    }
    const { rows } = await this.pool.query<{ count: number }>(
      `SELECT count(*)::bigint AS count FROM question_log_entries WHERE ${sql}`,
      [logId, ...values],
    );
    return Number(rows[0]?.count ?? 0);
  }

  async *slices(log: LogKey, from: number, to: number): AsyncIterable<LoggedQuestion[]> {
    await this.flush();
    const logId = await this.logId(log);
    for (let after = 0; ;) {
      const slice = await readSlice(this.pool, this.rules, {
        logId,
        after,
        from,
        to,
        limit: SLICE_ROWS,
      });
      if (slice.read === 0) return;
      after = slice.last;
      yield slice.entries;
    }
  }

  /**
   * The export's rows, made by a worker thread on a connection of its own after a head made
   * here (question-log-export.ts, decision 193).
   */
  async *csvRows(log: LogKey, from: number, to: number): AsyncIterable<Uint8Array> {
    await this.flush();
    const logId = await this.logId(log);
    yield* exportRows({ pool: this.pool, rules: this.rules, logId, from, to }, this.exportOptions);
  }

  /** Deletes entries matching `where` in batches; returns how many went. */
  private async purge(
    logId: number,
    where: string,
    values: unknown[],
    max = Infinity,
  ): Promise<number> {
    let removed = 0;
    while (removed < max) {
      const { rows } = await this.pool.query<{ gone: number }>(
        `WITH gone AS (
           DELETE FROM question_log_entries WHERE entry_id IN (
             SELECT entry_id FROM question_log_entries WHERE ${entriesOfLog('$1')} AND ${where}
             ORDER BY entry_id LIMIT ${Math.min(PURGE_BATCH, max - removed)})
           RETURNING octet_length(line) + 1 + ${ENTRY_ROW_BYTES} AS bytes)
         UPDATE question_logs SET entries = entries - (SELECT count(*) FROM gone),
                                  bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone)
         WHERE log_id = $1
         RETURNING (SELECT count(*) FROM gone)::bigint AS gone`,
        [logId, ...values],
      );
      const gone = Number(rows[0]?.gone ?? 0);
      removed += gone;
      if (gone === 0) break;
    }
    return removed;
  }

  /**
   * Deletes the entries older than `before`, reading the log from its oldest entry a window of
   * `PURGE_BATCH` at a time (decision 155). No index has `at`: a statement filtering on it with
   * nothing to drop read every entry of the log (a million: past the 5 s statement timeout on a
   * loaded disk, so a changed budget was never applied). Entries are kept in about the order of
   * their times (a node's flush may come seconds after another's), so the windows stop once
   * one starts `ORDER_SLACK_MS` past `before`.
   */
  private async purgeBefore(logId: number, before: number): Promise<number> {
    let removed = 0;
    for (let after = 0; ;) {
      const { rows } = await this.pool.query<{
        gone: number;
        last: string | null;
        oldest: string | null;
      }>(
        `WITH win AS (
           SELECT entry_id, at FROM question_log_entries
           WHERE ${entriesOfLog('$1')} AND entry_id > $3
           ORDER BY entry_id LIMIT ${PURGE_BATCH}),
         gone AS (
           DELETE FROM question_log_entries
           WHERE entry_id IN (SELECT entry_id FROM win WHERE at < $2)
           RETURNING octet_length(line) + 1 + ${ENTRY_ROW_BYTES} AS bytes),
         counted AS (
           UPDATE question_logs SET entries = entries - (SELECT count(*) FROM gone),
                                    bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone)
           WHERE log_id = $1)
         SELECT (SELECT count(*) FROM gone)::bigint AS gone,
                (SELECT max(entry_id) FROM win) AS last, (SELECT min(at) FROM win) AS oldest`,
        [logId, before, after],
      );
      const row = rows[0];
      removed += Number(row?.gone ?? 0);
      if (row?.last == null || Number(row.oldest) >= before + ORDER_SLACK_MS) return removed;
      after = Number(row.last);
    }
  }

  async clear(log: LogKey): Promise<number> {
    await this.writes.settled();
    const pending = this.logOf(log);
    const dropped = pending.buffer.length;
    pending.buffer = [];
    pending.figures = new PendingFigures();
    const logId = await this.logId(log);
    const removed = await this.purge(logId, 'true', []);
    // The day rows and the running totals go together (decision 117).
    await inTransaction(this.pool, async (client) => {
      for (const table of [...FIGURE_TABLES, ...TOTAL_TABLES]) {
        await client.query(`DELETE FROM ${table} WHERE log_id = $1`, [logId]);
      }
    });
    return dropped + removed;
  }

  async enforceRetention(log: LogKey, keepFrom: number, maxBytes: number): Promise<number> {
    await this.flush();
    this.logOf(log).maxBytes = maxBytes;
    const logId = await this.logId(log);
    // Whole UTC days, entries and figures alike.
    const firstKept = Math.floor(keepFrom / DAY_MS);
    let removed = await this.purgeBefore(logId, firstKept * DAY_MS);
    await dropFiguresBefore(this.pool, logId, firstKept);
    removed += await this.dropOldestOver(log, maxBytes);
    return removed;
  }

  /** While the log is over `maxBytes`, its oldest entries go (its figures stay). */
  private async dropOldestOver(log: LogKey, maxBytes: number): Promise<number> {
    const logId = await this.logId(log);
    let removed = 0;
    for (;;) {
      const { rows } = await this.pool.query<{ entries: number; bytes: number }>(
        'SELECT entries, bytes FROM question_logs WHERE log_id = $1',
        [logId],
      );
      const row = rows[0];
      const bytes = Number(row?.bytes ?? 0);
      const entries = Number(row?.entries ?? 0);
      if (bytes <= maxBytes || entries === 0) return removed;
      // Enough of the oldest entries to come under the budget at their average size (again if not).
      const over = Math.max(1, Math.ceil(((bytes - maxBytes) / bytes) * entries));
      const gone = await this.purge(logId, 'true', [], over);
      removed += gone;
      if (gone === 0) return removed;
    }
  }

  async size(log: LogKey): Promise<number> {
    await this.flush();
    const { rows } = await this.pool.query<{ bytes: number }>(
      'SELECT bytes FROM question_logs WHERE log_id = $1',
      [await this.logId(log)],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  async logs(): Promise<LogKey[]> {
    const { rows } = await this.pool.query<{ log_key: string }>(
      `SELECT log_key FROM question_logs
       UNION SELECT DISTINCT log_key FROM question_log
       UNION SELECT log_key FROM question_log_marks`,
    );
    return rows.map((row) => row.log_key);
  }

  async marks(log: LogKey): Promise<InboxMark[]> {
    const { rows } = await this.pool.query<{ marks: string }>(
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
    await this.pool.query(
      `INSERT INTO question_log_marks (log_key, marks) VALUES ($1, $2)
       ON CONFLICT (log_key) DO UPDATE SET marks = EXCLUDED.marks`,
      [log, JSON.stringify(marks)],
    );
  }

  close(): Promise<void> {
    return this.writes.stop();
  }
}
