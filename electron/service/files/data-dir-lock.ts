/**
 * One process per data directory. The lock is a file created exclusively, holding the owner's
 * pid; a lock left by a process that no longer runs (killed, crashed) is taken over. On Linux it
 * also holds the owner's start time and the boot's id (/proc), so that neither a zombie (a
 * process killed by SIGKILL that the init process has not reaped yet, which `kill(pid, 0)` still
 * finds, for seconds in many containers) nor another process that got the same pid later is
 * taken for the owner.
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
  /** The owner's start time, in clock ticks since boot (/proc/<pid>/stat), where known. */
  started?: number;
  /** The boot the owner ran in (/proc/sys/kernel/random/boot_id), where known. */
  boot?: string;
}

/** What /proc says of a running process: its state letter and its start time. */
interface ProcStat {
  state: string;
  started: number;
}

/** `/proc/<pid>/stat`'s state and start time, or null where there is no /proc or no process. */
export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const started = Number(fields[19]);
  const state = fields[0];
  return state !== undefined && Number.isFinite(started) ? { state, started } : null;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** This process as the lock file names it. */
function thisOwner(): LockOwner {
  const stat = procStat(process.pid);
  const boot = bootId();
  return {
    pid: process.pid,
    host: hostname(),
    ...(stat ? { started: stat.started } : {}),
    ...(boot ? { boot } : {}),
  };
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

/**
 * Whether the lock's owner still runs (on this host): its pid answers `kill(pid, 0)`, and where
 * /proc tells, that process is not a zombie and is the one that wrote the lock (same boot, same
 * start time). A lock written before the start time was recorded is judged by its pid alone.
 */
export function isRunning(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(owner.pid);
  if (!stat) return true;
  // Z: a zombie, dead and waiting to be reaped; X: dead.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  if (owner.boot !== undefined && owner.boot !== bootId()) return false;
  return owner.started === undefined || owner.started === stat.started;
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return null;
    return {
      pid: owner.pid,
      host: owner.host,
      ...(typeof owner.started === 'number' ? { started: owner.started } : {}),
      ...(typeof owner.boot === 'string' ? { boot: owner.boot } : {}),
    };
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
      writeSync(fd, JSON.stringify(thisOwner()));
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
      if (owner && (owner.host !== hostname() || (owner.pid !== process.pid && isRunning(owner)))) {
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
