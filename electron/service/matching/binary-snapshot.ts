/**
 * A minimal container for typed arrays plus a JSON header, used to save a built index and open it
 * again without re-tokenising every phrasing. Layout: "KBIX", u32 header length, the header
 * (UTF-8 JSON), zero padding to 8 bytes, then each array's bytes at an 8-byte-aligned offset, so
 * that reading creates views on the file's bytes instead of copying them.
 * @module
 */

const MAGIC = 0x5849424b; // "KBIX" little-endian

type ArrayKind = 'i32' | 'u16' | 'u8' | 'f32' | 'f64';
export type SnapshotArray = Int32Array | Uint16Array | Uint8Array | Float32Array | Float64Array;

interface ArrayEntry {
  kind: ArrayKind;
  offset: number;
  length: number;
}

interface Header {
  values: Record<string, unknown>;
  arrays: Record<string, ArrayEntry>;
}

function kindOf(array: SnapshotArray): ArrayKind {
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Float32Array) return 'f32';
  return 'f64';
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

export class SnapshotWriter {
  private readonly values: Record<string, unknown> = {};
  private readonly arrays: { name: string; array: SnapshotArray }[] = [];

  /** A JSON-serialisable value (strings, numbers, arrays of them). */
  value(name: string, value: unknown): void {
    this.values[name] = value;
  }

  /** The first `length` elements of `array` (default: all). */
  array(name: string, array: SnapshotArray, length = array.length): void {
    this.arrays.push({ name, array: array.subarray(0, length) });
  }

  toBytes(): Uint8Array {
    const entries: Record<string, ArrayEntry> = {};
    let offset = 0;
    for (const { name, array } of this.arrays) {
      entries[name] = { kind: kindOf(array), offset, length: array.length };
      offset = align8(offset + array.byteLength);
    }
    const header = new TextEncoder().encode(
      JSON.stringify({ values: this.values, arrays: entries } satisfies Header),
    );
    const dataStart = align8(8 + header.length);
    const bytes = new Uint8Array(dataStart + offset);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, header.length, true);
    bytes.set(header, 8);
    for (const { name, array } of this.arrays) {
      const entry = entries[name] as ArrayEntry;
      bytes.set(
        new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
        dataStart + entry.offset,
      );
    }
    return bytes;
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

  private entry(name: string, kind: ArrayKind): { start: number; length: number } {
    const entry = this.header.arrays[name];
    if (entry === undefined || entry.kind !== kind) throw new Error(`snapshot has no ${name}`);
    const start = this.bytes.byteOffset + this.dataStart + entry.offset;
    const width = { i32: 4, u16: 2, u8: 1, f32: 4, f64: 8 }[kind];
    if (this.dataStart + entry.offset + entry.length * width > this.bytes.length) {
      throw new Error(`truncated snapshot array ${name}`);
    }
    return { start, length: entry.length };
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
}
