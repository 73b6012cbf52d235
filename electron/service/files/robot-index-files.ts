/**
 * One file per robot index in `<data dir>/indexes/` (docs/storage.md, "Saved indexes per
 * robot"): the engine's bytes as they are (mostly typed arrays), behind a small header, so that
 * reading one is a single read of the file and views onto its buffer, no parsing.
 *
 * Layout, little-endian: "KBRF", u32 format, u32 header length, u32 CRC-32 of the header,
 * u32 CRC-32 of the payload, u32 payload length; the header (UTF-8 JSON: key, token, rules);
 * zero padding to 8 bytes; the payload (8-byte aligned, as the engine's reader needs). A file
 * is used only when its key and token are those asked for and both checksums hold: a stale,
 * truncated or damaged file is never opened. Files are written atomically and durably
 * (durable-fs.ts); the manifest of a clean stop (`manifest.json`) says which are exact then.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { RobotIndexFileRead, RobotIndexFiles, RobotIndexManifest } from '../saved-index';
import { DIRECTORY_MODE, isTemporaryFile, writeFileAtomicAsync } from './durable-fs';

const MAGIC = 0x4652424b; // "KBRF" little-endian
const FORMAT = 1;
const PREFIX = 24;
const EXTENSION = '.kbri';
const MANIFEST = 'manifest.json';

interface FileHeader {
  key: string;
  token: string;
  rules: number;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** The file of a key: robot ids are the editor's to choose, so the name is a digest of it. */
const fileName = (key: string): string =>
  createHash('sha256').update(key).digest('hex').slice(0, 32) + EXTENSION;

/** CRC-32 of several chunks, as of their concatenation. */
function crcOf(chunks: readonly Uint8Array[]): number {
  let crc = 0;
  for (const chunk of chunks) crc = crc32(chunk, crc);
  return crc;
}

/** The bytes before the payload. */
export function encodeHead(header: FileHeader, chunks: readonly Uint8Array[]): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const payloadLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const head = new Uint8Array(align8(PREFIX + json.length));
  const view = new DataView(head.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, json.length, true);
  view.setUint32(12, crc32(json), true);
  view.setUint32(16, crcOf(chunks), true);
  view.setUint32(20, payloadLength, true);
  head.set(json, PREFIX);
  return head;
}

/** Checks a whole file's bytes against `key` and `token`; the payload is a view, not a copy. */
export function decodeFile(
  file: Uint8Array<ArrayBuffer>,
  key: string,
  token: string,
): RobotIndexFileRead {
  if (file.length < PREFIX) return { ok: false, reason: 'truncated' };
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (view.getUint32(0, true) !== MAGIC) return { ok: false, reason: 'not an index file' };
  if (view.getUint32(4, true) !== FORMAT) return { ok: false, reason: 'another format' };
  const headerLength = view.getUint32(8, true);
  const payloadStart = align8(PREFIX + headerLength);
  const payloadLength = view.getUint32(20, true);
  if (payloadStart + payloadLength !== file.length) return { ok: false, reason: 'truncated' };
  const json = file.subarray(PREFIX, PREFIX + headerLength);
  if (crc32(json) !== view.getUint32(12, true)) return { ok: false, reason: 'damaged header' };
  const header = JSON.parse(new TextDecoder().decode(json)) as FileHeader;
  if (header.key !== key) return { ok: false, reason: 'of another robot' };
  if (header.token !== token) return { ok: false, reason: 'stale' };
  const payload = file.subarray(payloadStart);
  if (crc32(payload) !== view.getUint32(16, true)) return { ok: false, reason: 'damaged' };
  return { ok: true, bytes: payload, rules: header.rules };
}

/** Reads a whole file into a buffer of its own (8-byte aligned at offset 0). */
async function readWhole(path: string): Promise<Uint8Array<ArrayBuffer>> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = new Uint8Array(new ArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}

const isMissing = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && error.code === 'ENOENT';

export class RobotIndexFileStore implements RobotIndexFiles {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE });
  }

  async write(key: string, token: string, rules: number, chunks: readonly Uint8Array[]) {
    const head = encodeHead({ key, token, rules }, chunks);
    await writeFileAtomicAsync(join(this.dir, fileName(key)), [head, ...chunks]);
  }

  async read(key: string, token: string): Promise<RobotIndexFileRead> {
    let file: Uint8Array<ArrayBuffer>;
    try {
      file = await readWhole(join(this.dir, fileName(key)));
    } catch (error) {
      if (isMissing(error)) return { ok: false, reason: 'missing' };
      throw error;
    }
    try {
      return decodeFile(file, key, token);
    } catch {
      return { ok: false, reason: 'damaged header' };
    }
  }

  async remove(key: string): Promise<void> {
    await rm(join(this.dir, fileName(key)), { force: true });
  }

  async clear(keep: ReadonlySet<string> = new Set()): Promise<void> {
    const kept = new Set([...keep].map(fileName));
    for (const name of readdirSync(this.dir)) {
      if (kept.has(name)) continue;
      if (name.endsWith(EXTENSION) || isTemporaryFile(name) || name === MANIFEST) {
        await rm(join(this.dir, name), { force: true });
      }
    }
  }

  async takeManifest(): Promise<RobotIndexManifest | null> {
    const path = join(this.dir, MANIFEST);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    await rm(path, { force: true });
    try {
      const manifest = JSON.parse(text) as RobotIndexManifest;
      return Number.isFinite(manifest.position) && Array.isArray(manifest.files) ? manifest : null;
    } catch {
      return null;
    }
  }

  async writeManifest(manifest: RobotIndexManifest): Promise<void> {
    await writeFileAtomicAsync(join(this.dir, MANIFEST), Buffer.from(JSON.stringify(manifest)));
  }
}
