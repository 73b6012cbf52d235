/**
 * A closed segment's text filter (`.grams` beside its `.jsonl`): one bit per hashed trigram (three
 * UTF-16 code units) of every question and user id its lines hold, written once the segment is
 * closed (a newer one took over). A text search skips a segment whose filter lacks a trigram of
 * each spelling it looks for: such a segment cannot hold the text, and its bytes are not read
 * (decision 106). A spelling of fewer than three code units is never skipped; a filter may say
 * "maybe" wrongly (two trigrams on one bit), never "no" wrongly.
 *
 * The file: a header of 8 bytes (the segment's line bytes the filter covers, as a uint32, and the
 * filter's byte length, as a uint32), then the bits. A filter covering fewer bytes than the
 * segment holds (a line written to it after it closed) is not used.
 *
 * Since decision 134 the file goes on with the segment's entries as its index says them (made
 * from the index's records, not from the lines): the earliest and latest time in its day (two
 * uint32: a time filter skips a segment outside them), then a Bloom filter of its user ids'
 * hashes (its byte length as a uint32, then the bits: a search by user id skips a segment that
 * cannot hold the user without reading its index). A file of the first form is still read (its
 * segment is searched by its index for users and times, and gets a filter of the second form
 * in the background).
 *
 * Since decision 140 it ends with the entries' counts, made from the index too: 16 uint32 (the
 * entries of each index code: outcome and source, segment-index.ts `recordCode`), the number of
 * (rule, code) pairs as a uint32, each pair as its rule hash and `code << 28 | count` (two
 * uint32), and one byte, 3: the form (a file of this form is the only one of odd length). A
 * page filtered by outcome, source or rule counts such a segment for its total without reading
 * its index (the files of the second form get one made in the background).
 * @module
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { FILE_MODE } from '../../../files/durable-fs';

const HEADER_BYTES = 8;
/** The second form's part before the user bits: first time, last time, user bits' length. */
const ENTRIES_HEADER_BYTES = 12;
/** User filter bits per entry, and bits set per user: about one false "maybe" in 400. */
const USER_BITS_PER_ENTRY = 16;
const USER_PROBES = 4;
/** Filter bytes per segment byte (1/64): about 1.5% of the log. */
const BYTES_PER_FILTER_BYTE = 64;
const FILTER_MIN = 1024;
/** The third form's counts: one per index code, then the pairs' number; its last byte. */
const CODES = 16;
const COUNTS_HEADER_BYTES = CODES * 4 + 4;
const THIRD_FORM = 3;
const COUNT_BITS = 28;
const COUNT_MASK = (1 << COUNT_BITS) - 1;
const FILTER_MAX = 64 * 1024;

/** The filter's size for a segment of `bytes`: a power of two within bounds. */
export function filterBytesFor(bytes: number): number {
  let size = FILTER_MIN;
  while (size < FILTER_MAX && size * BYTES_PER_FILTER_BYTE < bytes) size *= 2;
  return size;
}

export const gramsPathOf = (segmentPath: string): string =>
  `${segmentPath.slice(0, -'.jsonl'.length)}.grams`;

/** The bit of the trigram starting at `i` (a mix of its three code units). */
function gramBit(text: string, i: number, mask: number): number {
  let hash = Math.imul(text.charCodeAt(i), 0x9e3779b1);
  hash = Math.imul(hash ^ text.charCodeAt(i + 1), 0x85ebca77);
  hash = Math.imul(hash ^ text.charCodeAt(i + 2), 0xc2b2ae3d);
  return (hash ^ (hash >>> 15)) & mask;
}

/** Whether `bytes` (a file's length less its header) is a power of two (a first-form file). */
const isPowerOfTwo = (bytes: number) => bytes > 0 && (bytes & (bytes - 1)) === 0;

/** Whether a filter file of `fileBytes` is of the first form (no user filter, no times). */
export const isFirstForm = (fileBytes: number): boolean => isPowerOfTwo(fileBytes - HEADER_BYTES);

