/**
 * A minimal container for typed arrays, string tables and a small JSON header, used to save a
 * built index and open it again without re-tokenising every phrasing. Layout: "KBIX", u32
 * header length, the header (UTF-8 JSON), zero padding to 8 bytes, then each array's bytes at
 * an 8-byte-aligned offset, so that reading creates views on the file's bytes instead of
 * copying them. A string table is two arrays: the strings' UTF-8 bytes back to back and their
 * offsets; a string is decoded when it is first asked for.
 *
 * Writing streams: the arrays' own memory is handed to the sink piece by piece, so saving a
 * 100k-rule index needs little memory beyond the index itself.
 * @module
 */

const MAGIC = 0x5849424b; // "KBIX" little-endian

export type ArrayKind = 'i32' | 'u16' | 'u8' | 'f32' | 'f64';
export type SnapshotArray = Int32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;
export type Sink = (chunk: Uint8Array) => void;

interface ArrayEntry {
  kind: ArrayKind;
  offset: number;
  length: number;
}

interface Header {
  values: Record<string, unknown>;
  arrays: Record<string, ArrayEntry>;
}

/** Something to write: its kind, element count, byte length, and how to emit its bytes. */
interface Part {
  name: string;
  kind: ArrayKind;
  length: number;
  byteLength: number;
  /**
   * Emits the bytes, yielding between blocks (so that a sliced write can pause there).
   * `sliced` false: nothing is held back for a pause (a write in one go).
   */
  emit(sink: Sink, sliced: boolean): Generator<void, void, void>;
}

const WIDTH: Record<ArrayKind, number> = { i32: 4, u16: 2, u8: 1, f32: 4, f64: 8 };
const PADDING = new Uint8Array(8);
/** Strings are encoded into blocks of this size before they go to the sink. */
const BLOCK = 64 * 1024;
/** Arrays are handed to the sink in views of at most this many bytes. */
const ARRAY_SLICE = 256 * 1024;

