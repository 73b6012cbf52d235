/**
 * The write-ahead journal: every committed transaction is appended as one self-checking record
 * and fsynced before the caller is answered. Together with snapshots it makes every
 * acknowledged write survive a crash at any moment.
 *
 * Record format, one per line: `<crc32 hex 8>\t<byte length>\t<JSON>\n`. JSON text never holds
 * a raw tab or newline, so tabs only ever start a record's fields: after damage, the next whole
 * record can be found again.
 *
 * Segments: the journal is a series of files `journal-<first seq>.log`. A snapshot rotates to a
 * new segment, and segments entirely covered by a durable snapshot are deleted.
 *
 * Opening is strict. A crash can only tear the record being appended, i.e. the end of the last
 * segment, and that record was never acknowledged: it is cut. A last record that is whole by
 * its length but does not check out (bit rot after it was written, which a tear does not make)
 * may have been acknowledged: it is cut too, so that the service starts, but its bytes are first
 * set aside in a file beside the segment (`setAsideName`), reported at start and by
 * `npm run repair`. Any other damage (a record that
 * does not check out with whole records after it, a missing seq, damage in an earlier segment)
 * means acknowledged writes would be lost: `scanJournal` throws `JournalDamagedError`, naming
 * the file and byte offset, before anything is changed on disk. `npm run repair` (repair.ts)
 * deals with such a journal.
 * @module
 */
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readdirSync,
  truncateSync,
  unlinkSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { FILE_MODE, fsyncDirectory, writeFileAtomic } from '../../files/durable-fs';

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
const TAB = 9;
const NEWLINE = 10;

export function segmentName(firstSeq: number): string {
  return `journal-${String(firstSeq).padStart(12, '0')}.log`;
}

/** The file a damaged last record of `segment` (a file name) is set aside in. */
export function setAsideName(segment: string, offset: number): string {
  return `${segment}.damaged-at-${offset}`;
}

/** Names of set-aside records (`setAsideName`). */
export const SET_ASIDE = /^journal-\d{12}\.log\.damaged-at-\d+$/;

/** The reason a tail is a write cut short by a crash, rather than damage to what was written. */
export const CUT_SHORT = 'the record is cut short';

export interface Segment {
  path: string;
  firstSeq: number;
}

export function listSegments(dir: string): Segment[] {
  return readdirSync(dir)
    .map((name) => ({ name, m: SEGMENT.exec(name) }))
    .filter((e): e is { name: string; m: RegExpExecArray } => e.m !== null)
    .map((e) => ({ path: join(dir, e.name), firstSeq: Number(e.m[1]) }))
    .sort((a, b) => a.firstSeq - b.firstSeq);
}

const NEWLINE_BYTE = Buffer.from('\n');

/**
 * A record's bytes, made as its statements run: each statement is encoded, and taken into the
 * checksum, when it is added, so that appending a long transaction's record (a batch import's,
 * half a megabyte) costs a copy, not an encoding, in the turn that commits it. The JSON is
 * `{"seq":…,"ops":[…],"sql":[…]}`: the statement texts come last, known only at the end.
 */
export class RecordEncoder {
  private readonly parts: Buffer[] = [];
  private crc = 0;
  private length = 0;
  private ops = 0;

  constructor(seq: number) {
    this.add(`{"seq":${seq},"ops":[`);
  }

  /** Adds the next statement of the record, `[sqlIndex, params]`. */
  op(op: readonly [number, readonly SqlParam[]]): void {
    this.add(`${this.ops++ > 0 ? ',' : ''}${JSON.stringify(op)}`);
  }

  /** The statements added so far. */
  get opCount(): number {
    return this.ops;
  }

  /** The whole record line, given the record's statement texts. */
  finish(sql: readonly string[]): Buffer {
    return Buffer.concat(this.finishParts(sql));
  }

  /**
   * The whole record line in parts, in order (`Journal.appendUnsynced` writes them without
   * joining them: a batch import's record is not copied whole once more as it commits).
   */
  finishParts(sql: readonly string[]): Buffer[] {
    this.add(`],"sql":${JSON.stringify(sql)}}`);
    const crc = this.crc.toString(16).padStart(8, '0');
    const header = Buffer.from(`${crc}\t${this.length}\t`, 'latin1');
    return [header, ...this.parts, NEWLINE_BYTE];
  }

  private add(text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    this.parts.push(bytes);
    this.crc = crc32(bytes, this.crc);
    this.length += bytes.length;
  }
}

