/**
 * One robot's raw question log on disk: segment files per UTC day
 * (`YYYY-MM-DD-SSSS.jsonl`, one JSON array a line: segment-line.ts), each with its
 * index (`.idx`, segment-index.ts). A day is cut into segments of at most `segmentBytes` (a
 * twentieth of the robot's size budget, within bounds), so that the oldest part of even the
 * current day can go when the log is over its budget. Lines are buffered and written (with their
 * index records) once a second, each file synced; nothing waits on the disk in the event loop.
 *
 * Reads go by the index: a page newest first from a cursor (day, segment, record), the filter's
 * indexed parts tested on the records and the lines of the entries returned read back (a page
 * with no filter counts whole segments by their index's length, and reads only the one it is
 * in: the oldest page seeks to the first segment without reading the newer ones); a text
 * filter scans the segments' bytes newest first, a chunk at a time. A day file written before
 * segments (`YYYY-MM-DD.jsonl`) becomes its day's first segment when the log is opened.
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoggedQuestion } from '../../../question-log-types';
import { DIRECTORY_MODE, FILE_MODE } from '../../../files/durable-fs';
import type { PageRequest, PageResult } from '../../contract/question-log';
import { DAY_MS, dayOf } from '../../sql/question-log-line';
import { textVariants } from '../../sql/question-log-text';
import type { ExportJob } from './segment-csv';
import {
  EntryCounts,
  EntryFilter,
  GramFilter,
  gramsPathOf,
  isThirdForm,
  mayHoldAny,
} from './segment-grams';
import { decodeLine, encodeLine } from './segment-line';
import {
  RECORD_BYTES,
  codeTest,
  entryMatches,
  recordCode,
  recordParts,
  recordRule,
  recordTest,
  recordTime,
  recordUser,
  recordWords,
  textHash,
  writeRecord,
} from './segment-index';
import type { RecordParts, RecordTest } from './segment-index';

const SEGMENT = /^(\d{4}-\d{2}-\d{2})-(\d{4,})\.jsonl$/;
const LEGACY_DAY = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const CURSOR = /^(\d{4}-\d{2}-\d{2})\.(\d+)\.(\d+)$/;
/** Bytes read at a time when scanning lines (a text filter, slices, a rebuild). */
const CHUNK_BYTES = 1024 * 1024;
/** Entries handed over at a time (a rebuild, an export). */
const SLICE_ENTRIES = 2000;
/**
 * Entries a text search reads for one page at most (decision 97): past them the page ends where
 * the search stopped, `next` continues from there and `searched` says how far it got. A text no
 * entry holds read the whole log (1.4 s at a million entries, more on a loaded machine).
 */
export const SEARCH_BUDGET = 100_000;
/**
 * Bytes of segment indexes and filters kept in memory once read (decision 134): all of them for a
 * log of a million entries (some 27 MB); past it, the least recently used go.
 */
const CACHE_BYTES = 48 * 1024 * 1024;
/** The event loop time a page works before the asks waiting come (ms). */
const SLICE_MS = 8;
/** Segment sizes: a twentieth of the budget, within these bounds. */
const SEGMENT_MIN = 16 * 1024;
const SEGMENT_MAX = 4 * 1024 * 1024;
/** The last time ISO day names spell with four digits. */
const LAST_TIME = 253_402_300_799_999;

export const segmentBytesFor = (maxBytes: number): number =>
  Math.min(SEGMENT_MAX, Math.max(SEGMENT_MIN, Math.floor(maxBytes / 20)));

/** Where a day's log ends: its last segment, and the bytes up to there in it. */
export interface Position {
  seq: number;
  bytes: number;
}

/**
 * A line waiting for its write, with its index record's parts and what its owner attached (to
 * undo if the write fails). Not the entry: its line and record say all a write needs.
 */
export interface Pending<T> extends RecordParts {
  line: string;
  bytes: number;
  tag: T;
}

interface Segment<T> {
  day: string;
  dayStart: number;
  seq: number;
  path: string;
  /** Bytes of lines written. */
  bytes: number;
  /** Bytes of lines the index covers (its last record's line ends there). */
  indexedBytes: number;
  /** Bytes of its index written. */
  indexBytes: number;
  /** Bytes of a write under way. */
  writingBytes: number;
  /** Lines not yet handed to a write, in order. */
  pending: Pending<T>[];
  /** Lines of the write under way (until their index records are written), in order. */
  writing: Pending<T>[];
  pendingBytes: number;
  /** Its index records as last read (segment.indexBytes of them, or fewer: read the rest). */
  index: Uint32Array | null;
  /** Bytes of its text filter's file (segment-grams.ts; 0: none yet). */
  gramsBytes: number;
  /** Its text filter once read. */
  grams: GramFilter | null;
}

export interface WriteOutcome<T> {
  /** Lines that could not be written (their entries are lost). */
  lost: Pending<T>[];
  error: unknown;
}

interface Found<T> {
  segment: Segment<T>;
  words: Uint32Array;
  record: number;
  /** The entry of a line not written yet (read from memory). */
  entry?: LoggedQuestion;
}

