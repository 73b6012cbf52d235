/**
 * The embedded store's vector cache: one append-only file in the data directory
 * (`vectors.bin`), not the sql.js database, which lives in memory and is journaled — 100k rules'
 * vectors (hundreds of MB) would be held twice and rewritten by every snapshot. A record is
 * [u32 length][key, 43 bytes][f32 scale][u16 dimensions][int8 × dimensions]; the file's index
 * (key → offset) is read on first use, a torn last record (a crash during an append) is cut off.
 * Losing the file only means embedding again.
 * @module
 */
import { closeSync, openSync, readSync, fstatSync, ftruncateSync } from 'node:fs';
import { appendFile, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { CachedVector, VectorCache } from '../contract/vectors';
import { vectorKey } from '../sql/vector-keys';

export const VECTOR_FILE = 'vectors.bin';

const KEY_BYTES = 43;
const HEADER = 4 + KEY_BYTES + 4 + 2;

export class VectorFile implements VectorCache {
  private offsets: Map<string, number> | null = null;
  private size = 0;
  private readonly path: string;
  /** Appends one after the other: the index's offsets follow the file. */
  private appending: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.path = join(dataDir, VECTOR_FILE);
  }

  /** Reads the file's keys once (synchronously, in 1 MB pieces); cuts a torn tail. */
  private index(): Map<string, number> {
    if (this.offsets) return this.offsets;
    const offsets = new Map<string, number>();
    let fd: number;
    try {
      fd = openSync(this.path, 'r+');
    } catch {
      this.offsets = offsets;
      return offsets;
    }
    try {
      const length = fstatSync(fd).size;
      const head = Buffer.alloc(HEADER);
      let at = 0;
      while (at + HEADER <= length) {
        readSync(fd, head, 0, HEADER, at);
        const recordLength = head.readUInt32LE(0);
        if (recordLength < HEADER || at + recordLength > length) break;
        offsets.set(head.toString('latin1', 4, 4 + KEY_BYTES), at);
        at += recordLength;
      }
      if (at < length) ftruncateSync(fd, at);
      this.size = at;
    } finally {
      closeSync(fd);
    }
    this.offsets = offsets;
    return offsets;
  }

  async get(model: string, texts: readonly string[]): Promise<Map<string, CachedVector>> {
    const found = new Map<string, CachedVector>();
    const offsets = this.index();
    const wanted = texts
      .map((text) => ({ text, offset: offsets.get(vectorKey(model, text)) }))
      .filter((item): item is { text: string; offset: number } => item.offset !== undefined);
    if (wanted.length === 0) return found;
    await this.appending;
    const file = await open(this.path, 'r');
    try {
      const head = Buffer.alloc(HEADER);
      for (const { text, offset } of wanted) {
        await file.read(head, 0, HEADER, offset);
        const scale = head.readFloatLE(4 + KEY_BYTES);
        const dimensions = head.readUInt16LE(4 + KEY_BYTES + 4);
        const values = new Int8Array(dimensions);
        await file.read(values, 0, dimensions, offset + HEADER);
        found.set(text, { values, scale });
      }
    } finally {
      await file.close();
    }
    return found;
  }

  put(model: string, vectors: ReadonlyMap<string, CachedVector>): Promise<void> {
    const offsets = this.index();
    const pieces: Buffer[] = [];
    const added: [string, number][] = [];
    let at = this.size;
    for (const [text, vector] of vectors) {
      const key = vectorKey(model, text);
      if (offsets.has(key) || added.some(([k]) => k === key)) continue;
      const record = Buffer.alloc(HEADER + vector.values.length);
      record.writeUInt32LE(record.length, 0);
      record.write(key, 4, KEY_BYTES, 'latin1');
      record.writeFloatLE(vector.scale, 4 + KEY_BYTES);
      record.writeUInt16LE(vector.values.length, 4 + KEY_BYTES + 4);
      Buffer.from(vector.values.buffer, vector.values.byteOffset, vector.values.length).copy(
        record,
        HEADER,
      );
      pieces.push(record);
      added.push([key, at]);
      at += record.length;
    }
    if (pieces.length === 0) return this.appending;
    this.size = at;
    this.appending = this.appending
      .then(() => appendFile(this.path, Buffer.concat(pieces), { mode: 0o600 }))
      .then(() => {
        for (const [key, offset] of added) offsets.set(key, offset);
      });
    return this.appending;
  }
}