export function encodeRecord(record: JournalRecord): Buffer {
  const encoder = new RecordEncoder(record.seq);
  for (const op of record.ops) encoder.op(op);
  return encoder.finish(record.sql);
}

/** A whole, checked record and where it lies in its segment (`end` is one past its newline). */
export interface RecordAt {
  record: JournalRecord;
  offset: number;
  end: number;
}

/** Bytes of a segment that are not a whole, checked record, up to the next whole record. */
export interface DamageAt {
  offset: number;
  end: number;
  reason: string;
}

function isRecord(value: unknown): value is JournalRecord {
  const r = value as Partial<JournalRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    Number.isSafeInteger(r.seq) &&
    Array.isArray(r.sql) &&
    Array.isArray(r.ops)
  );
}

/** Decodes the record starting at `pos`, or says why there is none. */
export function decodeRecordAt(bytes: Buffer, pos: number): RecordAt | { reason: string } {
  const tab1 = pos + 8;
  if (tab1 >= bytes.length) return { reason: CUT_SHORT };
  if (bytes[tab1] !== TAB || !/^[0-9a-f]{8}$/.test(bytes.toString('latin1', pos, tab1)))
    return { reason: 'no record header' };
  const tab2 = bytes.indexOf(TAB, tab1 + 1);
  if (tab2 < 0 && bytes.length - tab1 <= 11) return { reason: CUT_SHORT };
  const digits = tab2 < 0 ? '' : bytes.toString('latin1', tab1 + 1, tab2);
  if (!/^[1-9]\d{0,9}$/.test(digits)) return { reason: 'the record length is unreadable' };
  const start = tab2 + 1;
  const end = start + Number(digits);
  if (end >= bytes.length) return { reason: CUT_SHORT };
  if (bytes[end] !== NEWLINE) return { reason: 'the record does not end where its length says' };
  const json = bytes.subarray(start, end);
  if (crc32(json).toString(16).padStart(8, '0') !== bytes.toString('latin1', pos, tab1))
    return { reason: 'the record checksum does not match' };
  let record: unknown;
  try {
    record = JSON.parse(json.toString('utf8'));
  } catch {
    return { reason: 'the record is not JSON' };
  }
  if (!isRecord(record)) return { reason: 'the record is not a transaction' };
  return { record, offset: pos, end: end + 1 };
}

/** The first whole record starting after `from`, if any. */
function nextRecord(bytes: Buffer, from: number): RecordAt | null {
  // A record's first tab is 8 bytes after its start; JSON holds no raw tab.
  for (let tab = bytes.indexOf(TAB, from + 9); tab >= 0; tab = bytes.indexOf(TAB, tab + 1)) {
    const decoded = decodeRecordAt(bytes, tab - 8);
    if ('record' in decoded) return decoded;
  }
  return null;
}

/**
 * Reads a segment's bytes as whole records and damaged stretches, in file order. Damage runs
 * from where decoding failed to the next whole record (or the end of the file).
 */
export function readSegment(bytes: Buffer): (RecordAt | DamageAt)[] {
  const entries: (RecordAt | DamageAt)[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const decoded = decodeRecordAt(bytes, pos);
    if ('record' in decoded) {
      entries.push(decoded);
      pos = decoded.end;
      continue;
    }
    const next = nextRecord(bytes, pos);
    entries.push({ offset: pos, end: next?.offset ?? bytes.length, reason: decoded.reason });
    if (!next) break;
    pos = next.offset;
  }
  return entries;
}

/**
 * The journal cannot be opened without losing acknowledged writes. Nothing was changed on disk.
 */
export class JournalDamagedError extends Error {
  constructor(
    readonly path: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    const dataDir = dirname(path);
    super(
      `The journal file ${path} is damaged at byte ${offset} (${reason}). ` +
        'Opening it would silently lose changes that were already acknowledged, so KB Studio ' +
        'stops here and has changed no file. ' +
        `Run \`npm run repair -- --data ${dataDir}\` to recover what can be recovered: it keeps ` +
        'a copy of every file it changes and lists exactly what is lost (see docs/storage.md).',
    );
    this.name = 'JournalDamagedError';
  }
}

/** A failed append could not be cut back out of the journal: no further append is safe. */
export class JournalWriteBrokenError extends Error {
  constructor(path: string, cause: unknown) {
    super(`the journal ${path} could not be repaired after a failed write`, { cause });
    this.name = 'JournalWriteBrokenError';
  }
}

/** A record to replay, with where it lies (for messages). */
export interface ScannedRecord extends RecordAt {
  path: string;
}

