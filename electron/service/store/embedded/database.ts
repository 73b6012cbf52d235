/**
 * The only code that touches sql.js. The database lives in memory; durability comes from the
 * journal (every committed write transaction is appended and fsynced before it is acknowledged)
 * and from snapshots (the whole database written atomically, after which covered journal
 * segments are deleted). See docs/storage.md.
 * @module
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import initSqlJs from 'sql.js';
import type { Database as SqlJsDatabase, SqlJsStatic, Statement } from 'sql.js';
import type { Logger } from '../../logger';
import { StorageFailure } from '../contract/errors';
import {
  DIRECTORY_MODE,
  fsyncDirectory,
  isTemporaryFile,
  narrowPermissions,
  writeFileAtomicAsync,
} from '../../files/durable-fs';
import {
  CUT_SHORT,
  Journal,
  JournalWriteBrokenError,
  RecordEncoder,
  scanJournal,
  setAsideName,
} from './journal';
import type { JournalRecord, ScannedRecord, SqlParam, SqlValue } from './journal';
import { acquireDataDirLock } from '../../files/data-dir-lock';
import type { DataDirLock } from '../../files/data-dir-lock';
import { MIGRATIONS } from '../sql/migrations/index';
import { buildSnapshotOnWorker, rebuildFile } from './snapshot-thread';
import { migrationHash, pendingMigrations } from '../sql/migrations/runner';
import type { AppliedMigration, Migration } from '../sql/migrations/runner';

export type { SqlParam, SqlValue, Utf8Param } from './journal';
export type Row = Record<string, SqlValue | Uint8Array>;

/**
 * A snapshot's SQLite bytes and the trailer that follows them in the file, or the temporary file
 * the worker wrote them to, whole and fsynced.
 */
type BuiltSnapshot =
  { bytes: Uint8Array; trailer: Uint8Array } | { file: string } | { writeFailed: unknown };

/**
 * Errors writing the worker's file that a copy from memory would meet as well (its file goes
 * to the same disk): the snapshot fails and is retried, with no copy of the database on the loop.
 */
const WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EFBIG']);

export const SNAPSHOT_FILE = 'kb.sqlite';

const ignore = () => undefined;

const DML = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

const DEFAULT_SNAPSHOT_JOURNAL_BYTES = 32 * 1024 * 1024;

/** Below this a snapshot copies the database on the loop (`StoreOptions.snapshotWorkerMinBytes`). */
const SNAPSHOT_WORKER_MIN_BYTES = 8 * 2 ** 20;

/**
 * Whether `journalBytes` of journal no snapshot covers call for a snapshot at once: past the
 * configured size; unconfigured, past 32 MB and the database's own size (decision 111).
 */
export function journalDueForSnapshot(
  journalBytes: number,
  configured: number | undefined,
  databaseBytes: () => number,
): boolean {
  if (configured !== undefined) return journalBytes >= configured;
  return journalBytes >= DEFAULT_SNAPSHOT_JOURNAL_BYTES && journalBytes >= databaseBytes();
}

/** Below this much journal, an idle spell takes no snapshot (see `scheduleSnapshot`). */
const IDLE_SNAPSHOT_MIN_BYTES = 1024 * 1024;

export interface StoreOptions {
  dataDir: string;
  logger: Logger;
  /**
   * Snapshot at once when this many bytes of journal are not covered by a snapshot. Unset: when
   * the journal reaches 32 MB or the database's own size, whichever is larger (decision 111).
   */
  snapshotJournalBytes?: number;
  /**
   * Snapshot after this long without writes, if the journal holds at least a megabyte (or
   * `snapshotJournalBytes`, if smaller) that no snapshot covers.
   */
  snapshotIdleMs?: number;
  /**
   * A database smaller than this is copied on the event loop for a snapshot (one copy of a few
   * megabytes is quicker than a worker's replay, and holds the loop well under 50 ms); a larger
   * one is built on a worker thread when the memory allows it (decision 121). Default 8 MiB.
   */
  snapshotWorkerMinBytes?: number;
  migrations?: readonly Migration[];
  /**
   * Called once the data directory is locked, before the database is read: start-up work that
   * needs the lock can begin alongside.
   */
  onLocked?: () => void;
}

/** Reads, available both inside and outside a write transaction. */
export interface Reader {
  all<T extends Row = Row>(sql: string, params?: readonly SqlParam[]): T[];
  get<T extends Row = Row>(sql: string, params?: readonly SqlParam[]): T | undefined;
}

/** A write transaction: every `run` is recorded and journaled on commit. */
export interface Tx extends Reader {
  run(sql: string, params?: readonly SqlParam[]): number;
}

/** The database's own record of the last committed seq (not journaled: implied by the record). */
const SET_SEQ = "INSERT OR REPLACE INTO _store (key, value) VALUES ('seq', ?)";

let sqlJsPromise: Promise<SqlJsStatic> | undefined;

