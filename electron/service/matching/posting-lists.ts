/**
 * The posting lists of every term, kept in shared chunks rather than in typed arrays of their
 * own. A typed array costs ~180 bytes of object headers (the view and its ArrayBuffer) whatever
 * its length, and most terms of a large knowledge base occur in one or two rules (codes, names,
 * numbers): at 100k benchmark rules, three small arrays per term took ~75 MB of headers for
 * ~5 MB of postings. Here a term's list is a run of one chunk (chunk index, start, room); a list
 * that outgrows its run moves to a run twice as large, and the run it leaves is reused by the
 * next list growing to that size. Long lists get a chunk of their own.
 *
 * A posting is a rule slot and a weight's code (6 bytes): the rule version's key (its first
 * phrasing id, by which a replaced version's postings are found) is not stored, since a live
 * posting's key is its rule's current first phrasing, and a tombstone keeps its key in its slot
 * (~key). A weight is log(1 + share / α) of a few sums of 1/√n, so few values recur: 100k
 * benchmark rules have 2,914 distinct weights among 3.76M postings. A posting holds the index of
 * its Float32 weight in a table of the distinct ones (2 bytes, not 4: 7 MB less at 100k), and
 * scoring reads the same Float32 value as before.
 * @module
 */
import type { SnapshotReader, SnapshotWriter } from './binary-snapshot';
import { ensureCapacity } from './typed-arrays';

/** Postings per shared chunk (two arrays of 256 KiB). */
const CHUNK = 1 << 16;
/**
 * Lists this long get arrays of their own (freed whole when the list moves on): a few hundred
 * common terms at 100k rules, whose runs, once left, no other list would grow into.
 */
const OWN_CHUNK = 512;
/**
 * Growth of lists with arrays of their own: by a quarter, not double, since most postings sit in
 * them (100k benchmark rules: 4.6M postings of room for 3.8M live, against 6.7M when doubling;
 * each posting is then copied about four times while the list grows, 12 bytes a copy).
 */
const OWN_GROWTH = 1.25;
/**
 * A new list's room: one posting, since most terms of a large knowledge base stay in one rule
 * (100k benchmark rules: ~100k such terms, 2.4 MB of room for 4 left unused), and a run left
 * by a list that moved on is taken by the next list growing to its size.
 */
const FIRST_ROOM = 1;
/** Codes fit two bytes up to this many distinct weights; past it every code takes four. */
const NARROW_CODES = 1 << 16;

/** Per posting, the index of its weight in `PostingLists.weightTable`. */
export type WeightCodes = Uint16Array | Int32Array;

export class PostingLists {
  /**
   * A posting is the same index of two parallel chunks: the rule's slot and the code of the
   * rule's Naive Bayes weight for the term (`weightTable[code]`). Once that version of the rule
   * was replaced or removed, the slot holds ~key (negative: skipped by scoring) and the code 0
   * (weight 0). Keys (the rule version's first phrasing id) increase along each list, so that a
   * rule's posting is found by binary search.
   */
  slotChunks: Int32Array[] = [];
  weightChunks: WeightCodes[] = [];
  /** The distinct weights as Float32 (what a posting's weight was stored as before codes). */
  weightTable = new Float32Array(64);
  private weightCount = 1;
  /** Code of each weight in the table; rebuilt from the table on the first add after opening. */
  private weightCodes: WeightCodeTable | null = null;
  /** Past NARROW_CODES distinct weights, codes are Int32 (never met in the benchmark's data). */
  private wideCodes = false;
  private ownChunk: boolean[] = [];
  /** Per term: its chunk, where its run starts, how many postings it holds, and its room. */
  chunk = new Int32Array(1024);
  start = new Int32Array(1024);
  length = new Int32Array(1024);
  private room = new Int32Array(1024);
  /**
   * The largest weight ever posted for each term: an upper bound of what the term can add to
   * any rule's score, which lets scoring stop reading long lists early (see Scorer.shortlist).
   */
  max = new Float32Array(1024);
  /** Runs left by lists that moved, by room: chunk and start pairs. */
  private freeRuns = new Map<number, number[]>();
  private freeOwnChunks: number[] = [];
  private bumpChunk = -1;
  private bumpUsed = CHUNK;

