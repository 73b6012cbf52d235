/**
 * A full disk, simulated where no small file system can be mounted: writes to the files whose
 * path `matches` fail with ENOSPC once `afterBytes` of them have gone through (a real full disk
 * also takes part of a write first). It patches node:fs itself (synchronous writes by file
 * descriptor, and the handles of node:fs/promises), and ES module imports see the patch through
 * `syncBuiltinESMExports`; our code runs unchanged.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type * as FsModule from 'node:fs';
import type * as FsPromisesModule from 'node:fs/promises';

const require = createRequire(import.meta.url);
const fs = require('node:fs') as typeof FsModule;
const fsp = require('node:fs/promises') as typeof FsPromisesModule;

function enospc(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error('ENOSPC: no space left on device, write');
  error.code = 'ENOSPC';
  error.errno = -28;
  error.syscall = 'write';
  return error;
}

export interface DiskFull {
  /** Writes refused so far. */
  readonly refused: number;
  /** Space is back: writes go through again. */
  restore(): void;
}

export function injectEnospc(matches: (path: string) => boolean, afterBytes = 0): DiskFull {
  const tracked = new Set<number>();
  let budget = afterBytes;
  let refused = 0;
  const take = (length: number): number => {
    if (budget >= length) {
      budget -= length;
      return length;
    }
    const part = budget;
    budget = 0;
    if (part === 0) {
      refused++;
      throw enospc();
    }
    return part;
  };
  const { openSync, closeSync, writeSync, writevSync } = fs;
  const open = fsp.open;
  fs.openSync = ((path: FsModule.PathLike, ...rest: unknown[]) => {
    const fd = (openSync as (...args: unknown[]) => number)(path, ...rest);
    if (matches(String(path))) tracked.add(fd);
    return fd;
  }) as typeof fs.openSync;
  fs.closeSync = ((fd: number) => {
    tracked.delete(fd);
    closeSync(fd);
  }) as typeof fs.closeSync;
  fs.writeSync = ((
    fd: number,
    buffer: never,
    offset?: number,
    length?: number,
    position?: number,
  ) => {
    if (!tracked.has(fd) || typeof buffer === 'string')
      return (writeSync as (...args: unknown[]) => number)(fd, buffer, offset, length, position);
    const view = buffer as Uint8Array;
    const start = offset ?? 0;
    const allowed = take(length ?? view.length - start);
    return writeSync(fd, view, start, allowed, position);
  }) as typeof fs.writeSync;
  // Vectored writes (a batch import's journal record, in parts): the allowed bytes go through.
  fs.writevSync = ((fd: number, buffers: readonly NodeJS.ArrayBufferView[], position?: number) => {
    if (!tracked.has(fd)) return writevSync(fd, buffers, position);
    const total = buffers.reduce((sum, part) => sum + part.byteLength, 0);
    let allowed = take(total);
    const through: NodeJS.ArrayBufferView[] = [];
    for (const part of buffers) {
      if (allowed === 0) break;
      const view = new Uint8Array(part.buffer, part.byteOffset, Math.min(allowed, part.byteLength));
      through.push(view);
      allowed -= view.byteLength;
    }
    return writevSync(fd, through, position);
  }) as typeof fs.writevSync;
  fsp.open = (async (path: FsModule.PathLike, ...rest: unknown[]) => {
    const handle = await (open as (...args: unknown[]) => Promise<FsPromisesModule.FileHandle>)(
      path,
      ...rest,
    );
    if (matches(String(path))) {
      const write = handle.write.bind(handle) as (
        ...args: unknown[]
      ) => Promise<{ bytesWritten: number }>;
      (handle as { write: unknown }).write = async (
        buffer: Uint8Array,
        offset = 0,
        length?: number,
      ) => {
        const allowed = take(length ?? buffer.length - offset);
        return write(buffer, offset, allowed);
      };
    }
    return handle;
  }) as typeof fsp.open;
  syncBuiltinESMExports();
  return {
    get refused() {
      return refused;
    },
    restore() {
      fs.openSync = openSync;
      fs.closeSync = closeSync;
      fs.writeSync = writeSync;
      fs.writevSync = writevSync;
      fsp.open = open;
      syncBuiltinESMExports();
    },
  };
}