/** sql.js compiles its WebAssembly once per process; every store shares the module. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJsPromise ??= initSqlJs();
  return sqlJsPromise;
}

function checkParams(params: readonly SqlParam[]): void {
  for (const param of params) {
    const type = typeof param;
    if (param !== null && type !== 'string' && type !== 'number' && !isUtf8Param(param)) {
      throw new TypeError(`SQL parameter of type ${type} is not allowed`);
    }
  }
}

function isUtf8Param(param: unknown): param is { utf8: string } {
  return (
    typeof param === 'object' &&
    param !== null &&
    typeof (param as { utf8?: unknown }).utf8 === 'string'
  );
}

type Bindable = string | number | null | Uint8Array;

/** The values sql.js binds: `Utf8Param`s become their UTF-8 bytes. */
export function bindable(params: readonly SqlParam[]): Bindable[] {
  let out: Bindable[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const param = params[i] as SqlParam;
    if (param !== null && typeof param === 'object') {
      out ??= params.slice(0, i) as Bindable[];
      out.push(Buffer.from(param.utf8, 'utf8'));
    } else if (out) {
      out.push(param);
    }
  }
  return out ?? (params as Bindable[]);
}

export class Store {
  private readonly statements = new Map<string, Statement>();
  /** Whether a statement text is repeated DML (worth a cached prepared statement). */
  private readonly isDml = new Map<string, boolean>();
  /** Result column names of each prepared statement: asked of SQLite once, not per row. */
  private readonly columns = new WeakMap<Statement, string[]>();
  private seq: number;
  /** Set by `open` once the journal has been checked and replayed. */
  private journal!: Journal;
  private failed: Error | null = null;
  /** The next snapshot: after a quiet spell, or the retry after a failed one. */
  private snapshotTimer: NodeJS.Timeout | null = null;
  private snapshotting: Promise<void> | null = null;
  /** Stops the worker building a snapshot, if one is (`close`: memory is copied instead). */
  private readonly stopping = new AbortController();
  /** Set while a transaction is open across turns of the event loop (`writeInSteps`). */
  private locked: Promise<void> | null = null;
  /** Failed snapshots in a row; while above 0, no snapshot before `retryAt`. */
  private snapshotFailures = 0;
  private retryAt = 0;
  private dirtySinceSnapshot = false;
  /** Bytes of journal records that no durable snapshot covers yet. */
  private journalBytes = 0;
  private closed = false;
  private readonly snapshotJournalBytes: number;
  private readonly snapshotIdleMs: number;

  private constructor(
    private readonly db: SqlJsDatabase,
    private readonly lock: DataDirLock,
    private readonly options: StoreOptions,
    seq: number,
  ) {
    this.seq = seq;
    this.snapshotJournalBytes = options.snapshotJournalBytes ?? DEFAULT_SNAPSHOT_JOURNAL_BYTES;
    this.snapshotIdleMs = options.snapshotIdleMs ?? 5_000;
  }

  /**
   * Opens (or creates) the database of a data directory: takes the directory's lock, loads the
   * last snapshot, checks the whole journal and replays it after the snapshot, and applies
   * pending migrations. Nothing in the directory is changed until the snapshot and the journal
   * have been read and replayed without a fault: a refused open leaves every file as it was.
   */
  static async open(options: StoreOptions): Promise<Store> {
    const { dataDir, logger } = options;
    mkdirSync(dataDir, { recursive: true, mode: DIRECTORY_MODE });
    const lock = acquireDataDirLock(dataDir);
    let db: SqlJsDatabase | undefined;
    let store: Store | undefined;
    try {
      options.onLocked?.();
      // The WebAssembly compiles (on V8's background threads) while the snapshot is read (on
      // libuv's): neither waits for the other.
      const snapshotPath = join(dataDir, SNAPSHOT_FILE);
      const [SQL, snapshot] = await Promise.all([loadSqlJs(), readSnapshot(snapshotPath)]);
      db = openDatabase(SQL, snapshot);
      const snapshotSeq = databaseSeq(db);
      const scan = scanJournal(dataDir, snapshotSeq);
      store = new Store(db, lock, options, snapshotSeq);
      store.replay(scan.records);
      // Everything read checks out: from here on the directory may change.
      store.journal = Journal.resume(dataDir, scan);
      if (scan.tornTail) {
        const { path, offset, bytes, reason } = scan.tornTail;
        logger.warn(
          reason === CUT_SHORT
            ? `cut ${bytes} byte(s) at the end of ${path} (from byte ${offset}): a write interrupted by a crash, never acknowledged`
            : `cut ${bytes} byte(s) at the end of ${path} (from byte ${offset}): the last record is damaged (${reason}), not cut short by a crash, so it may have been acknowledged; it is set aside in ${join(dirname(path), setAsideName(basename(path), offset))} (\`npm run repair -- --data ${dataDir}\` says what it held)`,
        );
      }
      removeLeftoverTempFiles(dataDir);
      narrowPermissions(dataDir, logger);
      if (scan.records.length > 0) {
        logger.info(`replayed ${scan.records.length} journal record(s) after the last snapshot`);
        store.dirtySinceSnapshot = true;
        store.journalBytes = scan.records.reduce((sum, r) => sum + r.end - r.offset, 0);
      }
      store.migrate(options.migrations ?? MIGRATIONS);
      store.scheduleSnapshot();
      return store;
    } catch (error) {
      store?.journal?.close();
      db?.close();
      // A refused open consumed nothing: a lock left by a crash stays, so that the next open
      // still knows the last run did not stop cleanly.
      lock.release({ keepFile: lock.tookOverStaleLock });
      throw error;
    }
  }