function kindOf(array: SnapshotArray): ArrayKind {
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Float32Array) return 'f32';
  return 'f64';
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Bytes of `text` in UTF-8 as TextEncoder writes it (a lone surrogate becomes U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export class SnapshotWriter {
  private readonly values: Record<string, unknown> = {};
  private readonly parts: Part[] = [];

  /** A small JSON-serialisable value (numbers, short lists). */
  value(name: string, value: unknown): void {
    this.values[name] = value;
  }

  /** The first `length` elements of `array` (default: all), written from its own memory. */
  array(name: string, array: SnapshotArray, length = array.length): void {
    const view = array.subarray(0, length);
    this.parts.push({
      name,
      kind: kindOf(view),
      length: view.length,
      byteLength: view.byteLength,
      emit: function* (sink) {
        // Large arrays go out in blocks of a few hundred KiB: views, not copies.
        for (let at = 0; at < view.byteLength; at += ARRAY_SLICE) {
          const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
          sink(bytes.subarray(at, Math.min(view.byteLength, at + ARRAY_SLICE)));
          yield;
        }
      },
    });
  }

  /**
   * An array of `length` elements written piece by piece: `each` hands every piece, in order, to
   * `put` when the snapshot is written, and they go out through one small block. For arrays kept
   * in runs (posting lists), which would otherwise be gathered whole first (~45 MB at 100k
   * rules). Read back as one array.
   */
  pieces(
    name: string,
    kind: 'i32' | 'u16' | 'f32',
    length: number,
    each: (put: (piece: Int32Array | Uint16Array | Float32Array) => void) => void,
  ): void {
    const byteLength = length * WIDTH[kind];
    this.parts.push({
      name,
      kind,
      length,
      byteLength,
      emit: function* (sink, sliced) {
        const block = new Uint8Array(BLOCK);
        let used = 0;
        let total = 0;
        // `each` may hand the same scratch array again (it copies nothing): sliced, its pieces
        // are copied into blocks in one go (the array's size held meanwhile), and the blocks go
        // to the sink one per step.
        const blocks: Uint8Array[] = [];
        each((piece) => {
          let bytes = new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength);
          total += bytes.length;
          while (bytes.length > 0) {
            const take = Math.min(bytes.length, BLOCK - used);
            block.set(bytes.subarray(0, take), used);
            used += take;
            bytes = bytes.subarray(take);
            if (used === BLOCK) {
              if (sliced) blocks.push(block.slice());
              else sink(block.slice());
              used = 0;
            }
          }
        });
        for (const full of blocks) {
          sink(full);
          yield;
        }
        if (used > 0) sink(block.slice(0, used));
        // The header already gave every later array's offset from this length.
        if (total !== byteLength)
          throw new Error(`${name}: ${total} bytes written, not ${byteLength}`);
      },
    });
  }

  /** `count` strings, `get(i)` giving the i-th; read back with `SnapshotReader.strings`. */
  strings(name: string, count: number, get: (i: number) => string): void {
    const offsets = new Int32Array(count + 1);
    for (let i = 0; i < count; i += 1) offsets[i + 1] = (offsets[i] ?? 0) + utf8Length(get(i));
    const total = offsets[count] ?? 0;
    this.array(`${name}.offsets`, offsets);
    this.parts.push({
      name: `${name}.utf8`,
      kind: 'u8',
      length: total,
      byteLength: total,
      emit: (sink) => encodeStrings(count, get, sink),
    });
  }

  /** Streams the snapshot to `sink`; returns its length in bytes. */
  write(sink: Sink): number {
    const steps = this.steps(sink, false);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `write` in slices of about `sliceMs` between turns of the event loop (`pause` resolves at
   * the next turn), so that a large index is written without holding the loop. The snapshot's
   * source must not change until the promise settles.
   */
  async writeInSlices(sink: Sink, pause: () => Promise<void>, sliceMs = 8): Promise<number> {
    const steps = this.steps(sink, true);
    let began = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() - began >= sliceMs) {
        await pause();
        began = performance.now();
      }
    }
  }

  private *steps(sink: Sink, sliced: boolean): Generator<void, number, void> {
    const entries: Record<string, ArrayEntry> = {};
    let offset = 0;
    for (const part of this.parts) {
      entries[part.name] = { kind: part.kind, offset, length: part.length };
      offset = align8(offset + part.byteLength);
    }
    const header = new TextEncoder().encode(
      JSON.stringify({ values: this.values, arrays: entries } satisfies Header),
    );
    const dataStart = align8(8 + header.length);
    const start = new Uint8Array(dataStart);
    const view = new DataView(start.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, header.length, true);
    start.set(header, 8);
    sink(start);
    yield;
    let written = 0;
    for (const part of this.parts) {
      const entry = entries[part.name] as ArrayEntry;
      if (written < entry.offset) sink(PADDING.subarray(0, entry.offset - written));
      yield* part.emit(sink, sliced);
      written = entry.offset + part.byteLength;
    }
    if (written < offset) sink(PADDING.subarray(0, offset - written));
    return dataStart + offset;
  }

  /** The whole snapshot in one buffer (tests and small indexes). */
  toBytes(): Uint8Array {
    const chunks: Uint8Array[] = [];
    const length = this.write((chunk) => chunks.push(chunk.slice()));
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes;
  }
}

function* encodeStrings(
  count: number,
  get: (i: number) => string,
  sink: Sink,
): Generator<void, void, void> {
  const encoder = new TextEncoder();
  const block = new Uint8Array(BLOCK);
  let used = 0;
  for (let i = 0; i < count; i += 1) {
    const text = get(i);
    // Three bytes per UTF-16 unit at most: a string that might not fit is flushed around.
    if (used + text.length * 3 > BLOCK) {
      if (used > 0) sink(block.slice(0, used));
      used = 0;
      yield;
      if (text.length * 3 > BLOCK) {
        sink(encoder.encode(text));
        continue;
      }
    }
    used += encoder.encodeInto(text, block.subarray(used)).written;
  }
  if (used > 0) sink(block.slice(0, used));
}

