/**
 * One process per data directory. The lock is a file created exclusively, holding the owner's
 * pid; a lock left by a process that no longer runs (killed, crashed) is taken over.
 * @module
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FILE_MODE } from './durable-fs';

export const LOCK_FILE = 'kbstudio.lock';

export interface DataDirLock {
  /** True when a lock left by a process that did not stop cleanly was taken over. */
  readonly tookOverStaleLock: boolean;
  /**
   * Gives the directory up. `keepFile` puts back the stale lock this one took over, byte for
   * byte: an open that failed must not erase the fact that the run before it did not stop
   * cleanly, nor change any file.
   */
  release(options?: { keepFile?: boolean }): void;
}

interface LockOwner {
  pid: number;
  host: string;
}

export class DataDirLockedError extends Error {
  constructor(dir: string, owner: LockOwner) {
    super(
      `The data directory ${dir} is already in use by another KB Studio process (pid ${owner.pid}). ` +
        'Stop that process first, or start with another --data directory.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : null;
  } catch {
    return null;
  }
}

/**
 * Locks held by this process. A lock file naming our own pid is otherwise taken for stale (a
 * restarted container reuses pids), so a second open inside one process is caught here.
 */
const heldByThisProcess = new Set<string>();

export function acquireDataDirLock(dir: string): DataDirLock {
  const path = join(dir, LOCK_FILE);
  if (heldByThisProcess.has(path)) {
    throw new DataDirLockedError(dir, { pid: process.pid, host: hostname() });
  }
  let tookOverStaleLock = false;
  let staleBytes: Buffer | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', FILE_MODE);
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }));
      closeSync(fd);
      heldByThisProcess.add(path);
      let released = false;
      return {
        tookOverStaleLock,
        release({ keepFile = false } = {}) {
          if (released) return;
          released = true;
          heldByThisProcess.delete(path);
          if (readOwner(path)?.pid !== process.pid) return;
          if (keepFile && staleBytes) writeFileSync(path, staleBytes, { mode: FILE_MODE });
          else unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(path);
      // A lock written on another host (a shared folder) cannot be checked: respect it.
      if (
        owner &&
        (owner.host !== hostname() || (owner.pid !== process.pid && isRunning(owner.pid)))
      ) {
        throw new DataDirLockedError(dir, owner);
      }
      // Stale (its process is gone) or unreadable (torn by a crash while being written).
      staleBytes = readFileSync(path);
      unlinkSync(path);
      tookOverStaleLock = true;
    }
  }
  throw new Error(`Could not lock the data directory ${dir}.`);
}