export interface JournalScan {
  segments: Segment[];
  /** Records after `afterSeq`, in order, their seqs consecutive. */
  records: ScannedRecord[];
  /**
   * A damaged end of the last segment, to be cut at `offset`: a record cut short by a crash
   * (never acknowledged), or, when `reason` is not `CUT_SHORT`, a record whole by its length that
   * does not check out (set aside before the cut: `Journal.resume`).
   */
  tornTail: { path: string; offset: number; bytes: number; reason: string } | null;
}

/**
 * Reads and checks every segment without changing anything. Throws `JournalDamagedError` on
 * any damage but a torn end of the last segment, and on a gap in the seqs (the first record
 * after `afterSeq`, the snapshot's seq, must be `afterSeq + 1`, and so on). Damage followed by a
 * record the snapshot already covers is harmless: the segments a snapshot covers are deleted
 * after it, so a crash in between leaves them, and nothing in them is needed.
 */
export function scanJournal(dir: string, afterSeq: number): JournalScan {
  const segments = listSegments(dir);
  const records: ScannedRecord[] = [];
  let tornTail: JournalScan['tornTail'] = null;
  let damage: { path: string; offset: number; reason: string } | null = null;
  let expected = afterSeq + 1;
  segments.forEach((segment, i) => {
    const bytes = readFileSync(segment.path);
    const entries = readSegment(bytes);
    entries.forEach((entry, k) => {
      if (!('record' in entry)) {
        if (i === segments.length - 1 && k === entries.length - 1) {
          tornTail = {
            path: segment.path,
            offset: entry.offset,
            bytes: entry.end - entry.offset,
            reason: entry.reason,
          };
        } else {
          damage ??= { path: segment.path, offset: entry.offset, reason: entry.reason };
        }
        return;
      }
      const { seq } = entry.record;
      if (damage) {
        // What the damage held came before this record: harmless only if the snapshot has it.
        if (records.length > 0 || seq > afterSeq + 1)
          throw new JournalDamagedError(damage.path, damage.offset, damage.reason);
        damage = null;
      }
      if (seq < expected) {
        if (seq > afterSeq || records.length > 0)
          throw new JournalDamagedError(
            segment.path,
            entry.offset,
            `seq ${seq} comes after seq ${expected - 1}`,
          );
        return; // covered by the snapshot
      }
      if (seq > expected) {
        const missing =
          seq - expected === 1 ? `seq ${expected} is` : `seqs ${expected}–${seq - 1} are`;
        throw new JournalDamagedError(
          segment.path,
          entry.offset,
          `it holds seq ${seq} where seq ${expected} was expected: ${missing} missing`,
        );
      }
      records.push({ ...entry, path: segment.path });
      expected = seq + 1;
    });
  });
  // Damage in a segment before the last, with no whole record after it: the last segment's
  // records (if any) were checked above; a torn end of the last segment excuses nothing else.
  const unresolved = damage as { path: string; offset: number; reason: string } | null;
  if (unresolved)
    throw new JournalDamagedError(unresolved.path, unresolved.offset, unresolved.reason);
  return { segments, records, tornTail };
}

const ignore = () => undefined;

/**
 * Copies the bytes of `path` from `offset` on into `setAsideName` beside it, durably, before
 * they are cut. Returns the copy's path.
 */
export function setAside(path: string, offset: number): string {
  const aside = join(dirname(path), setAsideName(basename(path), offset));
  writeFileAtomic(aside, readFileSync(path).subarray(offset));
  return aside;
}

/**
 * The fdatasyncs of one open segment on libuv's threads, shared by the appends waiting for them
 * (group commit): an append written while one is under way waits for the next, which covers
 * every byte written before it began.
 */
class SegmentSync {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly fd: number) {}

  get busy(): boolean {
    return this.running !== null || this.queued !== null;
  }

  /** Resolves once an fdatasync begun after this call has completed; rejects if it failed. */
  request(): Promise<void> {
    const running = this.running;
    if (running === null) return this.start();
    this.queued ??= running.then(ignore, ignore).then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  /** Resolves once no fdatasync is under way or queued (their errors go to their requesters). */
  async idle(): Promise<void> {
    for (let next = this.queued ?? this.running; next; next = this.queued ?? this.running)
      await next.then(ignore, ignore);
  }

  private start(): Promise<void> {
    const running = new Promise<void>((resolve, reject) =>
      fdatasync(this.fd, (error) => (error ? reject(error) : resolve())),
    );
    this.running = running;
    void running.then(ignore, ignore).then(() => {
      if (this.running === running) this.running = null;
    });
    return running;
  }
}

/** Vectors per `writev` (IOV_MAX is 1024 on Linux). */
const WRITEV_PARTS = 1024;