/**
 * Whether a filter file of `fileBytes` is of the third form (with counts): the only odd length
 * (the other forms are a header of 8 or 20 bytes and powers of two of at least 1,024 bytes).
 */
export const isThirdForm = (fileBytes: number): boolean => fileBytes % 2 === 1;

/**
 * How many of a segment's entries have each index code (outcome and source) and each rule with
 * each code, as its index says them: a filter by outcome, source or rule counts the segment from
 * them (decision 140).
 */
export class EntryCounts {
  private rulesRead: ReadonlyMap<number, number> | null;
  /** The pairs as written (8 bytes each), until the map is made of them. */
  private pairs: Uint8Array | null;

  constructor(
    /** Entries per code. */
    readonly codes: Uint32Array,
    /**
     * Entries per rule hash and code: `hash * CODES + code` → count; or the file's pairs, made
     * into that map only when a rule is counted (decision 176): the first search by user read
     * every segment's filter for its users and spent most of its CPU making maps of rules.
     */
    rules: ReadonlyMap<number, number> | Uint8Array,
  ) {
    const pairs = rules instanceof Uint8Array ? rules : null;
    this.pairs = pairs;
    this.rulesRead = pairs === null ? (rules as ReadonlyMap<number, number>) : null;
  }

  /** Whether the map of rules was made (a filter read back makes it once a rule is counted). */
  get rulesMade(): boolean {
    return this.rulesRead !== null;
  }

  /** Entries per rule hash and code: `hash * CODES + code` → count. */
  get rules(): ReadonlyMap<number, number> {
    if (this.rulesRead === null) {
      const rules = new Map<number, number>();
      const pairs = this.pairs ?? new Uint8Array(0);
      const view = new DataView(pairs.buffer, pairs.byteOffset, pairs.byteLength);
      for (let pair = 0; pair < pairs.byteLength; pair += 8) {
        const packed = view.getUint32(pair + 4, true);
        rules.set(
          view.getUint32(pair, true) * CODES + (packed >>> COUNT_BITS),
          packed & COUNT_MASK,
        );
      }
      this.rulesRead = rules;
      this.pairs = null;
    }
    return this.rulesRead;
  }

  /** The counts of the entries whose codes and rule hashes (0: none) `each` gives. */
  static of(each: (add: (code: number, ruleHash: number) => void) => void) {
    const codes = new Uint32Array(CODES);
    const rules = new Map<number, number>();
    each((code, ruleHash) => {
      codes[code] = (codes[code] as number) + 1;
      if (ruleHash === 0) return;
      const key = ruleHash * CODES + code;
      rules.set(key, (rules.get(key) ?? 0) + 1);
    });
    return new EntryCounts(codes, rules);
  }

  /** Entries of the codes `wanted` accepts, and of rule `ruleHash` when given. */
  count(wanted: (code: number) => boolean, ruleHash: number | null): number {
    let total = 0;
    for (let code = 0; code < CODES; code++) {
      if (!wanted(code)) continue;
      total +=
        ruleHash === null
          ? (this.codes[code] as number)
          : (this.rules.get(ruleHash * CODES + code) ?? 0);
    }
    return total;
  }

  get fileBytes(): number {
    const pairs = this.pairs === null ? this.rules.size * 8 : this.pairs.byteLength;
    return COUNTS_HEADER_BYTES + pairs + 1;
  }

  write(into: Buffer, at: number): void {
    for (let code = 0; code < CODES; code++)
      into.writeUInt32LE(this.codes[code] as number, at + code * 4);
    into.writeUInt32LE(this.rules.size, at + CODES * 4);
    let pair = at + COUNTS_HEADER_BYTES;
    for (const [key, count] of this.rules) {
      into.writeUInt32LE(Math.floor(key / CODES), pair);
      into.writeUInt32LE(
        (((key % CODES) << COUNT_BITS) | Math.min(count, COUNT_MASK)) >>> 0,
        pair + 4,
      );
      pair += 8;
    }
    into.writeUInt8(THIRD_FORM, pair);
  }

