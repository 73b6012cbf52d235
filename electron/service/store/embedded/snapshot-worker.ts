/**
 * The snapshot built on a worker thread, so that no copy of the database holds the event loop
 * (decision 121). The worker makes it as a start-up would: the last snapshot, then the journal
 * segments a rotation closed, replayed record by record up to the seq the rotation was at. That
 * is exactly the state the main thread held at that moment: every record replays as it committed
 * (the same statements, in their own transaction, foreign keys on). The bytes are checksummed
 * here and handed over without a copy (a transferred buffer); the main thread only writes them
 * (on libuv's threads). The worker's heap is given back when it exits.
 *
 * The worker holds the database once (decision 170): it is built as a file of sql.js's in-memory
 * file system kept in one array made here, with room for its growth, that the last snapshot is
 * read straight into; that array, once the replay ends, is the snapshot's bytes. Before, the
 * database lived in SQLite's page cache and `export()` copied it whole: with the main thread's
 * own, three copies at the peak (1,378 MB after a 116 MB bundle import).
 *
 * Imported on the main thread it does nothing but export `rebuildSnapshot` (tests).
 * @module
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { SqlJsStatic, Statement, Database as SqlJsDatabase } from 'sql.js';
import {
  SNAPSHOT_FILE,
  applyRecord,
  applyStoreSettings,
  bindable,
  databaseSeq,
  loadSqlJs,
  openDatabase,
  snapshotDatabaseBytes,
  snapshotTrailer,
} from './database';
import type { JournalRecord, SqlParam } from './journal';
import { CUT_SHORT, decodeRecordAt } from './journal';
import type { SnapshotJob, SnapshotMessage } from './snapshot-thread';

const DML = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** Runs statements as the store does: repeated DML through a cached prepared statement. */
function statementRunner(db: SqlJsDatabase) {
  const statements = new Map<string, Statement>();
  return {
    execute(sql: string, params: readonly SqlParam[]): void {
      if (!DML.test(sql)) {
        db.run(sql, bindable(params));
        return;
      }
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        statements.set(sql, stmt);
      }
      try {
        stmt.run(bindable(params));
      } finally {
        stmt.reset();
      }
    },
    free(): void {
      for (const stmt of statements.values()) stmt.free();
    },
  };
}

/** Bytes of a segment read at once: the worker never holds a whole segment, nor all its records. */
const READ_BYTES = 1024 * 1024;

/**
 * The records of a journal segment in file order, read `READ_BYTES` at a time (more for a record
 * larger than that): a segment after a large import is about the database's size, and holding it
 * whole, with every record decoded, was a third copy of the database in the worker. The reads go
 * into one buffer, reused (records are parsed out of it, never views on it): a new one per read
 * left megabytes a second of garbage outside V8's heap, which its collector lets pile up by tens
 * of megabytes (decision 170). Damage, or a record cut short at the end, throws (the caller
 * copies the database from memory instead).
 */
