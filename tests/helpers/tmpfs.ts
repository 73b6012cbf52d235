/**
 * A small real file system for disk-full tests: a tmpfs of a given size, mounted on a temporary
 * folder. Mounting needs root (or CAP_SYS_ADMIN); where it is not allowed, `mountTmpfs` says why
 * instead, for the test to skip with that reason.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Tmpfs {
  dir: string;
  unmount(): void;
}

export function mountTmpfs(bytes: number): Tmpfs | { skip: string } {
  if (process.platform !== 'linux')
    return { skip: `tmpfs mounts are Linux only (here: ${process.platform})` };
  const dir = mkdtempSync(join(tmpdir(), 'kbstudio-tmpfs-'));
  const mounted = spawnSync(
    'mount',
    ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir],
    {
      encoding: 'utf8',
    },
  );
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const why = (mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim();
    return { skip: `cannot mount a tmpfs here (${why})` };
  }
  return {
    dir,
    unmount() {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Bytes an unprivileged writer can still write on the file system holding `dir`. */
export function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/**
 * Grows the file `path` until about `keep` bytes are left free (or the disk is full, when others
 * write meanwhile).
 */
export function fillDisk(path: string, keep: number): void {
  const chunk = Buffer.alloc(64 * 1024);
  const fd = openSync(path, 'a');
  try {
    while (freeBytes(dirname(path)) - chunk.length >= keep) {
      try {
        writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return;
        throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}
