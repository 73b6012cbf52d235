/**
 * `kb.index`: the robots' matching indexes as the engine saved them, written on a clean stop so
 * that the next start opens them instead of re-indexing every rule. The file says at which
 * committed seq of the database it was taken; it is only ever used for a database at exactly
 * that seq (see domain/robot-loading.ts).
 *
 * Layout: "KBINDEX1", then each robot's bytes at an 8-byte-aligned offset (the engine opens them
 * as views, which must be aligned), then the trailer: the header as UTF-8 JSON, its byte length
 * (u32 LE), its CRC-32 (u32 LE) and "KBINDEX1" again. The header lists every robot with its
 * offset, length, rule count and CRC-32. The header comes last so that robots can be saved and
 * written one at a time: the file is never held in memory whole while it is written.
 * @module
 */
import { renameSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { RobotIndexToSave, SavedIndexFile, SavedRobotIndex } from '../../saved-index';
import { fsyncDirectory, writeFileAtomicWith } from '../../files/durable-fs';

export const INDEX_FILE = 'kb.index';

const MAGIC = Buffer.from('KBINDEX1', 'latin1');
const FORMAT = 1;
const TRAILER_BYTES = 4 + 4 + MAGIC.length;

/** The file as read: every robot's saved index and the store position they were saved at. */
export type IndexFile = SavedIndexFile;

interface Header {
  format: number;
  seq: number;
  robots: {
    tenantId: number;
    robotId: string;
    rules: number;
    maxSeq: number;
    edition?: 'published';
    version?: number;
    offset: number;
    length: number;
    crc: number;
  }[];
}

/**
 * Writes the index file atomically (temporary file, fsync, rename, directory fsync), saving the
 * robots one after the other.
 */
export function writeIndexFile(
  dataDir: string,
  seq: number,
  robots: readonly RobotIndexToSave[],
): void {
  writeFileAtomicWith(join(dataDir, INDEX_FILE), (write) => {
    const header: Header = { format: FORMAT, seq, robots: [] };
    write(MAGIC);
    let offset = MAGIC.length;
    for (const robot of robots) {
      let length = 0;
      let crc = 0;
      robot.write((chunk) => {
        // node's zlib.crc32 answers 0 for an empty view of an empty buffer, whatever the start.
        if (chunk.length === 0) return;
        write(chunk);
        length += chunk.length;
        crc = crc32(chunk, crc);
      });
      header.robots.push({
        tenantId: robot.tenantId,
        robotId: robot.robotId,
        rules: robot.rules,
        maxSeq: robot.maxSeq,
        ...(robot.edition ? { edition: robot.edition, version: robot.version } : {}),
        offset,
        length,
        crc,
      });
      offset += length;
      const padding = (8 - (offset % 8)) % 8;
      if (padding > 0) write(new Uint8Array(padding));
      offset += padding;
    }
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeUInt32LE(json.length, 0);
    trailer.writeUInt32LE(crc32(json), 4);
    MAGIC.copy(trailer, 8);
    write(json);
    write(trailer);
  });
}

export class IndexFileDamagedError extends Error {
  constructor(path: string, reason: string) {
    super(`${path} is damaged (${reason})`);
    this.name = 'IndexFileDamagedError';
  }
}

/**
 * Reads the index file and checks every checksum. Resolves to null when there is none; rejects
 * with `IndexFileDamagedError` when it is not a whole, intact index file. The read itself runs
 * on libuv's thread pool, so the service can do its other start-up work meanwhile. A file of
 * more than `maxBytes` is not read (rejects): a node under a memory budget opens a budget's
 * worth of it at most, and reading it whole would pass the budget (one saved without it).
 */
export async function readIndexFile(
  dataDir: string,
  maxBytes = Infinity,
): Promise<IndexFile | null> {
  const path = join(dataDir, INDEX_FILE);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const size = (await handle.stat()).size;
    if (size > maxBytes) {
      throw new Error(`${path} holds ${size} bytes, more than the memory budget: not read`);
    }
    // A buffer of its own (offset 0), so that every 8-aligned offset in the file is aligned.
    bytes = new Uint8Array(new ArrayBuffer(size));
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(bytes, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read !== size) throw new IndexFileDamagedError(path, 'shorter than its size');
  } finally {
    await handle.close();
  }
  return decodeIndexFile(path, bytes);
}