  /** Makes room for terms `0..count-1` (new terms have empty lists). */
  ensureTerms(count: number): void {
    this.chunk = ensureCapacity(this.chunk, count);
    this.start = ensureCapacity(this.start, count);
    this.length = ensureCapacity(this.length, count);
    this.room = ensureCapacity(this.room, count);
    this.max = ensureCapacity(this.max, count);
  }

  /** Appends a posting of the rule in `slot`, whose first phrasing is now the largest key. */
  add(term: number, slot: number, weight: number): void {
    this.addCoded(term, slot, this.codeOf(weight), weight);
  }

  /**
   * `add` with the weight's code already taken (`code(weight)`): postings appended later than
   * their codes were taken (pending-postings.ts) keep the codes, so the table's order, and the
   * saved index, are those of appending each at once.
   */
  addCoded(term: number, slot: number, code: number, weight: number): void {
    const length = this.length[term] ?? 0;
    if (length >= (this.room[term] ?? 0)) this.move(term, length);
    const chunk = this.chunk[term] ?? 0;
    const at = (this.start[term] ?? 0) + length;
    (this.slotChunks[chunk] as Int32Array)[at] = slot;
    (this.weightChunks[chunk] as WeightCodes)[at] = code;
    this.length[term] = length + 1;
    if (weight > (this.max[term] ?? 0)) this.max[term] = weight;
  }

  /** The code of `weight` stored as Float32, a new one if that value was never posted. */
  codeOf(weight: number): number {
    const value = Math.fround(weight);
    let codes = this.weightCodes;
    if (codes === null) {
      codes = new WeightCodeTable();
      for (let c = 0; c < this.weightCount; c += 1) codes.insert(this.weightTable, c);
      this.weightCodes = codes;
    }
    const known = codes.find(this.weightTable, value);
    if (known >= 0) return known;
    const code = this.weightCount;
    if (code === NARROW_CODES && !this.wideCodes) this.widenCodes();
    this.weightTable = ensureCapacity(this.weightTable, code + 1);
    this.weightTable[code] = value;
    this.weightCount = code + 1;
    codes.insert(this.weightTable, code);
    return code;
  }

  private widenCodes(): void {
    this.wideCodes = true;
    this.weightChunks = this.weightChunks.map((codes) => Int32Array.from(codes));
  }

  /** The weights held, as many as there are distinct ones. */
  get weights(): Float32Array {
    return this.weightTable.subarray(0, this.weightCount);
  }