  /** True when the previous process on this data directory did not stop cleanly. */
  get recoveredFromUncleanStop(): boolean {
    return this.lock.tookOverStaleLock;
  }

  /**
   * Registers a deterministic SQL function of one text argument on the connection (not
   * journaled: a function is the code's, registered at each open, and no write calls one).
   */
  defineFunction(name: string, fn: (text: string) => string): void {
    this.db.create_function(name, (text: unknown) => (typeof text === 'string' ? fn(text) : null));
  }

  /** Sequence number of the last committed write transaction. */
  get lastSeq(): number {
    return this.seq;
  }

  all<T extends Row = Row>(sql: string, params: readonly SqlParam[] = []): T[] {
    const stmt = this.prepare(sql);
    try {
      stmt.bind(bindable(params));
      const rows: T[] = [];
      while (stmt.step()) rows.push(this.row(stmt) as T);
      return rows;
    } finally {
      stmt.reset();
    }
  }

  get<T extends Row = Row>(sql: string, params: readonly SqlParam[] = []): T | undefined {
    const stmt = this.prepare(sql);
    try {
      stmt.bind(bindable(params));
      return stmt.step() ? (this.row(stmt) as T) : undefined;
    } finally {
      stmt.reset();
    }
  }

  /** The current row as an object (sql.js's `getAsObject` asks for the column names each time). */
  private row(stmt: Statement): Row {
    let names = this.columns.get(stmt);
    if (!names) {
      names = stmt.getColumnNames();
      this.columns.set(stmt, names);
    }
    const values = stmt.get();
    const row: Row = {};
    for (let i = 0; i < names.length; i++)
      row[names[i] as string] = values[i] as SqlValue | Uint8Array;
    return row;
  }

  /**
   * Runs `work` as one transaction. Nothing is visible to the caller as done until the journal
   * record of the transaction is on disk: if `work` throws, or the journal cannot be written,
   * the transaction is rolled back and the error is thrown.
   */
  write<T>(work: (tx: Tx) => T): T {
    return this.transact(work, (record) => this.journal.append(record));
  }

