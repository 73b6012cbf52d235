/**
 * The snapshot built on a worker thread, so that no copy of the database holds the event loop
 * (decision 121). The worker makes it as a start-up would: the last snapshot, then the journal
 * segments a rotation closed, replayed record by record up to the seq the rotation was at. That
 * is exactly the state the main thread held at that moment: every record replays as it committed
 * (the same statements, in their own transaction, foreign keys on). The snapshot is written
 * here, checksummed and fsynced, to a temporary file that the main thread renames over
 * the snapshot. The worker's heap is given back when it exits.
 *
 * The worker holds none of the database (decision 195): the last snapshot is copied to that
 * temporary file, and sql.js rebuilds the database in it, a page at a time through SQLite's
 * page cache (snapshot-disk-file.ts). Before, it was rebuilt in an array the worker held
 * (decision 170: about the database's size, beside the main thread's own), and before that in
 * SQLite's page cache plus its `export()` (three copies at the peak with the main thread's).
 *
 * Imported on the main thread it does nothing but export `rebuildSnapshot` (tests).
 * @module
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import type { SqlJsStatic, Statement, Database as SqlJsDatabase } from 'sql.js';
import { FILE_MODE } from '../../files/durable-fs';
import {
  SNAPSHOT_CHECKSUM_MISMATCH,
  SNAPSHOT_FILE,
  SNAPSHOT_TRAILER_BYTES,
  SnapshotDamagedError,
  applyRecord,
  applyStoreSettings,
  bindable,
  databaseSeq,
  loadSqlJs,
  openDatabase,
  snapshotLayout,
  trailerFor,
} from './database';
import { DiskStorage, diskDatabaseSeed, writeAllSync } from './snapshot-disk-file';
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

/** The page cache of the database being rebuilt (its pages are on disk). */
const REBUILD_CACHE_KIB = 16 * 1024;

/** Bytes copied or checksummed at a time. */
const COPY_BYTES = 4 * 2 ** 20;

/**
 * Copies the SQLite bytes of `job.dataDir`'s snapshot to `fd`, checking its checksum on the way
 * (a damaged one throws, and the caller copies the database from memory instead), or an empty
 * store database when there is none yet. Returns their length.
 */
function copyLastSnapshot(job: SnapshotJob, sql: SqlJsStatic, fd: number): number {
  const path = join(job.dataDir, SNAPSHOT_FILE);
  let from: number;
  try {
    from = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const empty = openDatabase(sql, null);
    try {
      const seed = empty.export();
      writeAllSync(fd, seed, 0);
      return seed.length;
    } finally {
      empty.close();
    }
  }
  try {
    const size = fstatSync(from).size;
    const tail = Buffer.alloc(Math.min(size, SNAPSHOT_TRAILER_BYTES));
    readAllSync(from, tail, size - tail.length, path);
    const layout = snapshotLayout(size, tail);
    if ('problem' in layout) throw new SnapshotDamagedError(path, layout.problem);
    const chunk = Buffer.allocUnsafe(Math.min(COPY_BYTES, Math.max(1, layout.databaseBytes)));
    let crc = 0;
    for (let at = 0; at < layout.databaseBytes;) {
      const piece = chunk.subarray(0, Math.min(chunk.length, layout.databaseBytes - at));
      readAllSync(from, piece, at, path);
      crc = crc32(piece, crc);
      writeAllSync(fd, piece, at);
      at += piece.length;
    }
    if (layout.crc !== null && crc !== layout.crc)
      throw new SnapshotDamagedError(path, SNAPSHOT_CHECKSUM_MISMATCH);
    return layout.databaseBytes;
  } finally {
    closeSync(from);
  }
}

function readAllSync(fd: number, into: Uint8Array, at: number, path: string): void {
  for (let done = 0; done < into.length;) {
    const read = readSync(fd, into, done, into.length - done, at + done);
    if (read === 0) throw new Error(`${path} ended at byte ${at + done}`);
    done += read;
  }
}