const NO_WORDS = new Uint32Array(0);

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The segments (of every robot's log) whose index or filter is in memory, least recently used
 * first, with their bytes: one budget for the process, however many logs it has open.
 */
const cache = { segments: new Map<Segment<unknown>, number>(), bytes: 0 };

function uncache(segment: Segment<unknown>): void {
  cache.bytes -= cache.segments.get(segment) ?? 0;
  cache.segments.delete(segment);
  segment.index = null;
  segment.grams = null;
}

/**
 * The records of the segments before index `before` (sorted oldest first) whose day is in
 * [firstDay, lastDay]: what a search of those days has to read.
 */
function olderRecords<T>(
  segments: readonly Segment<T>[],
  before: number,
  firstDay: string,
  lastDay = '9999-12-31',
): number {
  let records = 0;
  for (let s = 0; s < before; s++) {
    const segment = segments[s] as Segment<T>;
    if (segment.day >= firstDay && segment.day <= lastDay)
      records += segment.indexBytes / RECORD_BYTES;
  }
  return records;
}

/**
 * Writes all of `bytes`: a write the disk cut short (it filled up) fails, so that the batch is
 * undone rather than kept in part.
 */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  const { bytesWritten } = await handle.write(bytes);
  if (bytesWritten < bytes.length) {
    throw Object.assign(new Error('ENOSPC: no space left on device, write cut short'), {
      code: 'ENOSPC',
    });
  }
}

/**
 * A segment's file opened to read, or null when it is gone: a read takes the segments as they
 * were when it started, and the budgets may drop one meanwhile (its entries are then no more).
 */