  /** The counts written at `at` (to the end of `bytes`), or null when they are not whole. */
  static parse(bytes: Buffer, at: number): EntryCounts | null {
    if (bytes.length < at + COUNTS_HEADER_BYTES + 1) return null;
    const pairs = bytes.readUInt32LE(at + CODES * 4);
    const end = at + COUNTS_HEADER_BYTES + pairs * 8;
    if (bytes.length !== end + 1 || bytes[end] !== THIRD_FORM) return null;
    const codes = new Uint32Array(CODES);
    for (let code = 0; code < CODES; code++) codes[code] = bytes.readUInt32LE(at + code * 4);
    // A copy: the file's bytes (its trigrams) are not kept for them.
    return new EntryCounts(codes, new Uint8Array(bytes.subarray(at + COUNTS_HEADER_BYTES, end)));
  }
}

/**
 * A segment's entries as its index says them: the earliest and latest time in its day, and a
 * Bloom filter of its users' hashes (segment-index.ts `textHash`).
 */
export class EntryFilter {
  private readonly mask: number;

  constructor(
    readonly firstTime: number,
    readonly lastTime: number,
    readonly users: Uint8Array,
  ) {
    this.mask = users.length * 8 - 1;
  }

  /** The filter of `count` entries whose user hashes and times `each` gives. */
  static of(count: number, each: (add: (userHash: number, time: number) => void) => void) {
    let size = FILTER_MIN;
    while (size < FILTER_MAX && size * 8 < count * USER_BITS_PER_ENTRY) size *= 2;
    let firstTime = 0xffffffff;
    let lastTime = 0;
    const users = new Uint8Array(size);
    const filter = new EntryFilter(0, 0, users);
    each((userHash, time) => {
      firstTime = Math.min(firstTime, time);
      lastTime = Math.max(lastTime, time);
      filter.probe(userHash, (bit) => {
        users[bit >>> 3] = (users[bit >>> 3] as number) | (1 << (bit & 7));
        return true;
      });
    });
    return new EntryFilter(count === 0 ? 0 : firstTime, lastTime, users);
  }

  /** Calls `at` with each bit of a user's hash while it returns true; whether all did. */
  private probe(userHash: number, at: (bit: number) => boolean): boolean {
    // Double hashing: a second hash mixed from the first.
    let second = Math.imul(userHash ^ (userHash >>> 16), 0x45d9f3b);
    second = (second ^ (second >>> 16)) | 1;
    for (let i = 0; i < USER_PROBES; i++) {
      if (!at((userHash + Math.imul(i, second)) & this.mask)) return false;
    }
    return true;
  }

  /** Whether the segment may hold an entry of the user of this hash (false: it holds none). */
  mayHoldUser(userHash: number): boolean {
    return this.probe(
      userHash,
      (bit) => ((this.users[bit >>> 3] as number) & (1 << (bit & 7))) !== 0,
    );
  }

  /** Whether the segment may hold an entry whose time in its day is in [from, to). */
  mayHoldTime(from: number, to: number): boolean {
    return this.lastTime >= from && this.firstTime < to;
  }

  get fileBytes(): number {
    return ENTRIES_HEADER_BYTES + this.users.length;
  }
}

export class GramFilter {
  private readonly mask: number;

  constructor(
    readonly bits: Uint8Array,
    /** The segment's line bytes it covers. */
    readonly covers: number,
    /** Its entries' users and times (null: a file of the first form). */
    readonly entries: EntryFilter | null = null,
    /** Its entries' counts by code and rule (null: a file of the first or second form). */
    readonly counts: EntryCounts | null = null,
  ) {
    this.mask = bits.length * 8 - 1;
  }