/** The CRC-32 of `fd`'s first `bytes`, read a few megabytes at a time. */
function fileCrc(fd: number, bytes: number, path: string): number {
  const chunk = Buffer.allocUnsafe(Math.min(COPY_BYTES, Math.max(1, bytes)));
  let crc = 0;
  for (let at = 0; at < bytes;) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - at));
    readAllSync(fd, piece, at, path);
    crc = crc32(piece, crc);
    at += piece.length;
  }
  return crc;
}

/**
 * Whether sql.js still writes `db`'s file to `storage`: two commits that leave the data as it
 * was (a value changed and changed back) must each reach it. sql.js only moves a file's storage
 * into memory, never back, so a file written there now was written there throughout.
 */
function stillOnDisk(db: SqlJsDatabase, storage: DiskStorage): boolean {
  const before = storage.writes;
  db.run("UPDATE _store SET value = value + 1 WHERE key = 'seq'");
  const between = storage.writes;
  db.run("UPDATE _store SET value = value - 1 WHERE key = 'seq'");
  return between > before && storage.writes > between;
}

/** The database's size: its pages (SQLite keeps the count). */
function fileBytes(db: SqlJsDatabase): number {
  const pages = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
  const pageSize = Number(db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
  return pages * pageSize;
}

/**
 * Writes the snapshot at `targetSeq` to `job.file`, whole (its SQLite bytes and their trailer)
 * and fsynced: `job.dataDir`'s snapshot plus every record of `job.segments` after it, which must
 * follow it without a gap and end at `targetSeq` (anything else throws: the caller removes the
 * file and copies the database from memory instead). The database is rebuilt in that file
 * itself (decision 195); `exported` says it fell back to one copy in memory (a truncation moved
 * the file there).
 */
export async function rebuildSnapshot(
  job: SnapshotJob,
  SQL?: SqlJsStatic,
): Promise<{ exported: boolean }> {
  const sql = SQL ?? (await loadSqlJs());
  const fd = openSync(job.file, 'w+', FILE_MODE);
  try {
    const storage = new DiskStorage(fd);
    const db = new sql.Database(diskDatabaseSeed(storage, copyLastSnapshot(job, sql, fd)));
    let size: number;
    let exported: Uint8Array | null = null;
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
      if (seq !== job.targetSeq)
        throw new Error(`the journal ends at ${seq}, not ${job.targetSeq}`);
      runner.free();
      size = fileBytes(db);
      if (!stillOnDisk(db, storage)) {
        // sql.js moved the file into memory: its copy is the snapshot.
        exported = db.export();
        size = exported.length;
      }
    } finally {
      db.close();
    }
    if (exported) writeAllSync(fd, exported, 0);
    // The file is exactly the database's pages, then the trailer.
    ftruncateSync(fd, size);
    writeAllSync(fd, trailerFor(size, fileCrc(fd, size, job.file)), size);
    fsyncSync(fd);
    return { exported: exported !== null };
  } finally {
    closeSync(fd);
  }
}

function isSnapshotJob(data: unknown): data is SnapshotJob {
  if (typeof data !== 'object' || data === null) return false;
  const job = data as Partial<SnapshotJob>;
  return (
    typeof job.dataDir === 'string' &&
    typeof job.file === 'string' &&
    Array.isArray(job.segments) &&
    typeof job.targetSeq === 'number'
  );
}

const port = parentPort;
if (port && isSnapshotJob(workerData)) {
  rebuildSnapshot(workerData).then(
    () => {
      const message: SnapshotMessage = { done: true };
      port.postMessage(message);
    },
    (error: unknown) => {
      const { code } = error as NodeJS.ErrnoException;
      const message: SnapshotMessage = {
        error: String(error),
        ...(typeof code === 'string' ? { code } : {}),
      };
      port.postMessage(message);
    },
  );
}