  /**
   * Tombstones the posting of the rule version `key` in the term's list (if present).
   * `firstPhrasing` maps a live posting's slot to its key (the rule's first phrasing id).
   */
  remove(term: number, key: number, firstPhrasing: ArrayLike<number>): void {
    const chunk = this.chunk[term] ?? 0;
    const slots = this.slotChunks[chunk];
    if (slots === undefined) return;
    const start = this.start[term] ?? 0;
    let low = start;
    let high = start + (this.length[term] ?? 0) - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = keyAt(slots[mid] ?? 0, firstPhrasing);
      if (value < key) low = mid + 1;
      else if (value > key) high = mid - 1;
      else {
        slots[mid] = ~key;
        (this.weightChunks[chunk] as WeightCodes)[mid] = 0;
        return;
      }
    }
  }

  /** Drops every posting (used by compaction, which re-adds the live ones). */
  clear(): void {
    this.length.fill(0);
    this.room.fill(0);
    this.max.fill(0);
    this.slotChunks = [];
    this.weightChunks = [];
    this.ownChunk = [];
    this.freeRuns.clear();
    this.freeOwnChunks = [];
    this.bumpChunk = -1;
    this.bumpUsed = CHUNK;
  }

  /**
   * Moves a full list to a larger run (twice its size in shared chunks, the old run left for the
   * next list growing to that size; a quarter larger in an array of its own).
   */
  private move(term: number, length: number): void {
    let room = FIRST_ROOM;
    while (room <= length && room < OWN_CHUNK) room *= 2;
    if (room <= length) room = Math.ceil((length * OWN_GROWTH) / 64) * 64;
    const [chunk, start] = this.allocate(room);
    const oldRoom = this.room[term] ?? 0;
    if (oldRoom > 0) {
      const oldChunk = this.chunk[term] ?? 0;
      const from = this.start[term] ?? 0;
      const to = from + length;
      (this.slotChunks[chunk] as Int32Array).set(
        (this.slotChunks[oldChunk] as Int32Array).subarray(from, to),
        start,
      );
      const codes = this.weightChunks[chunk] as WeightCodes;
      codes.set((this.weightChunks[oldChunk] as WeightCodes).subarray(from, to), start);
      this.release(oldChunk, from, oldRoom);
    }
    this.chunk[term] = chunk;
    this.start[term] = start;
    this.room[term] = room;
  }

  private allocate(room: number): [number, number] {
    if (room >= OWN_CHUNK) {
      const chunk = this.freeOwnChunks.pop() ?? this.slotChunks.length;
      this.putChunk(chunk, room, true);
      return [chunk, 0];
    }
    const free = this.freeRuns.get(room);
    if (free !== undefined && free.length > 0) {
      const start = free.pop() as number;
      return [free.pop() as number, start];
    }
    if (this.bumpUsed + room > CHUNK) {
      this.bumpChunk = this.slotChunks.length;
      this.putChunk(this.bumpChunk, CHUNK, false);
      this.bumpUsed = 0;
    }
    const start = this.bumpUsed;
    this.bumpUsed += room;
    return [this.bumpChunk, start];
  }

  private putChunk(chunk: number, size: number, own: boolean): void {
    this.slotChunks[chunk] = new Int32Array(size);
    this.weightChunks[chunk] = this.newCodes(size);
    this.ownChunk[chunk] = own;
  }

  private newCodes(size: number): WeightCodes {
    return this.wideCodes ? new Int32Array(size) : new Uint16Array(size);
  }

  private release(chunk: number, start: number, room: number): void {
    if (this.ownChunk[chunk] === true) {
      this.slotChunks[chunk] = new Int32Array(0);
      this.weightChunks[chunk] = this.newCodes(0);
      this.freeOwnChunks.push(chunk);
      return;
    }
    let free = this.freeRuns.get(room);
    if (free === undefined) {
      free = [];
      this.freeRuns.set(room, free);
    }
    free.push(chunk, start);
  }

  /**
   * Writes the lists of terms `0..terms-1` as flat arrays plus offsets (the saved format since
   * index format 6: slots as held, a tombstone's ~key included; since format 7 weights as codes
   * plus the table of distinct weights, format 6 wrote each posting's Float32 weight), run by run
   * as the snapshot is written, never gathered into arrays of their own first. Format 5 also wrote
   * every posting's key beside its slot: 4 bytes a posting (15 MB at 100k benchmark rules) that
   * an opened index kept in memory as part of the file's buffer, though only tombstones need one.
   */
  save(writer: SnapshotWriter, prefix: string, terms: number): void {
    const offsets = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t += 1) offsets[t + 1] = (offsets[t] ?? 0) + (this.length[t] ?? 0);
    const total = offsets[terms] ?? 0;
    const runs =
      (chunks: readonly (Int32Array | WeightCodes)[]) =>
      (put: (piece: Int32Array | WeightCodes) => void) => {
        for (let t = 0; t < terms; t += 1) {
          const length = this.length[t] ?? 0;
          if (length === 0) continue;
          const from = this.start[t] ?? 0;
          put(
            (chunks[this.chunk[t] ?? 0] as Int32Array | WeightCodes).subarray(from, from + length),
          );
        }
      };
    writer.array(`${prefix}.postings.offsets`, offsets);
    // The chunks are read when the snapshot is written (right after this, in one turn).
    writer.pieces(`${prefix}.postings.data`, 'i32', total, runs(this.slotChunks));
    const codeKind = this.wideCodes ? 'i32' : 'u16';
    writer.pieces(`${prefix}.postingWeights.codes`, codeKind, total, runs(this.weightChunks));
    writer.array(`${prefix}.postingWeights.table`, this.weightTable, this.weightCount);
  }

  /** Opens saved lists as one chunk holding them all, each term's run exactly its length. */
  static load(reader: SnapshotReader, prefix: string): PostingLists {
    const lists = new PostingLists();
    const offsets = reader.i32(`${prefix}.postings.offsets`);
    const terms = Math.max(0, offsets.length - 1);
    lists.ensureTerms(terms);
    const slots = reader.i32(`${prefix}.postings.data`);
    if (reader.hasArray(`${prefix}.postingKeys.data`)) {
      // Format 5: tombstones saved as −1 beside every posting's key take their keys back.
      const keys = reader.i32(`${prefix}.postingKeys.data`);
      for (let k = 0; k < slots.length; k += 1) {
        if ((slots[k] ?? 0) < 0) slots[k] = ~(keys[k] ?? 0);
      }
    }
    lists.slotChunks = [slots];
    const codes = PostingLists.loadCodes(lists, reader, prefix);
    lists.weightChunks = [codes];
    lists.ownChunk = [false];
    const table = lists.weightTable;
    for (let t = 0; t < terms; t += 1) {
      const from = offsets[t] ?? 0;
      const to = offsets[t + 1] ?? 0;
      lists.chunk[t] = 0;
      lists.start[t] = from;
      lists.length[t] = to - from;
      lists.room[t] = to - from;
      let max = 0;
      for (let k = from; k < to; k += 1) max = Math.max(max, table[codes[k] ?? 0] ?? 0);
      lists.max[t] = max;
    }
    return lists;
  }

  /**
   * The codes of saved postings, views on the file since format 7; a format 5 or 6 file's Float32
   * weights are coded into a new array (its weights stay in the file's bytes until the next save
   * writes format 7).
   */
  private static loadCodes(
    lists: PostingLists,
    reader: SnapshotReader,
    prefix: string,
  ): WeightCodes {
    const name = `${prefix}.postingWeights.codes`;
    if (reader.hasArray(name)) {
      lists.weightTable = reader.f32(`${prefix}.postingWeights.table`);
      lists.weightCount = lists.weightTable.length;
      lists.weightCodes = null;
      lists.wideCodes = reader.arrayKind(name) === 'i32';
      return lists.wideCodes ? reader.i32(name) : reader.u16(name);
    }
    const weights = reader.f32(`${prefix}.postingWeights.data`);
    let codes: WeightCodes = new Uint16Array(weights.length);
    for (let k = 0; k < weights.length; k += 1) {
      const code = lists.codeOf(weights[k] ?? 0);
      if (lists.wideCodes && codes instanceof Uint16Array) codes = Int32Array.from(codes);
      codes[k] = code;
    }
    return codes;
  }
}

