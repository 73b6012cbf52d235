/**
 * The vectors of one robot's texts under one embedding model, held compactly: each distinct text
 * once (shared by the draft's and the published edition's rules), as int8 components with one
 * float scale that makes the stored vector unit length, so that a dot product is a cosine. The
 * rows live in a `VectorMemory` (vector-kernel.ts), whose kernel scores a question against all of
 * them at once (`scan`), or, in a large space, only the rows of the inverted lists nearest it
 * (`scanNear`, vector-lists.ts). A row's vector sits in a slot of the memory: slots follow rows
 * until the lists lay their rows out, each list's in one contiguous block (decision 125), so that
 * a probe reads its lists at the exhaustive scan's rate rather than one scattered row at a time.
 * @module
 */
import { VectorMemory } from './vector-kernel';
import { MIN_ROWS, VectorLists } from './vector-lists';

/** A text's vector, quantised: what the space keeps and the vector cache stores on disk. */
export interface QuantizedVector {
  /** Components scaled to −127..127. */
  values: Int8Array;
  /** Multiplier that makes `values` a unit vector. */
  scale: number;
}

/** Quantises a vector (any length but 0): int8 components, scaled back to unit length. */
export function quantize(vector: ArrayLike<number>): QuantizedVector {
  let max = 0;
  for (let i = 0; i < vector.length; i += 1) max = Math.max(max, Math.abs(vector[i] ?? 0));
  const values = new Int8Array(vector.length);
  if (!(max > 0) || !Number.isFinite(max)) return { values, scale: 0 };
  let norm = 0;
  for (let i = 0; i < vector.length; i += 1) {
    const q = Math.round(((vector[i] ?? 0) / max) * 127);
    values[i] = q;
    norm += q * q;
  }
  return { values, scale: norm > 0 ? 1 / Math.sqrt(norm) : 0 };
}

const NO_ROW = -1;

/**
 * What a scan scored: `values`, the cosines in the order of `ids` (the i-th row's at i; `ids`
 * null: every row up to `count`, by row); `cosines`, by row, those of an exhaustive scan and of
 * the rows scored since (`VectorSpace.scored` tells).
 */
export interface Scan {
  cosines: Float32Array;
  values: Float32Array;
  ids: Int32Array | null;
  count: number;
}

/**
 * Distinct texts and their vectors. A text has a row from the moment a rule holds it (its vector
 * may come later: `has` says); rows are reference-counted and reused once free.
 */
export class VectorSpace {
  private readonly rowOf = new Map<string, number>();
  private texts: string[] = [];
  private refs = new Int32Array(64);
  private filled = new Uint8Array(64);
  private scales = new Float32Array(64);
  private memory: VectorMemory | null = null;
  /** The cosines of the last scan, by row. */
  private cosines = new Float32Array(64);
  /** Bumped by every scan: a search's cosines are read from the scan that made them. */
  scans = 0;
  private readonly freeRows: number[] = [];
  private rowCount = 0;
  /** Rows whose text is held but whose vector has not arrived. */
  private waiting = 0;
  /** Rows given out without a vector, in order (`takeMissing` reads them once). */
  private queue: number[] = [];
  private queueHead = 0;
  /** Bumped when a vector arrives: searches and calibrations note what they saw. */
  generation = 0;
  /** The rows' inverted lists (used from `MIN_ROWS` rows on, once trained). */
  readonly lists: VectorLists;
  /** False: every scan is exact (the bench and the tests compare both). */
  approximate = true;
  /** The scan that last scored each row, when the last scan was not exhaustive. */
  private stamps = new Uint32Array(64);
  /** The cosines of the rows a probe scored, in its order. */
  private near = new Float32Array(64);
  /** The rows a probe scored, in its order, and the rows it gathers one by one. */
  private nearIds = new Int32Array(64);
  private strays = new Int32Array(64);
  private exhaustive = true;
  /** Each row's slot in the memory, and each slot's row (a permutation of 0..rows−1). */
  private slots = Int32Array.from({ length: 64 }, (_, i) => i);
  private slotRows = Int32Array.from({ length: 64 }, (_, i) => i);
  private scratch = new Int8Array(0);
  /** False: a probe gathers every listed row, laid out or not (the bench's baseline). */
  blocks = true;