  /**
   * A large transaction (a batch import) that holds the event loop for none of its long parts,
   * so that questions are answered meanwhile:
   * - it runs in steps with turns of the event loop between them (`work` awaits them: its
   *   statements in slices of rows). The transaction stays open across those turns, so the store
   *   is locked meanwhile: it begins once no other such transaction is open, and every other use
   *   of the database that may see or change its rows waits for it to end (`unlocked`; the
   *   embedded store's repositories do so in every method but `answerOf`);
   * - its journal record is written and the transaction committed in memory in one turn, but
   *   the fdatasync runs on libuv's threads (shared with the writes around it: group commit),
   *   and the promise resolves only once the record is on disk. Reads may see the change before
   *   that; nothing acknowledges it.
   * If `work` throws, everything it did is rolled back. If the fdatasync fails, the promise
   * rejects with `StorageFailure` and writes are refused until a snapshot (of memory, where the
   * change is) covers the journal.
   */
  async writeInSteps<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let unlock: () => void = ignore;
    await this.unlocked(() => {
      this.locked = new Promise<void>((resolve) => (unlock = resolve));
    });
    const unsynced = this.unsyncedAppend();
    let result: T;
    try {
      // Its record is encoded statement by statement, in the steps (`RecordEncoder`).
      const { tx, record, encoder } = this.begin(true);
      try {
        result = await work(tx);
      } catch (error) {
        this.db.run('ROLLBACK');
        throw error;
      }
      this.commit(
        record,
        (done) => unsynced.append(done, encoder?.finishParts(done.sql)),
        encoder?.opCount,
      );
    } finally {
      this.locked = null;
      unlock();
    }
    await unsynced.synced();
    return result;
  }

  /**
   * Runs `work` once no transaction is open across turns of the event loop (`writeInSteps`),
   * in the same turn as that check: it sees only committed rows, and may write.
   */
  async unlocked<T>(work: () => T): Promise<Awaited<T>> {
    while (this.locked) await this.locked;
    return await work();
  }

  /** An append that leaves the fdatasync to libuv's threads, and the wait for it. */
  private unsyncedAppend() {
    let synced: Promise<void> = Promise.resolve();
    return {
      append: (record: JournalRecord, encoded?: readonly Buffer[]): number => {
        const appended = this.journal.appendUnsynced(record, encoded);
        synced = appended.synced;
        return appended.bytes;
      },
      synced: (): Promise<void> =>
        synced.catch((error: unknown) => {
          throw this.syncFailed(error);
        }),
    };
  }

  private transact<T>(work: (tx: Tx) => T, append: (record: JournalRecord) => number): T {
    const { tx, record } = this.begin();
    let result: T;
    try {
      result = work(tx);
    } catch (error) {
      this.db.run('ROLLBACK');
      throw error;
    }
    this.commit(record, append);
    return result;
  }

  /**
   * BEGIN, and the transaction that records every statement it runs (and, if `encode`, encodes
   * each as it runs: `encoder`).
   */
  private begin(encode = false): { tx: Tx; record: JournalRecord; encoder?: RecordEncoder } {
    this.assertWritable();
    const record: JournalRecord = { seq: this.seq + 1, sql: [], ops: [] };
    const encoder = encode ? new RecordEncoder(record.seq) : undefined;
    const sqlIndex = new Map<string, number>();
    const tx: Tx = {
      all: (sql, params) => this.all(sql, params),
      get: (sql, params) => this.get(sql, params),
      run: (sql, params = []) => {
        checkParams(params);
        this.execute(sql, params);
        let index = sqlIndex.get(sql);
        if (index === undefined) {
          index = record.sql.push(sql) - 1;
          sqlIndex.set(sql, index);
        }
        // Encoded as it runs, a statement is not kept: a batch import's parameters (every
        // answer and search text) are not held as strings until the commit besides their bytes.
        if (encoder) encoder.op([index, params]);
        else record.ops.push([index, [...params]]);
        return this.db.getRowsModified();
      },
    };
    this.db.run('BEGIN');
    return { tx, record, encoder };
  }

  /**
   * Journals the open transaction and commits it; rolls it back if the journal fails. `ops`:
   * its statements, when they were encoded rather than kept in `record`.
   */
  private commit(
    record: JournalRecord,
    append: (record: JournalRecord) => number,
    ops = record.ops.length,
  ): void {
    try {
      if (ops > 0) this.commitToJournal(record, append);
    } catch (error) {
      this.db.run('ROLLBACK');
      throw error;
    }
    this.db.run('COMMIT');
    if (ops > 0) this.afterWrite();
  }

  /**
   * Writes a snapshot now. The journal rotates to a new segment, and the snapshot of exactly the
   * state after the last committed transaction is built on a worker thread from the last
   * snapshot and the segments just closed (snapshot-worker.ts): the event loop copies nothing
   * (decision 121). Its bytes go to a temporary file that is fsynced and renamed over the
   * snapshot, on libuv's threads. Only then are the journal segments it covers deleted. The
   * database is exported from memory instead (one copy on the event loop) when the journal on
   * disk may lack a change (a failed write or fdatasync: `failed`), at the stop's snapshot
   * (nothing is answered any more; no replay needed), and if the worker fails. A failure to
   * write (a full disk) loses nothing, since the journal keeps every change: its temporary file is
   * removed, writes go on, and the snapshot is tried again later (1 s, 2 s, 4 s … up to a minute
   * apart).
   */
  async snapshot(): Promise<void> {
    while (this.snapshotting) await this.snapshotting;
    // Exactly the committed state: never inside a transaction open across turns.
    await this.unlocked(() => this.startSnapshot());
  }

  /** Rotates the journal (and exports, if from memory) in one turn, then builds and writes. */
  private startSnapshot(): Promise<void> | undefined {
    if (this.snapshotting) return this.snapshotting;
    if (!this.dirtySinceSnapshot) return undefined;
    this.clearSnapshotTimer();
    const fromMemory =
      this.failed !== null || this.closed || !this.snapshotOnWorker()
        ? this.exportFromMemory()
        : null;
    const targetSeq = this.seq;
    const coveredSegments = this.journal.rotate();
    const coveredBytes = this.journalBytes;
    this.dirtySinceSnapshot = false;
    const built = fromMemory
      ? Promise.resolve(fromMemory)
      : this.buildOffThread(coveredSegments, targetSeq);
    this.snapshotting = built
      .then((snapshot) => this.writeSnapshot(snapshot, coveredSegments, coveredBytes))
      .finally(() => {
        this.snapshotting = null;
        // The retry after a failure, or the next snapshot if much was written meanwhile.
        this.scheduleSnapshot();
      });
    return this.snapshotting;
  }

  /**
   * Whether a snapshot is built on a worker: a database large enough. Memory is no gate any more
   * (decision 195): the worker holds its page cache, not the database, which the copy from
   * memory it would fall back to holds whole.
   */
  private snapshotOnWorker(): boolean {
    const least = this.options.snapshotWorkerMinBytes ?? SNAPSHOT_WORKER_MIN_BYTES;
    return this.databaseBytes() >= least;
  }

  /** The database's bytes and their trailer, copied from memory in this turn. */
  private exportFromMemory(): BuiltSnapshot {
    const bytes = this.db.export();
    return { bytes, trailer: snapshotTrailer(bytes) };
  }

  /**
   * The snapshot at `targetSeq`, built on a worker thread; if that fails, copied from memory
   * (a later state, which covers the same segments) once no stepped transaction is open.
   */
  private async buildOffThread(segments: string[], targetSeq: number): Promise<BuiltSnapshot> {
    const { dataDir, logger } = this.options;
    const file = rebuildFile(dataDir);
    try {
      await buildSnapshotOnWorker({ dataDir, segments, targetSeq, file }, this.stopping.signal);
      return { file };
    } catch (error) {
      const { code } = error as { code?: unknown };
      if (typeof code === 'string' && WRITE_FAILURES.has(code) && !this.stopping.signal.aborted)
        return { writeFailed: error };
      if (!this.stopping.signal.aborted)
        logger.warn(
          `the snapshot could not be built on a worker thread (${String(error)}); it is copied from memory`,
        );
      return await this.unlocked(() => this.exportFromMemory());
    }
  }

  private async writeSnapshot(
    snapshot: BuiltSnapshot,
    coveredSegments: string[],
    coveredBytes: number,
  ): Promise<void> {
    const { logger, dataDir } = this.options;
    const target = join(dataDir, SNAPSHOT_FILE);
    try {
      if ('writeFailed' in snapshot) throw snapshot.writeFailed;
      if ('file' in snapshot) {
        try {
          await rename(snapshot.file, target);
        } catch (error) {
          await rm(snapshot.file, { force: true });
          throw error;
        }
        fsyncDirectory(dataDir);
      } else await writeFileAtomicAsync(target, [snapshot.bytes, snapshot.trailer]);
      this.journalBytes -= coveredBytes;
      this.journal.deleteSegments(coveredSegments);
    } catch (error) {
      this.dirtySinceSnapshot = true;
      this.snapshotFailures += 1;
      const retryMs = Math.min(60_000, 1_000 * 2 ** (this.snapshotFailures - 1));
      this.retryAt = Date.now() + retryMs;
      logger.error(
        `snapshot failed (${this.snapshotFailures} in a row); the journal keeps every change; next attempt in ${retryMs / 1000} s`,
        error,
      );
      return;
    }
    if (this.snapshotFailures > 0) {
      logger.info(`snapshot written again after ${this.snapshotFailures} failed attempt(s)`);
      this.snapshotFailures = 0;
      this.retryAt = 0;
    }
    if (this.failed) {
      // The segment a failed append could not be cut back in is covered and deleted: the next
      // write starts a new segment.
      logger.info(
        'the journal is whole again (a snapshot covers the damaged segment): writes resume',
      );
      this.failed = null;
    }
  }

  /**
   * Flushes a final snapshot, closes the database and releases the data directory.
   * `beforeRelease` runs once the database is closed (its memory can be reclaimed) but the data
   * directory is still locked: the last files of a stop are written there.
   */
  async close(options: { beforeRelease?: () => void } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clearSnapshotTimer();
    // A snapshot being built on a worker is abandoned: the stop copies memory at once instead.
    this.stopping.abort();
    try {
      await this.snapshot();
    } finally {
      for (const stmt of this.statements.values()) stmt.free();
      this.statements.clear();
      this.journal.close();
      this.db.close();
      try {
        options.beforeRelease?.();
      } finally {
        this.lock.release();
      }
    }
  }

  private prepare(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private execute(sql: string, params: readonly SqlParam[]): void {
    // Schema statements (migrations) run once; only repeated DML is worth a cached statement.
    let dml = this.isDml.get(sql);
    if (dml === undefined) {
      dml = DML.test(sql);
      this.isDml.set(sql, dml);
    }
    if (dml) {
      const stmt = this.prepare(sql);
      try {
        stmt.run(bindable(params));
      } finally {
        stmt.reset();
      }
    } else {
      this.db.run(sql, bindable(params));
    }
  }

  private commitToJournal(record: JournalRecord, append: (record: JournalRecord) => number): void {
    this.execute(SET_SEQ, [record.seq]);
    try {
      this.journalBytes += append(record);
    } catch (error) {
      if (error instanceof JournalWriteBrokenError) {
        this.options.logger.error(
          'a failed write could not be cut back out of the journal; writes are refused until a snapshot covers it',
          error,
        );
        this.failed = error;
        // The snapshot rotates the journal away from the damaged segment and deletes it.
        this.dirtySinceSnapshot = true;
        this.scheduleSnapshot();
      } else {
        this.options.logger.error('a change could not be written to the journal', error);
      }
      throw new StorageFailure('The change could not be saved to disk.', { cause: error });
    }
    this.seq = record.seq;
  }

  /** An fdatasync failed: what it covered may not be on disk, though memory has it. */
  private syncFailed(error: unknown): StorageFailure {
    if (this.failed === null) {
      this.options.logger.error(
        'the journal could not be synced to disk; writes are refused until a snapshot covers it',
        error,
      );
      this.failed = error instanceof Error ? error : new Error(String(error));
      this.dirtySinceSnapshot = true;
      this.scheduleSnapshot();
    }
    return new StorageFailure('The change could not be saved to disk.', { cause: error });
  }

  private replay(records: readonly ScannedRecord[]): void {
    for (const scanned of records) {
      const { record } = scanned;
      try {
        applyRecord(this.db, record, (sql, params) => this.execute(sql, params));
      } catch (error) {
        throw new Error(
          `The journal record of seq ${record.seq} (${scanned.path}, byte ${scanned.offset}) could not be replayed: ${String(error)}. ` +
            'KB Studio stops here and has changed no file; `npm run repair` can set this record aside (see docs/storage.md).',
          { cause: error },
        );
      }
      this.seq = record.seq;
    }
  }

  private migrate(available: readonly Migration[]): void {
    const applied = this.all<AppliedMigration & Row>(
      'SELECT version, name, sha256 FROM _migrations ORDER BY version',
    );
    for (const migration of pendingMigrations(available, applied)) {
      this.write((tx) => {
        for (const statement of splitSqlStatements(migration.sql)) tx.run(statement);
        tx.run('INSERT INTO _migrations (version, name, sha256) VALUES (?, ?, ?)', [
          migration.version,
          migration.name,
          migrationHash(migration),
        ]);
      });
      this.options.logger.info(`applied schema migration ${migration.version} (${migration.name})`);
    }
  }

  private assertWritable(): void {
    if (this.closed) throw new StorageFailure('The database is closed.');
    if (this.failed) {
      throw new StorageFailure(
        'The data directory cannot be written at the moment; KB Studio keeps trying.',
      );
    }
  }

  private afterWrite(): void {
    this.dirtySinceSnapshot = true;
    this.scheduleSnapshot();
  }

  /**
   * Snapshot policy. A snapshot exports the whole database on the event loop (a copy of it,
   * during which nothing else is answered: about a second per 100 MB on a loaded machine), so it
   * is taken when the journal has grown enough to be worth it: at once past
   * `snapshotJournalBytes` (start-up replays the journal: this bounds its time), and unless that
   * was configured, not before the journal is as large as the database: the copying snapshots do
   * stays within that of the writes they cover, and an import is not stopped every 32 MB for a
   * copy of everything (decision 111). After `snapshotIdleMs` without writes, past a megabyte. A
   * smaller journal waits for the stop's snapshot: a few edits in the editor do not stall every
   * question five seconds later. After a failure, not before the retry time.
   */
  private scheduleSnapshot(): void {
    if (!this.dirtySinceSnapshot || this.closed || this.snapshotting) return;
    const now = Date.now();
    if (now < this.retryAt) {
      if (!this.snapshotTimer) this.setSnapshotTimer(this.retryAt - now);
      return;
    }
    this.clearSnapshotTimer();
    if (
      this.failed ||
      journalDueForSnapshot(this.journalBytes, this.options.snapshotJournalBytes, () =>
        this.databaseBytes(),
      )
    )
      this.setSnapshotTimer(0);
    else if (this.journalBytes >= Math.min(IDLE_SNAPSHOT_MIN_BYTES, this.snapshotJournalBytes))
      this.setSnapshotTimer(this.snapshotIdleMs);
  }

  /** The database's size: its pages (SQLite keeps the count; nothing is read). */
  private databaseBytes(): number {
    const pages = Number(this.db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
    const pageSize = Number(this.db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
    return pages * pageSize;
  }

  private setSnapshotTimer(ms: number): void {
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = null;
      void this.snapshot();
    }, ms);
    this.snapshotTimer.unref();
  }

  private clearSnapshotTimer(): void {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = null;
  }
}

