/**
 * The memory of a vector space and its one hot loop: int8 rows (padded to 16 bytes) and an int8
 * query in a WebAssembly memory, and the dot products of the query with every row computed by a
 * WebAssembly SIMD kernel (i8 → i16 widening, `i32x4.dot_i16x8_s`): about ten times the speed of
 * the same loop in JavaScript (docs/matching.md, "Embedding channel"). The module (two functions:
 * every row, and the rows of a list of ids) is assembled below rather than a file, so that nothing is loaded at run time; where WebAssembly
 * SIMD is missing the same loop runs in JavaScript over the same memory.
 * @module
 */

const leb = (value: number): number[] => {
  const out: number[] = [];
  let n = value;
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const name = (text: string): number[] => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const tee = (local: number) => [0x22, local];
const simd = (op: number) => [0xfd, ...leb(op)];
const V128_LOAD = [...simd(0x00), 0x00, 0x00];
const EXTEND_LOW = simd(0x87);
const EXTEND_HIGH = simd(0x88);
const DOT = simd(0xba);
const ADD = simd(0xae);
const LANE = (lane: number) => [...simd(0x1b), lane];
const I32_ADD = 0x6a;

/**
 * `dots(query, rows, stride, count, out)`: for each of `count` rows of `stride` bytes from
 * `rows`, the int32 dot product with the `stride` bytes at `query`, stored at `out` (4 bytes
 * each). Locals: 0 query, 1 row pointer, 2 stride, 3 rows left, 4 out, 5 i, 6 acc, 7 row, 8 q.
 */
const DOTS_BODY: number[] = [
  [0x02, 0x01, 0x7f, 0x03, 0x7b], // locals: one i32, three v128
  [0x02, 0x40, ...get(3), 0x45, 0x0d, 0x00], // block; if no rows, out
  [0x03, 0x40, ...simd(0x0c), ...new Array<number>(16).fill(0), ...set(6)], // loop rows: acc = 0
  [0x41, 0x00, ...set(5), 0x03, 0x40], // i = 0; loop columns
  [...get(1), ...get(5), I32_ADD, ...V128_LOAD, ...set(7)], // row bytes i..i+15
  [...get(0), ...get(5), I32_ADD, ...V128_LOAD, ...set(8)], // query bytes i..i+15
  [...get(6), ...get(7), ...EXTEND_LOW, ...get(8), ...EXTEND_LOW, ...DOT, ...ADD],
  [...get(7), ...EXTEND_HIGH, ...get(8), ...EXTEND_HIGH, ...DOT, ...ADD, ...set(6)],
  [...get(5), 0x41, 0x10, I32_ADD, ...tee(5), ...get(2), 0x49, 0x0d, 0x00, 0x0b], // i < stride
  [...get(4), ...get(6), ...LANE(0), ...get(6), ...LANE(1), I32_ADD], // out = sum of lanes
  [...get(6), ...LANE(2), I32_ADD, ...get(6), ...LANE(3), I32_ADD, 0x36, 0x02, 0x00],
  [...get(4), 0x41, 0x04, I32_ADD, ...set(4), ...get(1), ...get(2), I32_ADD, ...set(1)],
  [...get(3), 0x41, 0x01, 0x6b, ...tee(3), 0x0d, 0x00, 0x0b, 0x0b, 0x0b], // next row; ends
].flat();

/**
 * `gather(query, rows, stride, ids, count, out)`: the same dot products for the `count` rows
 * whose numbers are the int32s at `ids`, stored densely at `out` (the i-th id's at out + 4i): an
 * inverted list's probe in one call, whatever the rows' order (vector-lists.ts). Locals: 0 query,
 * 1 rows, 2 stride, 3 ids, 4 rows left, 5 out, 6 i, 7 row pointer, 8 acc, 9 row, 10 q.
 */
const GATHER_BODY: number[] = [
  [0x02, 0x02, 0x7f, 0x03, 0x7b], // locals: two i32, three v128
  [0x02, 0x40, ...get(4), 0x45, 0x0d, 0x00], // block; if no rows, out
  [0x03, 0x40, ...simd(0x0c), ...new Array<number>(16).fill(0), ...set(8)], // loop rows: acc = 0
  [...get(1), ...get(3), 0x28, 0x02, 0x00, ...get(2), 0x6c, I32_ADD, ...set(7)], // rows + id × stride
  [0x41, 0x00, ...set(6), 0x03, 0x40], // i = 0; loop columns
  [...get(7), ...get(6), I32_ADD, ...V128_LOAD, ...set(9)], // row bytes i..i+15
  [...get(0), ...get(6), I32_ADD, ...V128_LOAD, ...set(10)], // query bytes i..i+15
  [...get(8), ...get(9), ...EXTEND_LOW, ...get(10), ...EXTEND_LOW, ...DOT, ...ADD],
  [...get(9), ...EXTEND_HIGH, ...get(10), ...EXTEND_HIGH, ...DOT, ...ADD, ...set(8)],
  [...get(6), 0x41, 0x10, I32_ADD, ...tee(6), ...get(2), 0x49, 0x0d, 0x00, 0x0b], // i < stride
  [...get(5), ...get(8), ...LANE(0), ...get(8), ...LANE(1), I32_ADD], // out = sum of lanes
  [...get(8), ...LANE(2), I32_ADD, ...get(8), ...LANE(3), I32_ADD, 0x36, 0x02, 0x00],
  [...get(5), 0x41, 0x04, I32_ADD, ...set(5), ...get(3), 0x41, 0x04, I32_ADD, ...set(3)],
  [...get(4), 0x41, 0x01, 0x6b, ...tee(4), 0x0d, 0x00, 0x0b, 0x0b, 0x0b], // next id; ends
].flat();

/**
 * `gather4(query, rows, stride, ids, groups, out)`: `gather` for 4 × `groups` ids, four rows at a
 * time: the rows of a probe lie anywhere in memory, and reading four of them at once keeps four
 * streams of loads in flight where one row at a time waits on each (2–3 times the speed over
 * 0.2 GB of rows; none measured over 0.6 GB, where a page walk per row dominates: docs/matching.md,
 * "Speed at 100k rules"). Locals: 0 query, 1 rows, 2 stride, 3 ids, 4 groups left, 5 out, 6 i,
 * 7–10 the four row pointers, 11–14 their accumulators, 15 q, 16 q's low half, 17 its high half,
 * 18 a row's bytes.
 */
const rowPointer = (k: number) => [
  ...get(1),
  ...get(3),
  0x28,
  0x02,
  4 * k,
  ...get(2),
  0x6c,
  I32_ADD,
  ...set(7 + k),
];
const accumulate = (k: number) => [
  ...get(7 + k),
  ...get(6),
  I32_ADD,
  ...V128_LOAD,
  ...set(18),
  ...get(11 + k),
  ...get(18),
  ...EXTEND_LOW,
  ...get(16),
  ...DOT,
  ...ADD,
  ...get(18),
  ...EXTEND_HIGH,
  ...get(17),
  ...DOT,
  ...ADD,
  ...set(11 + k),
];
const storeSum = (k: number) => [
  ...get(5),
  ...get(11 + k),
  ...LANE(0),
  ...get(11 + k),
  ...LANE(1),
  I32_ADD,
  ...get(11 + k),
  ...LANE(2),
  I32_ADD,
  ...get(11 + k),
  ...LANE(3),
  I32_ADD,
  0x36,
  0x02,
  4 * k,
];
const ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const GATHER4_BODY: number[] = [
  [0x02, 0x05, 0x7f, 0x08, 0x7b], // locals: five i32, eight v128
  [0x02, 0x40, ...get(4), 0x45, 0x0d, 0x00], // block; if no groups, out
  [0x03, 0x40], // loop groups
  [0, 1, 2, 3].flatMap((k) => [...ZERO, ...set(11 + k)]),
  [0, 1, 2, 3].flatMap(rowPointer),
  [0x41, 0x00, ...set(6), 0x03, 0x40], // i = 0; loop columns
  [...get(0), ...get(6), I32_ADD, ...V128_LOAD, ...tee(15), ...EXTEND_LOW, ...set(16)],
  [...get(15), ...EXTEND_HIGH, ...set(17)],
  [0, 1, 2, 3].flatMap(accumulate),
  [...get(6), 0x41, 0x10, I32_ADD, ...tee(6), ...get(2), 0x49, 0x0d, 0x00, 0x0b], // i < stride
  [0, 1, 2, 3].flatMap(storeSum),
  [...get(5), 0x41, 0x10, I32_ADD, ...set(5), ...get(3), 0x41, 0x10, I32_ADD, ...set(3)],
  [...get(4), 0x41, 0x01, 0x6b, ...tee(4), 0x0d, 0x00, 0x0b, 0x0b, 0x0b], // next group; ends
].flat();

const I32 = 0x7f;
const MODULE_BYTES = new Uint8Array(
  [
    [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // (i32 × 5) → () and (i32 × 6) → ()
    section(1, [2, 0x60, 5, I32, I32, I32, I32, I32, 0, 0x60, 6, I32, I32, I32, I32, I32, I32, 0]),
    section(2, [1, ...name('m'), ...name('memory'), 0x02, 0x00, 0x01]), // imported memory
    section(3, [3, 0, 1, 1]),
    section(7, [3, ...name('dots'), 0, 0, ...name('gather'), 0, 1, ...name('gather4'), 0, 2]),
    section(10, [
      3,
      ...leb(DOTS_BODY.length),
      ...DOTS_BODY,
      ...leb(GATHER_BODY.length),
      ...GATHER_BODY,
      ...leb(GATHER4_BODY.length),
      ...GATHER4_BODY,
    ]),
  ].flat(),
);

const PAGE = 65_536;

type Dots = (query: number, rows: number, stride: number, count: number, out: number) => void;
type Gather = (
  query: number,
  rows: number,
  stride: number,
  ids: number,
  count: number,
  out: number,
) => void;

interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The part of the WebAssembly global used here (Node's types do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

/** The kernel's module, or null where WebAssembly SIMD is not available. */
function kernelModule(): object | null {
  if (compiled === undefined) {
    compiled = wasm?.validate(MODULE_BYTES) === true ? new wasm.Module(MODULE_BYTES) : null;
  }
  return compiled;
}

/** Memory for the rows: WebAssembly's where there is one, else an array buffer that grows. */
function newMemory(): WasmMemory {
  if (wasm) return new wasm.Memory({ initial: 1 });
  let buffer = new ArrayBuffer(PAGE);
  return {
    get buffer() {
      return buffer;
    },
    grow(pages: number) {
      const old = buffer;
      buffer = new ArrayBuffer(old.byteLength + pages * PAGE);
      new Uint8Array(buffer).set(new Uint8Array(old));
      return old.byteLength / PAGE;
    },
  };
}

/** Rows are padded to a multiple of this many bytes (one SIMD register). */
export const LANES = 16;

/**
 * Rows of int8 vectors and a query, in one growable memory: the query at 0, the rows after it,
 * the scratch of the dot products after the rows, then the row numbers a gather reads (`ids`). Views are remade when the memory grows.
 */
export class VectorMemory {
  /** Bytes per row: the dimensions padded to 16. */
  readonly stride: number;
  private readonly memory = newMemory();
  private readonly dotsOf: Dots | null;
  private readonly gatherOf: Gather | null;
  private readonly gather4Of: Gather | null;
  private capacity = 0;
  private buffer: ArrayBuffer | null = null;
  private rowsView = new Int8Array(0);
  private queryView = new Int8Array(0);
  private outView = new Int32Array(0);
  private idsView = new Int32Array(0);

  constructor(
    readonly dimensions: number,
    simd = true,
  ) {
    this.stride = Math.max(LANES, Math.ceil(dimensions / LANES) * LANES);
    const module = simd ? kernelModule() : null;
    if (module && wasm) {
      const instance = new wasm.Instance(module, { m: { memory: this.memory } });
      const dots = instance.exports['dots'];
      const gather = instance.exports['gather'];
      const gather4 = instance.exports['gather4'];
      this.gather4Of = typeof gather4 === 'function' ? (gather4 as Gather) : null;
      this.dotsOf = typeof dots === 'function' ? (dots as Dots) : null;
      this.gatherOf = typeof gather === 'function' ? (gather as Gather) : null;
    } else {
      this.dotsOf = null;
      this.gatherOf = null;
      this.gather4Of = null;
    }
    this.ensure(64);
  }

  /** Whether the SIMD kernel is in use (else the JavaScript loop). */
  get accelerated(): boolean {
    return this.dotsOf !== null;
  }

  /** Bytes held: the rows, the query and the scratch. */
  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Makes room for `rows` rows (keeping those held). */
  ensure(rows: number): void {
    if (rows <= this.capacity) return;
    const capacity = Math.max(rows, Math.ceil(this.capacity * 1.5));
    const needed = this.stride * (capacity + 1) + 8 * capacity;
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.capacity = capacity;
    this.buffer = null;
  }

  private views(): void {
    if (this.buffer === this.memory.buffer) return;
    const buffer = this.memory.buffer;
    this.buffer = buffer;
    this.queryView = new Int8Array(buffer, 0, this.stride);
    this.rowsView = new Int8Array(buffer, this.stride, this.stride * this.capacity);
    this.outView = new Int32Array(buffer, this.outBase, this.capacity);
    this.idsView = new Int32Array(buffer, this.outBase + 4 * this.capacity, this.capacity);
  }

  /** Where the dot products go: after the query and the rows. */
  private get outBase(): number {
    return this.stride * (this.capacity + 1);
  }

  /** The rows (row r at r × stride). */
  get rows(): Int8Array {
    this.views();
    return this.rowsView;
  }

  /** The query the next `dots` reads. */
  get query(): Int8Array {
    this.views();
    return this.queryView;
  }

  /** The dot products of the query with rows 0..count−1 (valid until the next call). */
  dots(count: number): Int32Array {
    this.views();
    const stride = this.stride;
    const n = Math.min(count, this.capacity);
    if (this.dotsOf) {
      if (n > 0) this.dotsOf(0, stride, stride, n, stride * (this.capacity + 1));
      return this.outView;
    }
    const rows = this.rowsView;
    const query = this.queryView;
    const out = this.outView;
    for (let r = 0; r < n; r += 1) {
      const base = r * stride;
      let s0 = 0;
      let s1 = 0;
      for (let d = 0; d < stride; d += 2) {
        s0 += (query[d] as number) * (rows[base + d] as number);
        s1 += (query[d + 1] as number) * (rows[base + d + 1] as number);
      }
      out[r] = s0 + s1;
    }
    return out;
  }

  /** Row numbers the next `gather` reads (as many as the rows held at most). */
  get ids(): Int32Array {
    this.views();
    return this.idsView;
  }

  /**
   * The dot products of the query with the rows `ids[0..count−1]`, densely: the i-th row's at
   * i (valid until the next call). One kernel call whatever the rows' order.
   */
  gather(count: number): Int32Array {
    this.views();
    const stride = this.stride;
    const n = Math.min(count, this.capacity);
    if (this.gatherOf && this.gather4Of) {
      const ids = this.outBase + 4 * this.capacity;
      const groups = n >> 2;
      if (groups > 0) this.gather4Of(0, stride, stride, ids, groups, this.outBase);
      const done = groups * 4;
      if (n > done)
        this.gatherOf(0, stride, stride, ids + 4 * done, n - done, this.outBase + 4 * done);
      return this.outView;
    }
    const rows = this.rowsView;
    const query = this.queryView;
    const ids = this.idsView;
    const out = this.outView;
    for (let i = 0; i < n; i += 1) {
      const base = (ids[i] as number) * stride;
      let sum = 0;
      for (let d = 0; d < stride; d += 1) sum += (query[d] as number) * (rows[base + d] as number);
      out[i] = sum;
    }
    return out;
  }

  /** The dot products of the query with rows `from..from+count−1`, at their rows' places. */
  dotsRange(from: number, count: number): Int32Array {
    const n = Math.max(0, Math.min(count, this.capacity - from));
    if (this.dotsOf) {
      this.views();
      const stride = this.stride;
      if (n > 0)
        this.dotsOf(0, stride * (from + 1), stride, n, stride * (this.capacity + 1) + 4 * from);
      return this.outView;
    }
    const ids = Int32Array.from({ length: n }, (_, i) => from + i);
    return this.dotsAt(ids, n);
  }

  /**
   * The dot products of the query with the rows `ids[0..count−1]` only, each at its row's place
   * in the result (other places are stale): an inverted list's probe (vector-lists.ts). Runs of
   * consecutive rows go to the kernel in one call.
   */
  dotsAt(ids: Int32Array, count: number): Int32Array {
    this.views();
    const stride = this.stride;
    const out = this.outView;
    const outBase = stride * (this.capacity + 1);
    let i = 0;
    while (i < count) {
      const start = ids[i] as number;
      let end = start + 1;
      i += 1;
      while (i < count && ids[i] === end) {
        end += 1;
        i += 1;
      }
      if (start < 0 || end > this.capacity) continue;
      if (this.dotsOf) {
        this.dotsOf(0, stride * (start + 1), stride, end - start, outBase + 4 * start);
        continue;
      }
      const rows = this.rowsView;
      const query = this.queryView;
      for (let r = start; r < end; r += 1) {
        const base = r * stride;
        let sum = 0;
        for (let d = 0; d < stride; d += 1)
          sum += (query[d] as number) * (rows[base + d] as number);
        out[r] = sum;
      }
    }
    return out;
  }
}