  /**
   * `length`: the model's vector length, fixed by the first vector stored when not given.
   * `listMinRows`: rows from which searches go through the inverted lists (tests lower it).
   */
  constructor(
    private length = 0,
    listMinRows = MIN_ROWS,
  ) {
    if (length > 0) this.memory = new VectorMemory(length);
    this.lists = new VectorLists(this, listMinRows);
  }

  get dimensions(): number {
    return this.length;
  }

  /** Distinct texts held. */
  get size(): number {
    return this.rowOf.size;
  }

  /** Texts held whose vector has not arrived yet. */
  get missing(): number {
    return this.waiting;
  }

  /** Bytes of the vectors and their scales (what the space costs beyond its texts). */
  get bytes(): number {
    const rows = this.memory?.bytes ?? 0;
    const lists = this.lists.bytes + this.stamps.byteLength + 2 * this.slots.byteLength;
    return rows + lists + this.scales.byteLength + this.refs.byteLength + this.cosines.byteLength;
  }

  /** The row of `text`, taking a reference (a new text gets a row without a vector). */
  hold(text: string): number {
    let row = this.rowOf.get(text);
    if (row === undefined) {
      row = this.freeRows.pop() ?? this.rowCount++;
      this.grow(row + 1);
      this.rowOf.set(text, row);
      this.texts[row] = text;
      this.filled[row] = 0;
      this.scales[row] = 0;
      this.waiting += 1;
      this.queue.push(row);
    }
    this.refs[row] = (this.refs[row] ?? 0) + 1;
    return row;
  }

  /** Drops a reference; a row nobody holds is freed. */
  release(row: number): void {
    const left = (this.refs[row] ?? 0) - 1;
    this.refs[row] = left;
    if (left > 0) return;
    const text = this.texts[row];
    if (text !== undefined) this.rowOf.delete(text);
    if (this.filled[row] === 0) this.waiting -= 1;
    else this.lists.remove(row);
    this.filled[row] = 0;
    this.scales[row] = 0;
    this.texts[row] = '';
    this.freeRows.push(row);
  }

  rowOfText(text: string): number {
    return this.rowOf.get(text) ?? NO_ROW;
  }

  textOf(row: number): string {
    return this.texts[row] ?? '';
  }

  has(row: number): boolean {
    return this.filled[row] === 1;
  }

  /** Stores the vector of `text` if a rule holds it; false when its length is not the space's. */
  set(text: string, vector: QuantizedVector): boolean {
    if (this.length === 0 && vector.values.length > 0) this.length = vector.values.length;
    if (vector.values.length !== this.length) return false;
    const row = this.rowOf.get(text);
    if (row === undefined) return true;
    const memory = this.rowMemory();
    memory.rows.set(vector.values, (this.slots[row] as number) * memory.stride);
    this.scales[row] = vector.scale;
    if (this.filled[row] === 0) this.waiting -= 1;
    else this.lists.remove(row);
    this.filled[row] = 1;
    this.lists.add(row);
    this.generation += 1;
    return true;
  }

