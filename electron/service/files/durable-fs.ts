/**
 * The one way the service (and the desktop shell) writes a whole file: atomically, privately,
 * and without leaving anything behind when it fails. A temporary file beside the target is
 * written, fsynced and renamed over the target, then the directory is fsynced: readers see the
 * old file or the new one, never a mix. If any step fails (a full disk), the temporary file is
 * removed before the error is thrown, so a failed write gives back the space it took.
 *
 * Temporary files are named `<target>.tmp-<pid>`; `isTemporaryFile` recognises them, for the
 * clean-up of a data directory at open (a process killed mid-write leaves one).
 * @module
 */
import {
  chmodSync,
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger';

/** Data files hold customer data and secrets: readable by their owner only. */
export const FILE_MODE = 0o600;
/** The data directory: only its owner may list or enter it. */
export const DIRECTORY_MODE = 0o700;

const TEMPORARY = /\.tmp-\d+$/;

export function temporaryPath(target: string): string {
  return `${target}.tmp-${process.pid}`;
}

export function isTemporaryFile(name: string): boolean {
  return TEMPORARY.test(name);
}

/** fsyncs a directory so that a rename or a new file in it survives power loss. */
export function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
    if (!isUnsupportedDirSync(error)) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isUnsupportedDirSync(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL' || code === 'EACCES';
}

/** Writes `data` to `target` atomically (see the module comment). */
export function writeFileAtomic(target: string, data: Uint8Array | string, mode = FILE_MODE): void {
  writeFileAtomicWith(
    target,
    (write) => write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data),
    mode,
  );
}

/**
 * Like `writeFileAtomic`, for a file made of parts: `produce` calls `write` with each part in
 * order, so a large file never has to be held in memory whole. If `produce` throws, the
 * temporary file is removed and the target is left as it was.
 */
export function writeFileAtomicWith(
  target: string,
  produce: (write: (bytes: Uint8Array) => void) => void,
  mode = FILE_MODE,
): void {
  const tmp = temporaryPath(target);
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      produce((bytes) => {
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      });
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  fsyncDirectory(dirname(target));
}

/**
 * `writeFileAtomic` with the writing and fsync on libuv's threads, for files of tens of
 * megabytes (the snapshot) that the event loop must not wait for. `data` must not change until
 * the promise settles.
 */
export async function writeFileAtomicAsync(
  target: string,
  data: Uint8Array | readonly Uint8Array[],
  mode = FILE_MODE,
): Promise<void> {
  const tmp = temporaryPath(target);
  try {
    const handle = await open(tmp, 'w', mode);
    try {
      // Parts are written one after the other (a snapshot and its trailer, without a copy).
      for (const part of data instanceof Uint8Array ? [data] : data) {
        let offset = 0;
        while (offset < part.length) {
          const { bytesWritten } = await handle.write(part, offset, part.length - offset);
          offset += bytesWritten;
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  fsyncDirectory(dirname(target));
}

/**
 * Narrows the permissions of an existing file or directory to `mode` when it grants more (to
 * group or others). Returns true when it changed them.
 */
export function narrowMode(path: string, mode: number): boolean {
  if (process.platform === 'win32') return false;
  const current = statSync(path).mode & 0o777;
  if ((current & ~mode) === 0) return false;
  chmodSync(path, current & mode);
  return true;
}

/**
 * Data files are the owner's only (0600) and the directory too (0700): existing ones made by an
 * older version, or copied in, are narrowed, and said so.
 */
export function narrowPermissions(dir: string, logger: Logger): void {
  const narrowed = narrowMode(dir, DIRECTORY_MODE) ? ['the folder itself'] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const mode = entry.isDirectory() ? DIRECTORY_MODE : FILE_MODE;
    if (narrowMode(join(dir, entry.name), mode)) narrowed.push(entry.name);
  }
  if (narrowed.length > 0)
    logger.info(
      `made the data directory ${dir} private to its owner (files 0600, folders 0700): ${narrowed.join(', ')}`,
    );
}