/** Writes `parts` in order at the file's end, a thousand at a time, short writes resumed. */
function writeAllSync(fd: number, parts: readonly Buffer[]): void {
  if (parts.length === 1) {
    const [bytes] = parts as [Buffer];
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    return;
  }
  for (let first = 0; first < parts.length; first += WRITEV_PARTS) {
    let batch = parts.slice(first, first + WRITEV_PARTS);
    let wanted = batch.reduce((sum, part) => sum + part.length, 0);
    while (wanted > 0) {
      const written = writevSync(fd, batch);
      wanted -= written;
      if (wanted === 0) break;
      // A short write: what is left of the batch, from the byte it stopped at.
      let skip = written;
      const rest: Buffer[] = [];
      for (const part of batch) {
        if (skip >= part.length) skip -= part.length;
        else {
          rest.push(skip > 0 ? part.subarray(skip) : part);
          skip = 0;
        }
      }
      batch = rest;
    }
  }
}

export class Journal {
  private fd: number | null = null;
  /** The fdatasyncs of `fd` under way (`appendUnsynced`). */
  private sync: SegmentSync | null = null;
  private segment: Segment | null = null;
  private bytesInSegment = 0;

  private constructor(private readonly dir: string) {}

  /**
   * Continues a scanned journal: cuts its torn tail (if any) and appends to its last segment.
   * Call only once everything the scan read has been accepted.
   */
  static resume(dir: string, scan: JournalScan): Journal {
    const journal = new Journal(dir);
    if (scan.tornTail) {
      const { path, offset, reason } = scan.tornTail;
      if (reason !== CUT_SHORT) setAside(path, offset);
      truncateSync(path, offset);
    }
    const last = scan.segments.at(-1);
    if (last) {
      journal.segment = last;
      journal.fd = openSync(last.path, 'a', FILE_MODE);
      journal.bytesInSegment = fstatSync(journal.fd).size;
    }
    return journal;
  }

  /** `scanJournal` and `resume` in one: the records after `afterSeq` and the open journal. */
  static open(dir: string, afterSeq: number): { journal: Journal; records: JournalRecord[] } {
    const scan = scanJournal(dir, afterSeq);
    return { journal: Journal.resume(dir, scan), records: scan.records.map((r) => r.record) };
  }

  /** Bytes in the current segment: the snapshot policy rotates when this grows large. */
  get size(): number {
    return this.bytesInSegment;
  }

  /**
   * Appends one record and fsyncs it; returns its size in bytes. On failure, cuts the partial
   * record back out.
   */
  append(record: JournalRecord): number {
    return this.write(record, true);
  }

  /**
   * Appends one record like `append`, but leaves the fdatasync to libuv's threads: `synced`
   * resolves once the record is on disk (rejects if the fdatasync failed). A failed write is cut
   * back out and thrown, as by `append`. Records are written in call order whatever the syncs.
   * `encoded`: the record's bytes, when they were made as it ran (`RecordEncoder`).
   */
  appendUnsynced(
    record: JournalRecord,
    encoded?: Buffer | readonly Buffer[],
  ): { bytes: number; synced: Promise<void> } {
    const bytes = this.write(record, false, encoded);
    this.sync ??= new SegmentSync(this.fd as number);
    return { bytes, synced: this.sync.request() };
  }

  private write(
    record: JournalRecord,
    sync: boolean,
    encoded?: Buffer | readonly Buffer[],
  ): number {
    if (this.fd === null || this.segment === null) this.startSegment(record.seq);
    const fd = this.fd as number;
    const parts = encoded === undefined ? [encodeRecord(record)] : [encoded].flat();
    const before = this.bytesInSegment;
    let length = 0;
    try {
      for (const part of parts) length += part.length;
      writeAllSync(fd, parts);
      if (sync) fdatasyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, before);
      } catch (cause) {
        throw new JournalWriteBrokenError(this.segment?.path ?? this.dir, cause);
      }
      throw error;
    }
    this.bytesInSegment = before + length;
    return length;
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
    this.fd = openSync(segment.path, 'a', FILE_MODE);
    this.segment = segment;
    this.bytesInSegment = 0;
    fsyncDirectory(this.dir);
  }

  /** Closes the segment's file, once the fdatasyncs under way on it (if any) are done. */
  private closeFd(): void {
    const { fd, sync } = this;
    this.fd = null;
    this.sync = null;
    if (fd === null) return;
    if (sync?.busy) void sync.idle().then(() => closeSync(fd));
    else closeSync(fd);
  }
}