function decodeIndexFile(path: string, bytes: Uint8Array<ArrayBuffer>): IndexFile {
  const damaged = (reason: string) => new IndexFileDamagedError(path, reason);
  const buffer = Buffer.from(bytes.buffer, 0, bytes.length);
  if (buffer.length < MAGIC.length + TRAILER_BYTES) throw damaged('too short');
  if (!buffer.subarray(0, MAGIC.length).equals(MAGIC)) throw damaged('not an index file');
  if (!buffer.subarray(buffer.length - MAGIC.length).equals(MAGIC)) throw damaged('truncated');
  const trailer = buffer.length - TRAILER_BYTES;
  const headerLength = buffer.readUInt32LE(trailer);
  const headerStart = trailer - headerLength;
  if (headerStart < MAGIC.length) throw damaged('bad header length');
  const json = buffer.subarray(headerStart, trailer);
  if (crc32(json) !== buffer.readUInt32LE(trailer + 4)) throw damaged('header checksum');
  let header: Header;
  try {
    header = JSON.parse(json.toString('utf8')) as Header;
  } catch {
    throw damaged('header is not JSON');
  }
  if (
    header.format !== FORMAT ||
    !Number.isSafeInteger(header.seq) ||
    !Array.isArray(header.robots)
  )
    throw damaged('unknown format');
  const robots = header.robots.map((robot): SavedRobotIndex => {
    const { offset, length } = robot;
    if (offset % 8 !== 0 || offset < MAGIC.length || offset + length > headerStart)
      throw damaged(`bad extent for robot ${robot.robotId}`);
    if (robot.edition !== undefined && robot.edition !== 'published')
      throw damaged(`unknown edition for robot ${robot.robotId}`);
    const slice = bytes.subarray(offset, offset + length);
    if (crc32(slice) !== robot.crc) throw damaged(`checksum of robot ${robot.robotId}`);
    return {
      tenantId: robot.tenantId,
      robotId: robot.robotId,
      rules: robot.rules,
      maxSeq: robot.maxSeq,
      ...(robot.edition === 'published' && Number.isSafeInteger(robot.version)
        ? { edition: robot.edition, version: robot.version }
        : {}),
      bytes: slice,
    };
  });
  return { seq: header.seq, robots };
}

/**
 * Takes the index file out of the way once it has been read: it speaks for no later state of
 * the database. It is renamed at once to a temporary name (which the next open deletes if this
 * process dies first) and either put back by `putBackIndexFile` on a stop with no write since
 * (it is still exact, and saving it again would cost a second of work and its memory), or
 * deleted by `discardIndexFile`. Returns the temporary path, or null when there was no file.
 */
export function setAsideIndexFile(dataDir: string): string | null {
  const aside = join(dataDir, `${INDEX_FILE}.in-use.tmp-${process.pid}`);
  try {
    renameSync(join(dataDir, INDEX_FILE), aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return aside;
}

/** Puts a file set aside back under its name (its content is still exact). */
export function putBackIndexFile(dataDir: string, aside: string): void {
  renameSync(aside, join(dataDir, INDEX_FILE));
  fsyncDirectory(dataDir);
}

/**
 * Deletes a file set aside, in the background: deleting a file of a hundred megabytes takes
 * tens of milliseconds, not worth making anyone wait.
 */
export function discardIndexFile(aside: string): void {
  unlink(aside).catch(() => {
    // Left for the next open's clean-up of temporary files.
  });
}