/**
 * The trailer after a snapshot's SQLite bytes: `KBSNAPC1`, their length (8 bytes) and their
 * CRC-32 (4 bytes), then 4 zero bytes, all big-endian. SQLite reads a database's size from its
 * header, so tools that open `kb.sqlite` read past none of it.
 */
const TRAILER_MAGIC = Buffer.from('KBSNAPC1', 'latin1');
const TRAILER_BYTES = 24;

/** The trailer that goes after `bytes` in `kb.sqlite`. */
export function snapshotTrailer(bytes: Uint8Array): Buffer {
  return trailerFor(bytes.length, crc32(bytes));
}

/** The trailer of `length` SQLite bytes whose CRC-32 is `crc` (a file checksummed in pieces). */
export function trailerFor(length: number, crc: number): Buffer {
  const trailer = Buffer.alloc(TRAILER_BYTES);
  TRAILER_MAGIC.copy(trailer, 0);
  trailer.writeBigUInt64BE(BigInt(length), 8);
  trailer.writeUInt32BE(crc, 16);
  return trailer;
}

export const SNAPSHOT_TRAILER_BYTES = TRAILER_BYTES;

/**
 * Where a snapshot file of `fileBytes` ends its SQLite bytes and the CRC-32 they must have (null:
 * written before checksums), read from its last `SNAPSHOT_TRAILER_BYTES` (`tail`, fewer for a
 * smaller file); or why it does not check out. Lets a snapshot be verified a piece at a time.
 */