async function openToRead(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
const indexPathOf = (path: string) => `${path.slice(0, -'.jsonl'.length)}.idx`;

/** The complete lines of `bytes` (which start at `base` in their file), with their offsets. */
function* linesOf(bytes: Buffer, base: number): Generator<{ offset: number; text: string }> {
  let start = 0;
  for (let end = bytes.indexOf(10, start); end >= 0; end = bytes.indexOf(10, start)) {
    if (end > start) yield { offset: base + start, text: bytes.toString('utf8', start, end) };
    start = end + 1;
  }
}

/** The length of the file up to its last newline (a line cut short by a crash left out). */
async function completeLength(handle: FileHandle, size: number): Promise<number> {
  const tail = Buffer.alloc(Math.min(Math.max(size, 1), 64 * 1024));
  let end = size;
  while (end > 0) {
    const from = Math.max(0, end - tail.length);
    const { bytesRead } = await handle.read(tail, 0, end - from, from);
    const at = tail.subarray(0, bytesRead).lastIndexOf(10);
    if (at >= 0) return from + at + 1;
    end = from;
  }
  return 0;
}

/** The record (between `first` and `last`) whose line holds byte `offset`. */
function recordAt(words: Uint32Array, first: number, last: number, offset: number): number {
  let low = first;
  let high = last;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((words[mid * 4] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** A file's size, 0 when it is missing. */
async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** fsyncs a directory so that a new segment survives power loss (where the platform can). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open or fsync a directory (durable-fs.ts); the lines are synced.
  }
}

export class SegmentLog<T> {
  private readonly segments: Segment<T>[] = [];
  /**
   * The last segment number of each day, even once its segment is gone: numbers never come back,
   * so that a position (or a cursor) never names another segment than the one it was taken in.
   */
  private readonly lastSeq = new Map<string, number>();
  /** Bytes per segment before a new one starts. */
  segmentBytes = SEGMENT_MAX;
  /** Entries a text search reads per page at most (SEARCH_BUDGET; smaller in tests). */
  searchBudget = SEARCH_BUDGET;
  private madeDir = false;

  constructor(readonly dir: string) {}

  private sort(): void {
    this.segments.sort((a, b) => (a.day === b.day ? a.seq - b.seq : a.day < b.day ? -1 : 1));
  }

  private newSegment(day: string, seq: number): Segment<T> {
    return {
      day,
      dayStart: Date.parse(day),
      seq,
      path: join(this.dir, `${day}-${String(seq).padStart(4, '0')}.jsonl`),
      bytes: 0,
      indexedBytes: 0,
      indexBytes: 0,
      writingBytes: 0,
      pending: [],
      writing: [],
      pendingBytes: 0,
      index: null,
      gramsBytes: 0,
      grams: null,
    };
  }

  /**
   * Reads the directory: day files of an older version become segments; a line cut short by a
   * crash is cut off; an index shorter than its lines (a crash between the two writes) is
   * completed, one pointing past them cut.
   */
  async load(): Promise<void> {
    if (!existsSync(this.dir)) return;
    this.madeDir = true;
    for (const name of readdirSync(this.dir)) {
      // A filter cut short by a crash (segment-grams.ts writes it aside, then renames it).
      if (name.endsWith('.grams.tmp')) await rm(join(this.dir, name), { force: true });
      const legacy = LEGACY_DAY.exec(name)?.[1];
      if (legacy) await rename(join(this.dir, name), join(this.dir, `${legacy}-0000.jsonl`));
    }
    for (const name of readdirSync(this.dir)) {
      const match = SEGMENT.exec(name);
      if (!match?.[1] || !match[2]) continue;
      const segment = this.newSegment(match[1], Number(match[2]));
      segment.path = join(this.dir, name);
      this.lastSeq.set(segment.day, Math.max(this.lastSeq.get(segment.day) ?? 0, segment.seq));
      await this.repair(segment);
      segment.gramsBytes = await fileSize(gramsPathOf(segment.path));
      this.segments.push(segment);
      await nextTurn();
    }
    this.sort();
    this.filterClosed();
  }

  private async repair(segment: Segment<T>): Promise<void> {
    const handle = await open(segment.path, 'r+');
    try {
      const size = (await handle.stat()).size;
      const complete = await completeLength(handle, size);
      if (complete < size) await handle.truncate(complete);
      segment.bytes = complete;
    } finally {
      await handle.close();
    }
    const indexPath = indexPathOf(segment.path);
    const index = existsSync(indexPath) ? await readFile(indexPath) : Buffer.alloc(0);
    const words = recordWords(index);
    let records = words.length / 4;
    // Records pointing past the lines (the index reached the disk, its lines did not) go.
    while (records > 0 && (words[(records - 1) * 4] as number) >= segment.bytes) records--;
    const indexedUpTo =
      records === 0 ? 0 : await this.lineEnd(segment, words[(records - 1) * 4] as number);
    segment.indexBytes = records * RECORD_BYTES;
    segment.indexedBytes = indexedUpTo;
    if (segment.indexBytes === index.length && indexedUpTo >= segment.bytes) return;
    const parts: Buffer[] = [index.subarray(0, segment.indexBytes)];
    for await (const { offset, text } of this.lineStream(
      segment.path,
      indexedUpTo,
      segment.bytes,
    )) {
      const record = Buffer.alloc(RECORD_BYTES);
      const entry = decodeLine(text, segment.dayStart);
      if (entry) writeRecord(record, 0, recordParts(entry, segment.dayStart), offset);
      else record.writeUInt32LE(offset, 0);
      parts.push(record);
    }
    const rebuilt = Buffer.concat(parts);
    const out = await open(indexPath, 'w', FILE_MODE);
    try {
      await out.write(rebuilt);
      await out.datasync();
    } finally {
      await out.close();
    }
    segment.indexBytes = rebuilt.length;
    segment.indexedBytes = segment.bytes;
  }

  /** The end (after its newline) of the line starting at `offset`. */
  private async lineEnd(segment: Segment<T>, offset: number): Promise<number> {
    const handle = await open(segment.path, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (let at = offset; at < segment.bytes; at += buffer.length) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
        const newline = buffer.subarray(0, bytesRead).indexOf(10);
        if (newline >= 0) return at + newline + 1;
      }
      return segment.bytes;
    } finally {
      await handle.close();
    }
  }

  /** The lines of a file between two offsets, in order, a chunk at a time. */
  private async *lineStream(
    path: string,
    from: number,
    to: number,
  ): AsyncGenerator<{ offset: number; text: string }> {
    if (to <= from) return;
    const handle = await openToRead(path);
    if (!handle) return;
    try {
      let at = from;
      let carry = Buffer.alloc(0);
      const chunk = Buffer.alloc(CHUNK_BYTES);
      while (at < to) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, to - at), at);
        if (bytesRead === 0) break;
        const read = chunk.subarray(0, bytesRead);
        const bytes = carry.length > 0 ? Buffer.concat([carry, read]) : read;
        const base = at - carry.length;
        const last = bytes.lastIndexOf(10);
        yield* linesOf(bytes.subarray(0, last + 1), base);
        carry = Buffer.from(bytes.subarray(last + 1));
        at += bytesRead;
      }
    } finally {
      await handle.close();
    }
  }

  /** Segments of `day` are numbered after `seq` from now on (a position saved names it). */
  reserveSeq(day: string, seq: number): void {
    this.lastSeq.set(day, Math.max(this.lastSeq.get(day) ?? -1, seq));
  }

  /** Days with segments, oldest first. */
  days(): string[] {
    return [...new Set(this.segments.map((segment) => segment.day))];
  }

  /** Where the day's log ends, buffered lines and a write under way included. */
  endOf(day: string): Position | null {
    const last = this.segments.findLast((segment) => segment.day === day);
    if (!last) return null;
    return { seq: last.seq, bytes: last.bytes + last.writingBytes + last.pendingBytes };
  }

  /** The entries of a day written after a position, in order, a slice at a time. */
  async *entriesFrom(day: string, from: Position | null): AsyncGenerator<LoggedQuestion[]> {
    for (const segment of this.segments.filter((s) => s.day === day)) {
      if (from && segment.seq < from.seq) continue;
      const start = from && segment.seq === from.seq ? from.bytes : 0;
      let slice: LoggedQuestion[] = [];
      for await (const { text } of this.lineStream(segment.path, start, segment.bytes)) {
        const entry = decodeLine(text, segment.dayStart);
        if (entry) slice.push(entry);
        if (slice.length >= SLICE_ENTRIES) {
          yield slice;
          slice = [];
        }
      }
      if (slice.length > 0) yield slice;
    }
  }

  /** The segment the last line went to: the next one nearly always goes there too. */
  private current: Segment<T> | null = null;

  private segmentFor(at: number): Segment<T> {
    const current = this.current;
    if (
      current !== null &&
      at >= current.dayStart &&
      at < current.dayStart + DAY_MS &&
      current.bytes + current.writingBytes + current.pendingBytes < this.segmentBytes &&
      this.segments[this.segments.length - 1] === current
    ) {
      return current;
    }
    this.current = this.segmentOfDay(at);
    return this.current;
  }

  private segmentOfDay(at: number): Segment<T> {
    const day = dayOf(Math.min(Math.max(0, at), LAST_TIME));
    const last = this.segments.findLast((segment) => segment.day === day);
    if (last && last.bytes + last.writingBytes + last.pendingBytes < this.segmentBytes) return last;
    const seq = this.lastSeq.has(day) ? (this.lastSeq.get(day) as number) + 1 : 0;
    this.lastSeq.set(day, seq);
    const segment = this.newSegment(day, seq);
    this.segments.push(segment);
    this.sort();
    return segment;
  }

  /** Buffers an entry's line. */
  append(entry: LoggedQuestion, tag: T): void {
    const segment = this.segmentFor(entry.at);
    const line = encodeLine(entry, segment.dayStart);
    const bytes = Buffer.byteLength(line) + 1;
    const { stamp, user, rule } = recordParts(entry, segment.dayStart);
    segment.pending.push({ line, bytes, tag, stamp, user, rule });
    segment.pendingBytes += bytes;
  }

  /** Lines buffered or being written (not yet synced with their index records). */
  unwritten(): number {
    let count = 0;
    for (const segment of this.segments) count += segment.pending.length + segment.writing.length;
    return count;
  }

  get hasPending(): boolean {
    return this.segments.some((segment) => segment.pending.length > 0);
  }

  /**
   * Writes the buffered lines of every segment (lines, then index records, each synced). A
   * segment whose write fails is cut back to what it held, and its lines are returned as lost.
   */
  async write(): Promise<WriteOutcome<T>> {
    const outcome: WriteOutcome<T> = { lost: [], error: null };
    for (const segment of [...this.segments]) {
      if (segment.pending.length === 0) continue;
      const pending = segment.pending;
      segment.pending = [];
      segment.writing = pending;
      segment.writingBytes = segment.pendingBytes;
      segment.pendingBytes = 0;
      const { bytes, indexBytes, indexedBytes } = segment;
      try {
        await this.writeSegment(segment, pending);
      } catch (error) {
        outcome.lost.push(...pending);
        outcome.error = error;
        // The batch is lost as a whole: none of its lines or records stay.
        Object.assign(segment, { bytes, indexBytes, indexedBytes });
        await this.cutBack(segment);
      } finally {
        segment.writingBytes = 0;
        segment.writing = [];
      }
    }
    return outcome;
  }

  private async writeSegment(segment: Segment<T>, pending: Pending<T>[]): Promise<void> {
    if (!this.madeDir) {
      await mkdir(this.dir, { recursive: true, mode: DIRECTORY_MODE });
      this.madeDir = true;
    }
    const records = Buffer.alloc(pending.length * RECORD_BYTES);
    let offset = segment.bytes;
    pending.forEach((line, i) => {
      writeRecord(records, i * RECORD_BYTES, line, offset);
      offset += line.bytes;
    });
    const isNew = segment.bytes === 0;
    await this.dropFilter(segment);
    const lines = await open(segment.path, 'a', FILE_MODE);
    try {
      await writeAll(lines, Buffer.from(`${pending.map((line) => line.line).join('\n')}\n`));
      await lines.datasync();
    } finally {
      await lines.close();
    }
    segment.bytes = offset;
    segment.writingBytes = 0;
    // Lines first: an index record never points to a line that did not reach the disk.
    const index = await open(indexPathOf(segment.path), 'a', FILE_MODE);
    try {
      await writeAll(index, records);
      await index.datasync();
    } finally {
      await index.close();
    }
    segment.indexBytes += records.length;
    segment.indexedBytes = offset;
    // Indexed now: a page reads them from the files (no more from memory).
    segment.writing = [];
    if (isNew) await syncDirectory(this.dir);
  }

  /** After a failed write: the files as they were (a part-written line would spoil the next). */
  private async cutBack(segment: Segment<T>): Promise<void> {
    // A crash between the two leaves lines without records: the next open indexes them.
    for (const [path, size] of [
      [segment.path, segment.bytes],
      [indexPathOf(segment.path), segment.indexBytes],
    ] as const) {
      try {
        if ((await stat(path)).size > size) await truncate(path, size);
      } catch {
        // Missing (never made) or not writable: the next open repairs what is left.
      }
    }
  }

  /** Bytes the log takes (lines and index, buffered lines included). */
  size(): number {
    let total = 0;
    for (const segment of this.segments) {
      const lines = segment.writingBytes + segment.pendingBytes;
      total += segment.bytes + segment.indexBytes + segment.gramsBytes + lines;
      total += segment.pending.length * RECORD_BYTES;
    }
    return total;
  }

  private countOf(segment: Segment<T>): number {
    return segment.indexBytes / RECORD_BYTES + segment.pending.length;
  }

  private async remove(segment: Segment<T>): Promise<number> {
    const removed = this.countOf(segment);
    this.segments.splice(this.segments.indexOf(segment), 1);
    this.uncache(segment);
    await rm(segment.path, { force: true });
    await rm(indexPathOf(segment.path), { force: true });
    await rm(gramsPathOf(segment.path), { force: true });
    return removed;
  }

  /** Whether a segment can go now (no write under way, nothing buffered for it). */
  private idle(segment: Segment<T>): boolean {
    return segment.pending.length === 0 && segment.writingBytes === 0;
  }

  // ——— Text filters of closed segments (segment-grams.ts) ———

  /** Filters being built, one after the other, in the background. */
  private filtering: Promise<void> = Promise.resolve();
  private readonly filterQueued = new Set<Segment<T>>();
  private stopped = false;

  /**
   * Whether no line will go to the segment any more: a newer segment of its day took over, or a
   * later day started (a line of its day arriving late would still go there: its filter is then
   * dropped, and made again).
   */
  private isClosed(segment: Segment<T>): boolean {
    const newest = this.segments[this.segments.length - 1];
    if (newest === undefined || newest === segment || !this.idle(segment)) return false;
    return (
      newest.day > segment.day || this.segments.findLast((s) => s.day === segment.day) !== segment
    );
  }

  /** Queues the filter of every closed segment without one (after a write, at load). */
  filterClosed(): void {
    if (this.stopped) return;
    for (const segment of this.segments) {
      if (this.hasFilter(segment) || this.filterQueued.has(segment) || !this.isClosed(segment))
        continue;
      this.filterQueued.add(segment);
      this.filtering = this.filtering
        .then(() => this.buildFilter(segment))
        .catch(() => {
          // A cache: the search reads the segment without it.
        })
        .finally(() => this.filterQueued.delete(segment));
    }
  }

  /** Reads a closed segment's lines a slice at a time (yielding between) and writes its filter. */
  private async buildFilter(segment: Segment<T>): Promise<void> {
    if (this.stopped || !this.segments.includes(segment) || this.hasFilter(segment)) return;
    const covers = segment.indexedBytes;
    const words = await this.indexOf(segment);
    if (segment.indexedBytes !== covers) return;
    const count = words.length / 4;
    const entries = EntryFilter.of(count, (add) => {
      for (let r = 0; r < count; r++) add(recordUser(words, r), recordTime(words, r));
    });
    const counts = EntryCounts.of((add) => {
      for (let r = 0; r < count; r++) add(recordCode(words, r), recordRule(words, r));
    });
    // A filter of an older form covering the same lines keeps its trigrams (no line read).
    const first = segment.gramsBytes > 0 ? await this.filterOf(segment) : null;
    const filter = (first ?? GramFilter.empty(covers)).covering(covers, entries, counts);
    let lines = 0;
    for await (const { text } of first ? [] : this.lineStream(segment.path, 0, covers)) {
      const entry = decodeLine(text, segment.dayStart);
      if (entry) {
        filter.add(entry.question);
        filter.add(entry.userId);
      }
      if (++lines % SLICE_ENTRIES === 0) {
        await nextTurn();
        if (this.stopped) return;
      }
    }
    // Written to since (or being written), or gone: not saved (a gone segment's would be left).
    const current = () =>
      segment.indexedBytes === covers && this.idle(segment) && this.segments.includes(segment);
    if (!current()) return;
    const path = gramsPathOf(segment.path);
    await filter.save(path);
    if (!current()) {
      await rm(path, { force: true });
      return;
    }
    segment.grams = filter;
    segment.gramsBytes = filter.fileBytes;
    this.touch(segment);
  }

  /** Whether a segment has a filter of the current form (older forms get one made again). */
  private hasFilter(segment: Segment<T>): boolean {
    return isThirdForm(segment.gramsBytes);
  }

  /**
   * A closed segment's counts, when they answer the filter for all its records (decision 140):
   * no text or user in it, and every entry of the segment within its time.
   */
  private async countsFor(
    segment: Segment<T>,
    filter: PageRequest['filter'],
  ): Promise<EntryCounts | null> {
    if (filter.text !== undefined || filter.userId !== undefined) return null;
    if (!isThirdForm(segment.gramsBytes) || !this.idle(segment)) return null;
    const found = await this.filterOf(segment);
    if (!found?.entries || found.counts === null) return null;
    const { firstTime, lastTime } = found.entries;
    const inside =
      filter.from <= segment.dayStart + firstTime && segment.dayStart + lastTime < filter.to;
    return inside ? found.counts : null;
  }

  /** A segment's filter if it has one covering all its lines, read once. */
  private async filterOf(segment: Segment<T>): Promise<GramFilter | null> {
    if (segment.gramsBytes === 0) return null;
    if (segment.grams === null) {
      try {
        segment.grams = GramFilter.parse(await readFile(gramsPathOf(segment.path)));
      } catch {
        return null;
      }
      this.touch(segment);
    }
    return segment.grams !== null && segment.grams.covers === segment.indexedBytes
      ? segment.grams
      : null;
  }

  /** A segment written to after it closed loses its filter (made again once closed). */
  private async dropFilter(segment: Segment<T>): Promise<void> {
    if (segment.gramsBytes === 0) return;
    segment.gramsBytes = 0;
    segment.grams = null;
    await rm(gramsPathOf(segment.path), { force: true });
  }

  /** The filters being built stop (the log closes); waits for the one under way. */
  async stopFilters(): Promise<void> {
    this.stopped = true;
    await this.filtering;
  }

  /** Waits for the filters queued (a bulk fill, tests). */
  filtersBuilt(): Promise<void> {
    return this.filtering;
  }

  /** Drops the segments of days before `firstKept` (YYYY-MM-DD); returns the entries gone. */
  async dropDaysBefore(firstKept: string): Promise<number> {
    let removed = 0;
    for (const segment of [...this.segments]) {
      if (segment.day < firstKept && this.idle(segment)) removed += await this.remove(segment);
    }
    return removed;
  }

  /**
   * While the log is over `maxBytes`, its oldest segments go (the one being written to included:
   * the next line starts a new one). Returns the entries gone.
   */
  async dropOldestOver(maxBytes: number): Promise<number> {
    let removed = 0;
    while (this.size() > maxBytes) {
      const oldest = this.segments.find((segment) => this.idle(segment));
      if (!oldest) break;
      removed += await this.remove(oldest);
    }
    return removed;
  }

  /** Deletes every segment (buffered lines dropped); returns the entries there were. */
  async clear(): Promise<number> {
    let removed = 0;
    for (const segment of [...this.segments]) {
      removed += segment.pending.length;
      segment.pending = [];
      segment.pendingBytes = 0;
      removed += await this.remove(segment);
    }
    return removed;
  }

  /**
   * A segment's index records, kept once read: a filtered page tests every record of the log,
   * and reading 16 bytes an entry from disk for each such page cost seconds at a million
   * entries. A segment's index only grows (its records never change): what was read is kept
   * and only the records written since are read.
   */
  private async indexOf(segment: Segment<T>): Promise<Uint32Array> {
    if (segment.indexBytes === 0) return new Uint32Array(0);
    const known = segment.index;
    if (known !== null && known.byteLength === segment.indexBytes) return known;
    const from = known !== null && known.byteLength < segment.indexBytes ? known.byteLength : 0;
    const bytes = Buffer.alloc(segment.indexBytes);
    if (from > 0 && known !== null) bytes.set(new Uint8Array(known.buffer, known.byteOffset, from));
    const handle = await openToRead(indexPathOf(segment.path));
    if (!handle) return new Uint32Array(0);
    try {
      await handle.read(bytes, from, bytes.length - from, from);
    } finally {
      await handle.close();
    }
    const words = recordWords(bytes);
    // Kept when whole: the length read is still the segment's (no write or cut meanwhile).
    if (words.byteLength === segment.indexBytes && this.segments.includes(segment)) {
      segment.index = words;
      this.touch(segment);
    }
    return words;
  }

  // ——— What is kept in memory of the segments (indexes, filters), within CACHE_BYTES ———

  private static memoryOf(segment: Segment<unknown>): number {
    return (segment.index?.byteLength ?? 0) + (segment.grams?.fileBytes ?? 0);
  }

  /** A segment's index or filter was read or used: it is the last to go. */
  private touch(segment: Segment<T>): void {
    cache.bytes -= cache.segments.get(segment) ?? 0;
    cache.segments.delete(segment);
    const bytes = SegmentLog.memoryOf(segment);
    if (bytes === 0) return;
    cache.segments.set(segment, bytes);
    cache.bytes += bytes;
    for (const [oldest] of cache.segments) {
      if (cache.bytes <= CACHE_BYTES || oldest === segment) break;
      uncache(oldest);
    }
  }

  private uncache(segment: Segment<T>): void {
    uncache(segment);
  }

  /**
   * Whether a segment's filter says none of its indexed entries can match: a text none of them
   * holds, a user none of them is, a time outside theirs (decision 134). Its index is then not
   * read at all.
   */
  private async cannotHold(
    segment: Segment<T>,
    filter: PageRequest['filter'],
    texts: readonly string[],
  ): Promise<boolean> {
    const hasTime = filter.from > segment.dayStart || filter.to < segment.dayStart + DAY_MS;
    if (texts.length === 0 && filter.userId === undefined && !hasTime) return false;
    const found = await this.filterOf(segment);
    if (found === null) return false;
    if (texts.length > 0 && !mayHoldAny(found, texts)) return true;
    const entries = found.entries;
    if (entries === null) return false;
    if (filter.userId !== undefined && !entries.mayHoldUser(textHash(filter.userId))) return true;
    return (
      hasTime && !entries.mayHoldTime(filter.from - segment.dayStart, filter.to - segment.dayStart)
    );
  }

  /** The indexes of the segments of [firstDay, lastDay] a page may read, a few at a time. */
  private async readIndexes(
    segments: readonly Segment<T>[],
    filter: PageRequest['filter'],
    firstDay: string,
    lastDay: string,
  ): Promise<void> {
    const queue = segments.filter(
      (segment) =>
        segment.day >= firstDay &&
        segment.day <= lastDay &&
        segment.indexBytes > 0 &&
        segment.index?.byteLength !== segment.indexBytes,
    );
    const worker = async () => {
      for (let segment = queue.pop(); segment; segment = queue.pop()) {
        if (await this.cannotHold(segment, filter, [])) continue;
        // Counted from its filter's counts unless the page is in it (read then, in the page).
        if ((await this.countsFor(segment, filter)) === null) await this.indexOf(segment);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }

  /** Where the line of record `r` ends (its newline excluded). */
  private static lineStop(segment: Segment<unknown>, words: Uint32Array, r: number): number {
    return (r + 1 < words.length / 4 ? (words[(r + 1) * 4] as number) : segment.indexedBytes) - 1;
  }

  /** The entries of records of one segment, in the order given. */
  private async linesAt(
    segment: Segment<T>,
    words: Uint32Array,
    records: readonly number[],
  ): Promise<(LoggedQuestion | null)[]> {
    if (records.length === 0) return [];
    const starts = records.map((r) => words[r * 4] as number);
    const stops = records.map((r) => SegmentLog.lineStop(segment, words, r));
    const low = Math.min(...starts);
    const span = Buffer.alloc(Math.max(...stops) - low);
    const handle = await openToRead(segment.path);
    if (!handle) return records.map(() => null);
    try {
      await handle.read(span, 0, span.length, low);
    } finally {
      await handle.close();
    }
    return records.map((_, i) =>
      decodeLine(
        span.toString('utf8', (starts[i] as number) - low, (stops[i] as number) - low),
        segment.dayStart,
      ),
    );
  }

  /**
   * A page, newest first (written entries: the owner writes what is buffered first). The
   * filter's indexed parts are tested on the records, whose lines are read for the entries
   * returned only. `total` counts the matching records (an entry whose user or rule merely
   * shares a hash with the one asked for would count, once in four billion); with a text filter
   * it is null unless the scan reached the oldest entry.
   */
  async page(request: PageRequest): Promise<PageResult> {
    const { filter, offset, limit } = request;
    const match = request.before === null ? null : CURSOR.exec(request.before);
    const cursor = match?.[1]
      ? { day: match[1], seq: Number(match[2]), record: Number(match[3]) }
      : null;
    const firstDay = dayOf(Math.min(Math.max(0, filter.from), LAST_TIME));
    const lastDay = dayOf(Math.min(Math.max(0, filter.to - 1), LAST_TIME));
    const indexedOnly =
      filter.outcome === undefined &&
      filter.source === undefined &&
      filter.userId === undefined &&
      filter.ruleId === undefined;
    const texts = filter.text === undefined ? [] : textVariants(filter.text);
    const variants = filter.text === undefined ? null : texts.map((v) => Buffer.from(v));
    const found: Found<T>[] = [];
    const codes = codeTest(filter);
    let matched = 0;
    let complete = true;
    /** Records a text search read, the cursor where the budget stopped it, what it left. */
    let read = 0;
    let stopped: string | null = null;
    let unread = 0;
    // The segments as they are now: the budgets may drop some while the page is read.
    const segments = [...this.segments];
    let sliceStart = performance.now();
    // A filter the index answers counts every record of the days: their indexes read at once,
    // a few files at a time (one after the other, the reads of a cold log took seconds).
    if (!indexedOnly && variants === null)
      await this.readIndexes(segments, filter, firstDay, lastDay);
    for (let s = segments.length - 1; s >= 0; s--) {
      const segment = segments[s] as Segment<T>;
      if (segment.day < firstDay || segment.day > lastDay) continue;
      if (
        cursor &&
        (segment.day > cursor.day || (segment.day === cursor.day && segment.seq > cursor.seq))
      )
        continue;
      // The lines not written yet follow its indexed records (taken together: a write may end
      // meanwhile), and are read from memory: a page never waits for a write and its sync.
      const tail =
        segment.writing.length > 0 ? [...segment.writing, ...segment.pending] : segment.pending;
      const count = segment.indexBytes / RECORD_BYTES;
      const atCursor = cursor !== null && segment.day === cursor.day && segment.seq === cursor.seq;
      const top = atCursor
        ? Math.min(count + tail.length, cursor.record) - 1
        : count + tail.length - 1;
      const whole =
        indexedOnly &&
        variants === null &&
        filter.from <= segment.dayStart &&
        segment.dayStart + DAY_MS <= filter.to;
      if (whole && (matched >= offset + limit || matched + top + 1 <= offset)) {
        // Counting only: every record of the segment matches, and the page is not in it (after
        // it, or before it: a deep page seeks to its segment without reading the newer ones).
        matched += top + 1;
        continue;
      }
      for (let r = top; r >= count; r--) {
        const entry = decodeLine((tail[r - count] as Pending<T>).line, segment.dayStart);
        if (!entry || !entryMatches(entry, filter)) continue;
        matched += 1;
        if (matched > offset && found.length < limit)
          found.push({ segment, words: NO_WORDS, record: r, entry });
      }
      const last = Math.min(top, count - 1);
      if (variants !== null) {
        const wanted = offset + limit + 1 - matched;
        if (wanted <= 0) {
          complete = false;
          unread = last + 1 + olderRecords(segments, s, firstDay);
          break;
        }
      }
      // A segment whose filter says it cannot hold a match is searched without being read.
      if (last >= 0 && (await this.cannotHold(segment, filter, texts))) continue;
      // A closed segment the page is not in (after it, or before it) is counted from its
      // filter's counts, its index not read (decision 140).
      const counts = !atCursor && tail.length === 0 ? await this.countsFor(segment, filter) : null;
      if (counts !== null) {
        const ruleHash = filter.ruleId === undefined ? null : textHash(filter.ruleId);
        const n = counts.count(codes, ruleHash);
        if (matched >= offset + limit || matched + n <= offset) {
          matched += n;
          continue;
        }
      }
      const words = await this.indexOf(segment);
      const test = recordTest(filter, segment.dayStart);
      if (variants !== null) {
        const wanted = offset + limit + 1 - matched;
        // The records this page may still read: down to `floor` in this segment.
        const floor = Math.max(0, last + 1 - (this.searchBudget - read));
        const scanned = await this.scan(segment, words, last, floor, test, variants, wanted);
        read += last + 1 - scanned.stop;
        for (const record of scanned.records) {
          matched += 1;
          if (matched > offset && found.length < limit) found.push({ segment, words, record });
        }
        if (scanned.stop > 0) {
          complete = false;
          unread = scanned.stop + olderRecords(segments, s, firstDay);
          // Stopped by the budget (not by a full page): the search continues below `stop`.
          if (scanned.records.length < wanted)
            stopped = `${segment.day}.${segment.seq}.${scanned.stop}`;
          break;
        }
        continue;
      }
      for (let r = last; r >= 0; r--) {
        if (!test(words, r)) continue;
        matched += 1;
        if (matched > offset && found.length < limit) found.push({ segment, words, record: r });
      }
      // The asks come between segments once the page has worked a slice: a turn after each of
      // a hundred segments cost more than their records' tests on a busy machine.
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    const entries: LoggedQuestion[] = [];
    for (let i = 0; i < found.length;) {
      const first = found[i] as Found<T>;
      if (first.entry) {
        entries.push(first.entry);
        i += 1;
        continue;
      }
      let j = i;
      while (
        j < found.length &&
        (found[j] as Found<T>).segment === first.segment &&
        !(found[j] as Found<T>).entry
      )
        j++;
      const records = found.slice(i, j).map((f) => f.record);
      for (const entry of await this.linesAt(first.segment, first.words, records)) {
        if (entry && entryMatches(entry, filter)) entries.push(entry);
      }
      i = j;
    }
    const lastFound = found.at(-1);
    const more = matched > offset + found.length || !complete;
    const next =
      more && lastFound && found.length === limit
        ? `${lastFound.segment.day}.${lastFound.segment.seq}.${lastFound.record}`
        : stopped;
    if (variants === null) return { entries, total: complete ? matched : null, next };
    // How far the search got, in the entries of the days searched: from the newest to where
    // this page stopped (earlier pages of the same search included).
    const inDays = olderRecords(segments, segments.length, firstDay, lastDay);
    const searched = { entries: inDays - unread, of: inDays };
    return { entries, total: complete ? matched : null, next, searched };
  }

  /**
   * Scans a segment's lines for the spellings of a text, newest first, from record `last` down:
   * the records whose lines hold one (and whose indexed parts pass `test`), at most `wanted`,
   * none below record `floor` (the page's budget). `stop`: the first record not read (0: the
   * scan reached the segment's first record).
   */
  private async scan(
    segment: Segment<T>,
    words: Uint32Array,
    last: number,
    floor: number,
    test: RecordTest,
    needles: readonly Buffer[],
    wanted: number,
  ): Promise<{ records: number[]; stop: number }> {
    const records: number[] = [];
    if (last < 0) return { records, stop: 0 };
    const handle = await openToRead(segment.path);
    if (!handle) return { records, stop: 0 };
    let record = last;
    try {
      while (record >= floor) {
        const to = SegmentLog.lineStop(segment, words, record) + 1;
        // A chunk of whole lines ending with record `record`'s, none below the floor.
        let first = record;
        while (first > floor && to - (words[(first - 1) * 4] as number) <= CHUNK_BYTES) first--;
        const from = words[first * 4] as number;
        const bytes = Buffer.alloc(to - from);
        await handle.read(bytes, 0, bytes.length, from);
        const candidates = new Set<number>();
        for (const needle of needles) {
          for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
            candidates.add(recordAt(words, first, record, from + at));
          }
        }
        for (const r of [...candidates].sort((a, b) => b - a)) {
          if (!test(words, r)) continue;
          const start = (words[r * 4] as number) - from;
          const stop = SegmentLog.lineStop(segment, words, r) - from;
          const entry = decodeLine(bytes.toString('utf8', start, stop), segment.dayStart);
          if (!entry) continue;
          // The spelling may be in another field of the line (a rule id, the channel).
          if (
            !needles.some(
              (n) => entry.question.includes(n.toString()) || entry.userId.includes(n.toString()),
            )
          )
            continue;
          records.push(r);
          if (records.length >= wanted) return { records, stop: r };
        }
        record = first - 1;
        await nextTurn();
      }
    } finally {
      await handle.close();
    }
    return { records, stop: record + 1 };
  }

  /** What an export of the entries in [from, to) reads: the segments as written now. */
  exportJob(from: number, to: number): ExportJob {
    const firstDay = dayOf(Math.min(Math.max(0, from), LAST_TIME));
    const lastDay = dayOf(Math.min(Math.max(0, to - 1), LAST_TIME));
    const segments = this.segments
      .filter((segment) => segment.day >= firstDay && segment.day <= lastDay)
      .map(({ path, dayStart, indexedBytes }) => ({ path, dayStart, bytes: indexedBytes }));
    return { segments, from, to };
  }

  /** The entries in [from, to), oldest first, a slice at a time (written ones). */
  async *slices(from: number, to: number): AsyncGenerator<LoggedQuestion[]> {
    const firstDay = dayOf(Math.min(Math.max(0, from), LAST_TIME));
    const lastDay = dayOf(Math.min(Math.max(0, to - 1), LAST_TIME));
    for (const segment of [...this.segments]) {
      if (segment.day < firstDay || segment.day > lastDay) continue;
      let slice: LoggedQuestion[] = [];
      for await (const { text } of this.lineStream(segment.path, 0, segment.indexedBytes)) {
        const entry = decodeLine(text, segment.dayStart);
        if (entry && entry.at >= from && entry.at < to) slice.push(entry);
        if (slice.length >= SLICE_ENTRIES) {
          yield slice;
          slice = [];
          // The asks come between slices (an export's consumer may not wait for the disk).
          await nextTurn();
        }
      }
      if (slice.length > 0) yield slice;
    }
  }
}
