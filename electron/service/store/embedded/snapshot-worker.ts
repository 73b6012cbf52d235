/**
 * The snapshot built on a worker thread, so that no copy of the database holds the event loop
 * (decision 121). The worker makes it as a start-up would: the last snapshot, then the journal
 * segments a rotation closed, replayed record by record up to the seq the rotation was at. That
 * is exactly the state the main thread held at that moment: every record replays as it committed
 * (the same statements, in their own transaction, foreign keys on). The bytes are exported and
 * checksummed here and handed over without a copy (a transferred buffer); the main thread only
 * writes them (on libuv's threads). The worker's heap, the database's pages among it, is given
 * back when it exits.
 *
 * Imported on the main thread it does nothing but export `rebuildSnapshot` (tests).
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { SqlJsStatic, Statement, Database as SqlJsDatabase } from 'sql.js';
import {
  SNAPSHOT_FILE,
  applyRecord,
  bindable,
  databaseSeq,
  loadSqlJs,
  openDatabase,
  readSnapshot,
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
 * whole, with every record decoded, was a third copy of the database in the worker. Damage, or a
 * record cut short at the end, throws (the caller copies the database from memory instead).
 */
export function* segmentRecords(path: string): Generator<JournalRecord> {
  const fd = openSync(path, 'r');
  try {
    let window = Buffer.alloc(0);
    let pos = 0;
    let fileAt = 0;
    let ended = false;
    for (;;) {
      if (pos >= window.length && ended) return;
      const decoded = pos < window.length ? decodeRecordAt(window, pos) : { reason: CUT_SHORT };
      if ('record' in decoded) {
        pos = decoded.end;
        yield decoded.record;
        continue;
      }
      if (decoded.reason !== CUT_SHORT || ended) {
        const offset = fileAt - (window.length - pos);
        throw new Error(`${path} is damaged at byte ${offset} (${decoded.reason})`);
      }
      // The record goes on past the window: the rest of it, and the next bytes of the file.
      const rest = window.subarray(pos);
      const next = Buffer.allocUnsafe(Math.max(READ_BYTES, rest.length));
      const read = readSync(fd, next, 0, next.length, fileAt);
      fileAt += read;
      ended = read === 0;
      window =
        rest.length === 0 ? next.subarray(0, read) : Buffer.concat([rest, next.subarray(0, read)]);
      pos = 0;
    }
  } finally {
    closeSync(fd);
  }
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
  const db = openDatabase(sql, await readSnapshot(join(job.dataDir, SNAPSHOT_FILE)));
  const runner = statementRunner(db);
  try {
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
    const bytes = db.export();
    return { bytes, trailer: snapshotTrailer(bytes) };
  } finally {
    db.close();
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