  static empty(bytes: number): GramFilter {
    return new GramFilter(new Uint8Array(filterBytesFor(bytes)), 0);
  }

  add(text: string): void {
    for (let i = 0; i + 2 < text.length; i++) {
      const bit = gramBit(text, i, this.mask);
      this.bits[bit >>> 3] = (this.bits[bit >>> 3] as number) | (1 << (bit & 7));
    }
  }

  /** Whether some text added may hold `text` (false: none does). */
  mayHold(text: string): boolean {
    for (let i = 0; i + 2 < text.length; i++) {
      const bit = gramBit(text, i, this.mask);
      if (((this.bits[bit >>> 3] as number) & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }

  /** The same bits, covering `bytes` of the segment (with its entries' filter and counts). */
  covering(
    bytes: number,
    entries: EntryFilter | null = this.entries,
    counts: EntryCounts | null = this.counts,
  ): GramFilter {
    return new GramFilter(this.bits, bytes, entries, entries === null ? null : counts);
  }

  get fileBytes(): number {
    const counts = this.entries === null ? 0 : (this.counts?.fileBytes ?? 0);
    return HEADER_BYTES + this.bits.length + (this.entries?.fileBytes ?? 0) + counts;
  }

  /** Writes the filter beside its segment (whole or not at all: a torn file is not read). */
  async save(path: string): Promise<void> {
    const bytes = Buffer.alloc(this.fileBytes);
    bytes.writeUInt32LE(this.covers, 0);
    bytes.writeUInt32LE(this.bits.length, 4);
    bytes.set(this.bits, HEADER_BYTES);
    const entries = this.entries;
    if (entries) {
      const at = HEADER_BYTES + this.bits.length;
      bytes.writeUInt32LE(entries.firstTime, at);
      bytes.writeUInt32LE(entries.lastTime, at + 4);
      bytes.writeUInt32LE(entries.users.length, at + 8);
      bytes.set(entries.users, at + ENTRIES_HEADER_BYTES);
      this.counts?.write(bytes, at + entries.fileBytes);
    }
    const temporary = `${path}.tmp`;
    try {
      await writeFile(temporary, bytes, { mode: FILE_MODE });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** A filter read back (of either form), or null when the file is not a whole one. */
  static parse(bytes: Buffer): GramFilter | null {
    if (bytes.length < HEADER_BYTES) return null;
    const length = bytes.readUInt32LE(4);
    if (!isPowerOfTwo(length) || bytes.length < HEADER_BYTES + length) return null;
    const bits = new Uint8Array(bytes.subarray(HEADER_BYTES, HEADER_BYTES + length));
    const covers = bytes.readUInt32LE(0);
    const at = HEADER_BYTES + length;
    if (bytes.length === at) return new GramFilter(bits, covers);
    if (bytes.length < at + ENTRIES_HEADER_BYTES) return null;
    const usersLength = bytes.readUInt32LE(at + 8);
    const usersEnd = at + ENTRIES_HEADER_BYTES + usersLength;
    if (!isPowerOfTwo(usersLength) || bytes.length < usersEnd) return null;
    const users = new Uint8Array(bytes.subarray(at + ENTRIES_HEADER_BYTES, usersEnd));
    const entries = new EntryFilter(bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4), users);
    if (bytes.length === usersEnd) return new GramFilter(bits, covers, entries);
    const counts = EntryCounts.parse(bytes, usersEnd);
    return counts === null ? null : new GramFilter(bits, covers, entries, counts);
  }
}

/**
 * Whether a segment whose filter is `filter` may hold one of `variants` (the spellings a text
 * search looks for): always, without a filter or for a spelling too short to have a trigram.
 */
export function mayHoldAny(filter: GramFilter | null, variants: readonly string[]): boolean {
  if (filter === null) return true;
  return variants.some((variant) => variant.length < 3 || filter.mayHold(variant));
}