/** Strings saved by `SnapshotWriter.strings`, decoded one by one when asked for. */
export class StringTable {
  private static readonly decoder = new TextDecoder();

  constructor(
    private readonly utf8: Uint8Array,
    private readonly offsets: Int32Array,
  ) {}

  get length(): number {
    return this.offsets.length - 1;
  }

  get(i: number): string {
    const from = this.offsets[i] ?? 0;
    const to = this.offsets[i + 1] ?? from;
    return from === to ? '' : StringTable.decoder.decode(this.utf8.subarray(from, to));
  }
}

export class SnapshotReader {
  private readonly header: Header;
  private readonly dataStart: number;
  private readonly buffer: ArrayBuffer;

  /** @throws when the bytes are not a snapshot (wrong magic, truncated, bad header). */
  constructor(private readonly bytes: Uint8Array<ArrayBuffer>) {
    this.buffer = bytes.buffer;
    if (bytes.byteOffset % 8 !== 0) throw new Error('snapshot bytes must be 8-byte aligned');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 8 || view.getUint32(0, true) !== MAGIC) throw new Error('not a snapshot');
    const headerLength = view.getUint32(4, true);
    if (8 + headerLength > bytes.length) throw new Error('truncated snapshot header');
    this.header = JSON.parse(
      new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)),
    ) as Header;
    this.dataStart = align8(8 + headerLength);
  }

  value<T>(name: string): T {
    if (!(name in this.header.values)) throw new Error(`snapshot has no value ${name}`);
    return this.header.values[name] as T;
  }

  /** A value that snapshots of older engines may lack. */
  optionalValue<T>(name: string): T | undefined {
    return name in this.header.values ? (this.header.values[name] as T) : undefined;
  }

  private entry(name: string, kind: ArrayKind): { start: number; length: number } {
    const entry = this.header.arrays[name];
    if (entry === undefined || entry.kind !== kind) throw new Error(`snapshot has no ${name}`);
    const start = this.bytes.byteOffset + this.dataStart + entry.offset;
    if (this.dataStart + entry.offset + entry.length * WIDTH[kind] > this.bytes.length) {
      throw new Error(`truncated snapshot array ${name}`);
    }
    return { start, length: entry.length };
  }

  /** The element type an array was saved with (codes of posting weights are u16 or i32). */
  arrayKind(name: string): ArrayKind | undefined {
    return this.header.arrays[name]?.kind;
  }

  /** Whether the snapshot holds an array of that name (older formats hold some others). */
  hasArray(name: string): boolean {
    return this.header.arrays[name] !== undefined;
  }

  // Views on the snapshot's own buffer (a private copy of the file): writes stay inside each
  // view's bounds, and growing an array copies it.
  i32(name: string): Int32Array<ArrayBuffer> {
    const { start, length } = this.entry(name, 'i32');
    return new Int32Array(this.buffer, start, length);
  }

  u16(name: string): Uint16Array<ArrayBuffer> {
    const { start, length } = this.entry(name, 'u16');
    return new Uint16Array(this.buffer, start, length);
  }

  u8(name: string): Uint8Array<ArrayBuffer> {
    const { start, length } = this.entry(name, 'u8');
    return new Uint8Array(this.buffer, start, length);
  }

  f32(name: string): Float32Array<ArrayBuffer> {
    const { start, length } = this.entry(name, 'f32');
    return new Float32Array(this.buffer, start, length);
  }

  f64(name: string): Float64Array<ArrayBuffer> {
    const { start, length } = this.entry(name, 'f64');
    return new Float64Array(this.buffer, start, length);
  }

  strings(name: string): StringTable {
    const offsets = this.i32(`${name}.offsets`);
    const utf8 = this.u8(`${name}.utf8`);
    for (let i = 1; i < offsets.length; i += 1) {
      if ((offsets[i] ?? 0) < (offsets[i - 1] ?? 0)) throw new Error(`bad string table ${name}`);
    }
    if ((offsets[offsets.length - 1] ?? 0) > utf8.length)
      throw new Error(`bad string table ${name}`);
    return new StringTable(utf8, offsets);
  }
}
