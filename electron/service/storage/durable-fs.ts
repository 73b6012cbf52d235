/**
 * Small file-system helpers for writes that must never be left half-done on disk.
 * @module
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

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

/**
 * Writes `data` to `target` atomically: a temporary file in the same directory is written,
 * fsynced and renamed over the target, then the directory is fsynced. Readers see the old file or
 * the new one, never a mix.
 */
export function writeFileAtomic(target: string, data: Uint8Array | string, mode = 0o644): void {
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
  mode = 0o644,
): void {
  const tmp = `${target}.tmp-${process.pid}`;
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