export function snapshotLayout(
  fileBytes: number,
  tail: Buffer,
): { databaseBytes: number; crc: number | null } | { problem: string } {
  const trailerAt = fileBytes - TRAILER_BYTES;
  if (trailerAt < 0 || !tail.subarray(0, 8).equals(TRAILER_MAGIC)) {
    // Written before checksums, or its trailer damaged.
    return fileBytes % 512 === 0
      ? { databaseBytes: fileBytes, crc: null }
      : { problem: 'its checksum trailer is missing or damaged' };
  }
  if (Number(tail.readBigUInt64BE(8)) !== trailerAt)
    return { problem: 'its length is not the one its trailer records' };
  return { databaseBytes: trailerAt, crc: tail.readUInt32BE(16) };
}

/** The snapshot does not check out: opening it would serve damaged data without a word. */
export class SnapshotDamagedError extends Error {
  constructor(path: string, reason: string) {
    super(
      `The snapshot ${path} is damaged (${reason}). KB Studio stops here and has changed no file. ` +
        `Run \`npm run repair -- --data ${dirname(path)}\`: it keeps a copy of every file it changes, checks what the snapshot still holds and says what it found (see docs/storage.md).`,
    );
    this.name = 'SnapshotDamagedError';
  }
}

/**
 * A snapshot's SQLite bytes, checked against its trailer; null when there is none. A file
 * without a trailer is a snapshot written before checksums (its size a whole number of 512-byte
 * pages, as SQLite's always is) and is opened as it is; anything else throws
 * `SnapshotDamagedError`, unless `verify` is false (`npm run repair`, which reports it).
 */
