/**
 * The write-ahead journal: every committed transaction is appended as one self-checking record
 * and fsynced before the caller is answered. Together with snapshots (snapshot.ts) it makes every
 * acknowledged write survive a crash at any moment.
 *
 * Record format, one per line: `<crc32 hex 8>\t<byte length>\t<JSON>\n`. A crash can only tear
 * the last record; replay stops at the first record whose length or checksum is wrong and cuts
 * the file there, so the next append starts on a clean boundary.
 *
 * Segments: the journal is a series of files `journal-<first seq>.log`. A snapshot rotates to a
 * new segment, and segments entirely covered by a durable snapshot are deleted.
 * @module
 */
import {
  closeSync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fsyncDirectory } from './durable-fs';

/** A value as SQLite stores it and sql.js reads it back (blobs aside). */
export type SqlValue = string | number | null;

/**
 * Text handed to SQLite as its UTF-8 bytes, i.e. as a blob: for large JSON parameters, which the
 * SQL reads with `CAST(? AS TEXT)`. sql.js copies a string into the WebAssembly heap one
 * character at a time (5–9 ms for a 1000-rule batch); bytes are copied at once. Journaled as the
 * object itself, `{ "utf8": "…" }`.
 */
export interface Utf8Param {
  utf8: string;
}

export type SqlParam = SqlValue | Utf8Param;

/**
 * One committed transaction: its statements in order, each as an index into `sql` (the distinct
 * statement texts, so a batch of 1000 inserts names its SQL once) and its parameters.
 */
export interface JournalRecord {
  seq: number;
  sql: string[];
  ops: [sqlIndex: number, params: SqlParam[]][];
}

const SEGMENT = /^journal-(\d{12})\.log$/;

function segmentName(firstSeq: number): string {
  return `journal-${String(firstSeq).padStart(12, '0')}.log`;
}

interface Segment {
  path: string;
  firstSeq: number;
}

function listSegments(dir: string): Segment[] {
  return readdirSync(dir)
    .map((name) => ({ name, m: SEGMENT.exec(name) }))
    .filter((e): e is { name: string; m: RegExpExecArray } => e.m !== null)
    .map((e) => ({ path: join(dir, e.name), firstSeq: Number(e.m[1]) }))
    .sort((a, b) => a.firstSeq - b.firstSeq);
}

export function encodeRecord(record: JournalRecord): Buffer {
  const json = JSON.stringify(record);
  const length = Buffer.byteLength(json, 'utf8');
  const prefix = 8 + 1 + String(length).length + 1; // crc, tab, length, tab
  // One buffer, written in place: a 1000-rule batch is half a megabyte, not worth copying twice.
  const out = Buffer.allocUnsafe(prefix + length + 1);
  out.write(json, prefix, length, 'utf8');
  const crc = crc32(out.subarray(prefix, prefix + length))
    .toString(16)
    .padStart(8, '0');
  out.write(`${crc}\t${length}\t`, 0, prefix, 'latin1');
  out[prefix + length] = 10;
  return out;
}

/**
 * Decodes the records of one segment's bytes. Returns the records that are whole and correct
 * and the byte offset where the valid prefix ends.
 */
export function decodeRecords(bytes: Buffer): { records: JournalRecord[]; validBytes: number } {
  const records: JournalRecord[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const tab1 = bytes.indexOf(9, pos);
    const tab2 = tab1 < 0 ? -1 : bytes.indexOf(9, tab1 + 1);
    if (tab1 !== pos + 8 || tab2 < 0 || tab2 - tab1 > 11) break;
    const crc = bytes.toString('latin1', pos, tab1);
    const length = Number(bytes.toString('latin1', tab1 + 1, tab2));
    const start = tab2 + 1;
    const end = start + length;
    if (!Number.isSafeInteger(length) || end >= bytes.length || bytes[end] !== 10) break;
    const json = bytes.subarray(start, end);
    if (crc32(json).toString(16).padStart(8, '0') !== crc) break;
    let record: JournalRecord;
    try {
      record = JSON.parse(json.toString('utf8')) as JournalRecord;
    } catch {
      break;
    }
    records.push(record);
    pos = end + 1;
  }
  return { records, validBytes: pos };
}

/** The journal could not be brought back to a record boundary: no further append is safe. */
export class JournalDamagedError extends Error {
  constructor(path: string, cause: unknown) {
    super(`the journal ${path} could not be repaired after a failed write`, { cause });
    this.name = 'JournalDamagedError';
  }
}

export class Journal {
  private fd: number | null = null;
  private segment: Segment | null = null;
  private bytesInSegment = 0;

  private constructor(private readonly dir: string) {}

  /**
   * Reads every segment, cuts torn tails, and returns the records after `afterSeq` in order,
   * together with an open journal positioned for appending.
   */
  static open(dir: string, afterSeq: number): { journal: Journal; records: JournalRecord[] } {
    const journal = new Journal(dir);
    const records: JournalRecord[] = [];
    const segments = listSegments(dir);
    segments.forEach((segment, i) => {
      const bytes = readFileSync(segment.path);
      const decoded = decodeRecords(bytes);
      if (decoded.validBytes < bytes.length) {
        // A torn tail can only come from a crash during the last append, which was never
        // acknowledged: drop it so the segment ends on a record boundary again.
        truncateSync(segment.path, decoded.validBytes);
        if (i < segments.length - 1) {
          // A torn record in the middle of history would mean later segments rest on a lost
          // transaction: stop here rather than apply them out of order.
          throw new Error(`journal segment ${segment.path} is damaged before its end`);
        }
      }
      for (const record of decoded.records) if (record.seq > afterSeq) records.push(record);
    });
    const last = segments.at(-1);
    if (last) {
      journal.segment = last;
      journal.fd = openSync(last.path, 'a');
      journal.bytesInSegment = statSync(last.path).size;
    }
    return { journal, records };
  }

  /** Bytes in the current segment: the snapshot policy rotates when this grows large. */
  get size(): number {
    return this.bytesInSegment;
  }

  /** Appends one record and fsyncs it. On failure, cuts the partial record back out. */
  append(record: JournalRecord): void {
    if (this.fd === null || this.segment === null) this.startSegment(record.seq);
    const fd = this.fd as number;
    const bytes = encodeRecord(record);
    const before = this.bytesInSegment;
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fdatasyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, before);
      } catch (cause) {
        throw new JournalDamagedError(this.segment?.path ?? this.dir, cause);
      }
      throw error;
    }
    this.bytesInSegment = before + bytes.length;
  }

  /**
   * Closes the current segment so that the next append starts `journal-<nextSeq>.log`, and
   * returns the closed segments: once a snapshot taken at this moment is durable, they can go.
   */
  rotate(): string[] {
    this.closeFd();
    this.segment = null;
    this.bytesInSegment = 0;
    return listSegments(this.dir).map((segment) => segment.path);
  }

  /** Deletes segments returned by `rotate()` after the snapshot covering them is durable. */
  deleteSegments(paths: readonly string[]): void {
    for (const path of paths) unlinkSync(path);
    fsyncDirectory(this.dir);
  }

  close(): void {
    this.closeFd();
  }

  private startSegment(firstSeq: number): void {
    const segment = { path: join(this.dir, segmentName(firstSeq)), firstSeq };
    this.fd = openSync(segment.path, 'a');
    this.segment = segment;
    this.bytesInSegment = 0;
    fsyncDirectory(this.dir);
  }

  private closeFd(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