export function* segmentRecords(path: string): Generator<JournalRecord> {
  const fd = openSync(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(READ_BYTES);
    // The bytes read and not yet decoded are buffer[pos, end).
    let pos = 0;
    let end = 0;
    let fileAt = 0;
    let ended = false;
    for (;;) {
      if (pos >= end && ended) return;
      const decoded =
        pos < end ? decodeRecordAt(buffer.subarray(0, end), pos) : { reason: CUT_SHORT };
      if ('record' in decoded) {
        pos = decoded.end;
        yield decoded.record;
        continue;
      }
      if (decoded.reason !== CUT_SHORT || ended) {
        const offset = fileAt - (end - pos);
        throw new Error(`${path} is damaged at byte ${offset} (${decoded.reason})`);
      }
      // The record goes on past what was read: its start moves to the front, and the next bytes
      // of the file follow it (at least as many as it has, so that a large record takes few reads).
      const rest = end - pos;
      const room = Math.max(READ_BYTES, rest);
      if (buffer.length - rest < room) {
        const larger = Buffer.allocUnsafe(rest + room);
        buffer.copy(larger, 0, pos, end);
        buffer = larger;
      } else if (pos > 0) buffer.copy(buffer, 0, pos, end);
      pos = 0;
      end = rest;
      const read = readSync(fd, buffer, end, room, fileAt);
      fileAt += read;
      end += read;
      ended = read === 0;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Room the rebuilt file is given beyond the larger of the last snapshot and the main thread's
 * database: pages never written cost no memory (the array's untouched pages are never mapped),
 * and a file that outgrows its room is only copied once more (`export()`, as before).
 */
const ROOM_FACTOR = 1.25;
const ROOM_EXTRA_BYTES = 2 ** 20;

/** The page cache of the database being rebuilt (its pages are in the file's array). */
const REBUILD_CACHE_KIB = 16 * 1024;

/**
 * A view whose `slice` hands back the whole array it is a view of. sql.js writes a new file's
 * first bytes with `slice` (a copy), and keeps what it gets as the file's storage, replaced only
 * when a write passes its end or the file is truncated: given this, the file lives in `room`.
 */
class InPlace extends Uint8Array {
  constructor(
    private readonly room: Uint8Array<ArrayBuffer>,
    length: number,
  ) {
    super(room.buffer, room.byteOffset, length);
  }

  // Views made from this one (`subarray`, `map`) are plain arrays.
  static get [Symbol.species](): Uint8ArrayConstructor {
    return Uint8Array;
  }

  override slice(): Uint8Array<ArrayBuffer> {
    return this.room;
  }
}

/**
 * `job.dataDir`'s snapshot read into an array with room for the rebuilt database (an empty store
 * database when there is none yet), and the length of its SQLite bytes.
 */
function readIntoRoom(
  job: SnapshotJob,
  sql: SqlJsStatic,
): { room: Uint8Array<ArrayBuffer>; length: number } {
  const path = join(job.dataDir, SNAPSHOT_FILE);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const empty = openDatabase(sql, null);
    try {
      const seed = empty.export();
      const room = new Uint8Array(roomFor(job, seed.length));
      room.set(seed);
      return { room, length: seed.length };
    } finally {
      empty.close();
    }
  }
  try {
    const size = fstatSync(fd).size;
    const room = new Uint8Array(roomFor(job, size));
    for (let at = 0; at < size;) {
      const read = readSync(fd, room, at, Math.min(size - at, 2 ** 24), at);
      if (read === 0) throw new Error(`${path} ended at byte ${at} of ${size}`);
      at += read;
    }
    const file = Buffer.from(room.buffer, room.byteOffset, size);
    return { room, length: snapshotDatabaseBytes(file, path).length };
  } finally {
    closeSync(fd);
  }
}

function roomFor(job: SnapshotJob, fileBytes: number): number {
  return Math.ceil(Math.max(fileBytes, job.databaseBytes ?? 0) * ROOM_FACTOR) + ROOM_EXTRA_BYTES;
}

/** Bytes 24–27 of a database file: SQLite's change counter, written by every commit. */
function changeCounter(file: Uint8Array): number {
  return Buffer.from(file.buffer, file.byteOffset, 28).readUInt32BE(24);
}

/**
 * Whether sql.js still writes `db`'s file into `room`: two commits that leave the data as it was
 * (a value changed and changed back) must each count in `room`'s change counter. sql.js only
 * ever replaces a file's storage with an array of its own, so a file written here now was
 * written here throughout.
 */
function stillInRoom(db: SqlJsDatabase, room: Uint8Array): boolean {
  const before = changeCounter(room);
  db.run("UPDATE _store SET value = value + 1 WHERE key = 'seq'");
  db.run("UPDATE _store SET value = value - 1 WHERE key = 'seq'");
  return changeCounter(room) === (before + 2) % 2 ** 32;
}

/** The database's size: its pages (SQLite keeps the count). */
function fileBytes(db: SqlJsDatabase): number {
  const pages = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
  const pageSize = Number(db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
  return pages * pageSize;
}

/**
 * The snapshot at `targetSeq`: `job.dataDir`'s snapshot plus every record of `job.segments`
 * after it, which must follow it without a gap and end at `targetSeq` (anything else throws: the
 * caller copies the database from memory instead).
 */
export async function rebuildSnapshot(
  job: SnapshotJob,
  SQL?: SqlJsStatic,
): Promise<{ bytes: Uint8Array; trailer: Uint8Array }> {
  const sql = SQL ?? (await loadSqlJs());
  const { room, length } = readIntoRoom(job, sql);
  const db = new sql.Database(new InPlace(room, length));
  let closed = false;
  try {
    applyStoreSettings(db);
    db.run(`PRAGMA cache_size = -${REBUILD_CACHE_KIB}`);
    const runner = statementRunner(db);
    let seq = databaseSeq(db);
    for (const path of job.segments) {
      for (const record of segmentRecords(path)) {
        if (record.seq <= seq || record.seq > job.targetSeq) continue;
        if (record.seq !== seq + 1) throw new Error(`seqs ${seq + 1}–${record.seq - 1} missing`);
        applyRecord(db, record, (text, params) => runner.execute(text, params));
        seq = record.seq;
      }
    }
    if (seq !== job.targetSeq) throw new Error(`the journal ends at ${seq}, not ${job.targetSeq}`);
    runner.free();
    const size = fileBytes(db);
    if (size > room.length || !stillInRoom(db, room)) {
      // The file outgrew its room: sql.js moved it; its copy is the snapshot.
      const bytes = db.export();
      return { bytes, trailer: snapshotTrailer(bytes) };
    }
    db.close();
    closed = true;
    const bytes = room.subarray(0, size);
    return { bytes, trailer: snapshotTrailer(bytes) };
  } finally {
    if (!closed) db.close();
  }
}

function isSnapshotJob(data: unknown): data is SnapshotJob {
  if (typeof data !== 'object' || data === null) return false;
  const job = data as Partial<SnapshotJob>;
  return (
    typeof job.dataDir === 'string' &&
    Array.isArray(job.segments) &&
    typeof job.targetSeq === 'number'
  );
}

const port = parentPort;
if (port && isSnapshotJob(workerData)) {
  const job = workerData;
  rebuildSnapshot(job).then(
    ({ bytes, trailer }) => {
      const message: SnapshotMessage = { bytes, trailer };
      // The bytes are moved, not copied (the trailer's 24 bytes are).
      const { buffer } = bytes;
      port.postMessage(message, buffer instanceof ArrayBuffer ? [buffer] : []);
    },
    (error: unknown) => {
      const message: SnapshotMessage = { error: String(error) };
      port.postMessage(message);
    },
  );
}