  /**
   * Up to `limit` texts held without a vector, each given once (in the order they came): the
   * embedder asks for them, and gives back with `putBack` those it could not embed.
   */
  takeMissing(limit: number): string[] {
    const out: string[] = [];
    const taken = new Set<number>();
    while (this.queueHead < this.queue.length && out.length < limit) {
      const row = this.queue[this.queueHead++] as number;
      if ((this.refs[row] ?? 0) > 0 && this.filled[row] === 0 && !taken.has(row)) {
        taken.add(row);
        out.push(this.texts[row] ?? '');
      }
    }
    if (this.queueHead > 4096 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    return out;
  }

  /** Texts `takeMissing` gave that got no vector: they are given again later. */
  putBack(texts: readonly string[]): void {
    for (const text of texts) {
      const row = this.rowOf.get(text);
      if (row !== undefined && this.filled[row] === 0) this.queue.push(row);
    }
  }

  private rowMemory(): VectorMemory {
    if (this.memory === null) this.memory = new VectorMemory(this.length);
    this.memory.ensure(this.refs.length);
    return this.memory;
  }

  /**
   * The cosine of `query` with every row (0 for a row without a vector), by row, for rows
   * 0..`rows`−1: valid until the next scan (`scans` tells).
   */
  scan(query: QuantizedVector): Float32Array {
    this.scans += 1;
    this.exhaustive = true;
    const rows = this.rowCount;
    if (this.cosines.length < this.refs.length) this.cosines = new Float32Array(this.refs.length);
    const cosines = this.cosines;
    if (this.memory === null || query.values.length !== this.length) {
      cosines.fill(0, 0, rows);
      return cosines;
    }
    const memory = this.rowMemory();
    memory.query.set(query.values);
    const dots = memory.dots(rows);
    const { scales, slotRows } = this;
    const scale = query.scale;
    for (let slot = 0; slot < rows; slot += 1) {
      const row = slotRows[slot] as number;
      cosines[row] = (dots[slot] as number) * scale * (scales[row] as number);
    }
    return cosines;
  }

  /**
   * The cosines of `query` with the rows of the lists nearest it when the lists are in use, in
   * the order of the probe (`values`; by row, only rows scored later by `scoreAlso`), else with
   * every row (`scan`). A list laid out in its block is read in one kernel call over the block;
   * its rows filed since (strays) are gathered one by one. Allocates no array once warm.
   */
  scanNear(query: QuantizedVector): Scan {
    const lists = this.lists;
    const probed =
      this.approximate && this.memory !== null && query.values.length === this.length
        ? lists.nearest(query.values)
        : null;
    if (probed === null) {
      const cosines = this.scan(query);
      return { cosines, values: cosines, ids: null, count: this.rowCount };
    }
    this.scans += 1;
    this.exhaustive = false;
    if (this.cosines.length < this.refs.length) this.cosines = new Float32Array(this.refs.length);
    const total = lists.probedRows(probed);
    if (this.near.length < total) {
      const size = Math.max(total, this.near.length * 2);
      this.near = new Float32Array(size);
      this.nearIds = new Int32Array(size);
      this.strays = new Int32Array(size);
    }
    const memory = this.rowMemory();
    memory.query.set(query.values);
    const { near, nearIds, strays, scales, slots } = this;
    const scale = query.scale;
    let count = 0;
    let strayCount = 0;
    for (let i = 0; i < probed.count; i += 1) {
      const list = probed.lists[i] as number;
      const members = lists.membersOf(list);
      const size = lists.sizeOf(list);
      const from = this.blocks ? lists.blockStart(list) : 0;
      const to = this.blocks ? lists.blockEnd(list) : 0;
      const dots = to > from ? memory.dotsRange(from, to - from) : null;
      for (let m = 0; m < size; m += 1) {
        const row = members[m] as number;
        const slot = slots[row] as number;
        if (dots !== null && slot >= from && slot < to) {
          near[count] = (dots[slot] as number) * scale * (scales[row] as number);
          nearIds[count] = row;
          count += 1;
        } else {
          strays[strayCount] = row;
          strayCount += 1;
        }
      }
    }
    if (strayCount > 0) {
      const ids = memory.ids;
      for (let i = 0; i < strayCount; i += 1) ids[i] = slots[strays[i] as number] as number;
      const dots = memory.gather(strayCount);
      for (let i = 0; i < strayCount; i += 1) {
        const row = strays[i] as number;
        near[count] = (dots[i] as number) * scale * (scales[row] as number);
        nearIds[count] = row;
        count += 1;
      }
    }
    return { cosines: this.cosines, values: near, ids: nearIds, count };
  }

  /**
   * Scores `rows` too, with the last scan's query (still in the kernel's memory): a lexical
   * candidate's phrasings outside the lists probed, at the kernel's speed.
   */
  scoreAlso(rows: readonly number[], query: QuantizedVector): void {
    if (this.exhaustive || this.memory === null) return;
    const memory = this.memory;
    const ids = memory.ids;
    let count = 0;
    for (const row of rows) {
      if (this.stamps[row] === this.scans || this.filled[row] !== 1) continue;
      ids[count] = this.slots[row] as number;
      count += 1;
    }
    if (count === 0) return;
    const dots = memory.gather(count);
    for (let i = 0; i < count; i += 1) {
      const row = this.slotRows[ids[i] as number] as number;
      this.cosines[row] = (dots[i] as number) * query.scale * (this.scales[row] as number);
      this.stamps[row] = this.scans;
    }
  }

  /** Whether the last scan scored `row` (its cosine is then current). */
  scored(row: number): boolean {
    return this.exhaustive ? row < this.rowCount : this.stamps[row] === this.scans;
  }

  /** A row's scale (its int8 components times it make a unit vector). */
  rowScale(row: number): number {
    return this.scales[row] ?? 0;
  }

  /**
   * Dot products of `values` (int8, the stride's length) with slots `from..from+count−1`, at
   * their slots' places (`rowAt` tells whose): the lists' check of their recall. The last
   * scan's cosines stay, but nothing more is scored with its query (`scoreAlso`).
   */
  slotDots(values: Int8Array, from: number, count: number): Int32Array {
    this.scans += 1;
    const memory = this.rowMemory();
    memory.query.set(values.subarray(0, memory.stride));
    return memory.dotsRange(from, count);
  }

  /** A row's int8 components as stored, padded to the kernel's stride (a view). */
  rowValues(row: number): Int8Array {
    const memory = this.rowMemory();
    const base = (this.slots[row] as number) * memory.stride;
    return memory.rows.subarray(base, base + memory.stride);
  }

  /** The row whose vector is in `slot`, and the slot of `row`. */
  rowAt(slot: number): number {
    return this.slotRows[slot] as number;
  }

  slotOf(row: number): number {
    return this.slots[row] as number;
  }

  /** Swaps the vectors (and rows) of two slots: the lists lay their rows out one swap at a time. */
  swapSlots(a: number, b: number): void {
    if (a === b || this.memory === null) return;
    const memory = this.rowMemory();
    const stride = memory.stride;
    const rows = memory.rows;
    if (this.scratch.length !== stride) this.scratch = new Int8Array(stride);
    const scratch = this.scratch;
    scratch.set(rows.subarray(a * stride, (a + 1) * stride));
    rows.copyWithin(a * stride, b * stride, (b + 1) * stride);
    rows.set(scratch, b * stride);
    const rowA = this.slotRows[a] as number;
    const rowB = this.slotRows[b] as number;
    this.slotRows[a] = rowB;
    this.slotRows[b] = rowA;
    this.slots[rowA] = b;
    this.slots[rowB] = a;
  }

  /** Rows a scan covers (the highest row given out, plus one). */
  get rows(): number {
    return this.rowCount;
  }

  /** The cosine of `query` with one row's vector (0 for a row without one). */
  cosine(query: QuantizedVector, row: number): number {
    if (this.filled[row] !== 1 || this.memory === null) return 0;
    const data = this.memory.rows;
    const values = query.values;
    const base = (this.slots[row] as number) * this.memory.stride;
    const n = Math.min(values.length, this.length);
    let s0 = 0;
    let s1 = 0;
    let d = 0;
    for (; d + 1 < n; d += 2) {
      s0 += (values[d] as number) * (data[base + d] as number);
      s1 += (values[d + 1] as number) * (data[base + d + 1] as number);
    }
    if (d < n) s0 += (values[d] as number) * (data[base + d] as number);
    return (s0 + s1) * query.scale * (this.scales[row] as number);
  }

  /** A row's vector as stored (a phrasing asked as a question by the self-test). */
  vectorOf(row: number): QuantizedVector {
    const values = new Int8Array(this.length);
    if (this.memory !== null && this.filled[row] === 1) {
      const base = (this.slots[row] as number) * this.memory.stride;
      values.set(this.memory.rows.subarray(base, base + this.length));
    }
    return { values, scale: this.filled[row] === 1 ? (this.scales[row] ?? 0) : 0 };
  }

  private grow(needed: number): void {
    if (needed <= this.refs.length) return;
    const size = Math.max(needed, Math.ceil(this.refs.length * 1.5));
    const refs = new Int32Array(size);
    refs.set(this.refs);
    this.refs = refs;
    const filled = new Uint8Array(size);
    filled.set(this.filled);
    this.filled = filled;
    const scales = new Float32Array(size);
    scales.set(this.scales);
    this.scales = scales;
    const stamps = new Uint32Array(size);
    stamps.set(this.stamps);
    this.stamps = stamps;
    // Slots beyond the rows given out are their own rows' (a layout permutes given rows only).
    const slots = Int32Array.from({ length: size }, (_, i) => i);
    slots.set(this.slots);
    this.slots = slots;
    const slotRows = Int32Array.from({ length: size }, (_, i) => i);
    slotRows.set(this.slotRows);
    this.slotRows = slotRows;
    this.memory?.ensure(size);
  }
}