export async function readSnapshot(
  path: string,
  { verify = true }: { verify?: boolean } = {},
): Promise<Uint8Array | null> {
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return snapshotDatabaseBytes(file, path, { verify });
}

/**
 * The SQLite bytes of a snapshot file read into `file` (a view, not a copy), checked against its
 * trailer as `readSnapshot` says.
 */
export function snapshotDatabaseBytes(
  file: Buffer,
  path: string,
  { verify = true }: { verify?: boolean } = {},
): Buffer {
  const problem = snapshotProblem(file);
  if (problem && verify) throw new SnapshotDamagedError(path, problem);
  const trailerAt = file.length - TRAILER_BYTES;
  const hasTrailer =
    trailerAt >= 0 && file.subarray(trailerAt, trailerAt + 8).equals(TRAILER_MAGIC);
  return hasTrailer ? file.subarray(0, trailerAt) : file;
}

/** Why a snapshot file does not check out, or null when it does. */
export function snapshotProblem(file: Buffer): string | null {
  const layout = snapshotLayout(
    file.length,
    file.subarray(Math.max(0, file.length - TRAILER_BYTES)),
  );
  if ('problem' in layout) return layout.problem;
  if (layout.crc !== null && crc32(file.subarray(0, layout.databaseBytes)) !== layout.crc)
    return SNAPSHOT_CHECKSUM_MISMATCH;
  return null;
}

export const SNAPSHOT_CHECKSUM_MISMATCH = 'its checksum does not match';

function removeLeftoverTempFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (isTemporaryFile(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Replays one journal record in a transaction of its own, as its commit did, and sets the
 * database's seq to the record's. Returns the rows each statement changed. Rolls back and
 * throws if a statement fails.
 */
export function applyRecord(
  db: SqlJsDatabase,
  record: JournalRecord,
  execute: (sql: string, params: readonly SqlParam[]) => void,
): number[] {
  db.run('BEGIN');
  try {
    const changed = record.ops.map(([index, params]) => {
      execute(record.sql[index] as string, params);
      return db.getRowsModified();
    });
    execute(SET_SEQ, [record.seq]);
    db.run('COMMIT');
    return changed;
  } catch (error) {
    db.run('ROLLBACK');
    throw error;
  }
}

/** The seq a database (a snapshot) was taken at. */
export function databaseSeq(db: SqlJsDatabase): number {
  return Number(db.exec("SELECT value FROM _store WHERE key = 'seq'")[0]?.values[0]?.[0] ?? 0);
}

/**
 * What `openDatabase` needs of sql.js beyond its typed API: its exported C functions (called
 * through Emscripten's `cwrap`) and a database's connection handle (`db`, a pointer).
 */
interface SqlJsRuntime {
  cwrap(
    name: string,
    returns: 'number',
    args: ('number' | 'string')[],
  ): (...args: (number | string)[]) => number;
}
interface WithHandle {
  db: number;
}

function hasRuntime(SQL: SqlJsStatic): SQL is SqlJsStatic & SqlJsRuntime {
  return typeof (SQL as Partial<SqlJsRuntime>).cwrap === 'function';
}

function hasHandle(db: SqlJsDatabase): db is SqlJsDatabase & WithHandle {
  return typeof (db as Partial<WithHandle>).db === 'number';
}

const memoryDatabases = new WeakMap<SqlJsStatic, SqlJsStatic['Database']>();

/**
 * sql.js's Database, opened on SQLite's `:memory:` rather than on a file of sql.js's in-memory
 * file system. That file is a typed array grown by 1/8 when a write passes its end, by copying
 * it whole into a new one: a commit that grew a 100 MB database copied (and, on this machine's
 * VMs, page-faulted) 100 MB on the event loop, seconds at a time (decision 110). A `:memory:`
 * database keeps its pages in SQLite's page cache, in the WebAssembly heap, which grows in place:
 * a commit writes nothing anywhere, and the database is held once, not as a file plus a cache.
 * sql.js opens whatever `this.filename` says as it is constructed: the accessor says `:memory:`.
 */
function memoryDatabaseClass(SQL: SqlJsStatic): SqlJsStatic['Database'] {
  let made = memoryDatabases.get(SQL);
  if (!made) {
    made = class MemoryDatabase extends SQL.Database {
      get filename(): string {
        return ':memory:';
      }
      set filename(_ignored: string) {
        // sql.js names a file for each database; this one has none.
      }
      override close(): void {
        try {
          super.close();
        } catch (error) {
          // After closing the connection, sql.js unlinks the file it thinks it opened: there is
          // none (Emscripten's error for it is no Error). SQLite's own failures are Errors.
          if (error instanceof Error) throw error;
        }
      }
    };
    memoryDatabases.set(SQL, made);
  }
  return made;
}

const SQLITE_OK = 0;
const SQLITE_DONE = 101;

/** Copies every page of `from` into `to` (SQLite's online backup, in one step: at open). */
function copyDatabase(SQL: SqlJsStatic, from: SqlJsDatabase, to: SqlJsDatabase): void {
  if (!hasRuntime(SQL) || !hasHandle(from) || !hasHandle(to)) {
    throw new Error('this build of sql.js does not expose its backup functions');
  }
  const init = SQL.cwrap('sqlite3_backup_init', 'number', ['number', 'string', 'number', 'string']);
  const step = SQL.cwrap('sqlite3_backup_step', 'number', ['number', 'number']);
  const finish = SQL.cwrap('sqlite3_backup_finish', 'number', ['number']);
  const backup = init(to.db, 'main', from.db, 'main');
  if (backup === 0) throw new Error('the snapshot could not be copied into memory');
  const stepped = step(backup, -1);
  const finished = finish(backup);
  if (stepped !== SQLITE_DONE || finished !== SQLITE_OK) {
    throw new Error(`the snapshot could not be copied into memory (SQLite ${stepped}/${finished})`);
  }
}

/** The settings the store runs on, and its own two tables (a database opened or rebuilt). */
export function applyStoreSettings(db: SqlJsDatabase): void {
  db.run('PRAGMA foreign_keys = ON');
  // Durability is the journal's job (the database lives in memory): SQLite's own rollback
  // journal only has to support ROLLBACK.
  db.run('PRAGMA journal_mode = MEMORY');
  db.run('PRAGMA temp_store = MEMORY');
  db.run('CREATE TABLE IF NOT EXISTS _store (key TEXT PRIMARY KEY, value INTEGER NOT NULL)');
  db.run(
    'CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL)',
  );
}

/**
 * The page size of a new store's database (decision 196). A rule's row (its answer, phrasings
 * and search text) is typically 1–3 KB: at SQLite's default 4 KiB one fits a page and the rest
 * of it stays empty, so the rules table was ~42% empty pages after a bundle import (the database
 * 3.2× the bundle). At 16 KiB rows share pages. A database keeps the page size it was made with:
 * a snapshot's is taken on by the copy into memory (old builds included), and an in-memory
 * database cannot change it, so stores made before stay at 4 KiB.
 */
export const NEW_DATABASE_PAGE_BYTES = 16_384;

/** A sql.js database on the snapshot's bytes (or empty), with the settings the store runs on. */
export function openDatabase(SQL: SqlJsStatic, snapshot: Uint8Array | null): SqlJsDatabase {
  const MemoryDatabase = memoryDatabaseClass(SQL);
  const db = new MemoryDatabase();
  try {
    if (snapshot) {
      // Read as a file once, copied into memory, and the file dropped.
      const file = new SQL.Database(snapshot);
      try {
        copyDatabase(SQL, file, db);
      } finally {
        file.close();
      }
    } else db.run(`PRAGMA page_size = ${NEW_DATABASE_PAGE_BYTES}`);
    applyStoreSettings(db);
  } catch (error) {
    db.close();
    throw new Error(`${SNAPSHOT_FILE} is not a readable SQLite database: ${String(error)}`, {
      cause: error,
    });
  }
  return db;
}

/** Splits a migration script on statement boundaries (our migrations hold no `;` in literals). */
function splitSqlStatements(sql: string): string[] {
  const statements: string[] = [];
  let pending: string | null = null;
  for (const part of sql.split(';')) {
    pending = pending === null ? part : `${pending};${part}`;
    const text = pending.trim();
    // A trigger's body holds statements of its own: the trigger ends at its END.
    if (/^CREATE\s+TRIGGER\b/i.test(text) && !/\bEND$/i.test(text)) continue;
    if (text.length > 0) statements.push(text);
    pending = null;
  }
  return statements;
}