const bitsView = new Float32Array(1);
const bitsOf = new Int32Array(bitsView.buffer);

/** A Float32 value's bits, one for 0 and −0 (equal as weights) and one for every NaN. */
function weightBits(value: number): number {
  if (value !== value) return 0x7fc00000;
  bitsView[0] = value === 0 ? 0 : value;
  return bitsOf[0] ?? 0;
}

/**
 * The code of each distinct weight: open addressing over the Float32 bits, codes + 1 in an
 * Int32Array (0: empty), the values themselves read from the weight table. A Map keyed by the
 * weights boxed every lookup's number and cost ~6% of an import's indexing time (issue 31,
 * decision 187); this one allocates nothing per posting. Where the table holds a value twice
 * (an older file), the lower code is found first, as the Map's rebuild kept it.
 */
class WeightCodeTable {
  private slots = new Int32Array(256);
  private count = 0;

  find(table: Float32Array, value: number): number {
    const mask = this.slots.length - 1;
    const wantNaN = value !== value;
    for (let at = hashBits(weightBits(value)) & mask; ; at = (at + 1) & mask) {
      const entry = this.slots[at] ?? 0;
      if (entry === 0) return -1;
      const held = table[entry - 1] ?? 0;
      if (held === value || (wantNaN && held !== held)) return entry - 1;
    }
  }

  insert(table: Float32Array, code: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow(table);
    this.place(table, code);
    this.count += 1;
  }

  private place(table: Float32Array, code: number): void {
    const mask = this.slots.length - 1;
    let at = hashBits(weightBits(table[code] ?? 0)) & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = code + 1;
  }

  private grow(table: Float32Array): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    for (const entry of old) if (entry !== 0) this.place(table, entry - 1);
  }
}

/** Spreads Float32 bits (whose low bits vary least among close weights) over a table's index. */
function hashBits(bits: number): number {
  const mixed = Math.imul(bits ^ (bits >>> 16), 0x45d9f3b);
  return (mixed ^ (mixed >>> 16)) >>> 0;
}

/** The key of a posting from its slot: a tombstone's own, a live rule's first phrasing. */
function keyAt(slot: number, firstPhrasing: ArrayLike<number>): number {
  return slot < 0 ? ~slot : (firstPhrasing[slot] ?? 0);
}
