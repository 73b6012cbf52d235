/**
 * A database file of sql.js's in-memory file system whose bytes stay on disk (decision 195): the
 * snapshot worker rebuilds the snapshot in the temporary file that becomes `kb.sqlite`, and holds
 * only SQLite's page cache, not the database.
 *
 * sql.js 1.16 exports no file system, but its in-memory file system (MEMFS) touches a file's
 * storage only through `storage.length` (its capacity: never exceeded here, so never grown),
 * `storage.subarray(begin, end)` (a read, copied at once into WebAssembly's memory) and
 * `storage.set(bytes, at)` (a write). And it keeps whatever `slice()` of the array handed to
 * `new Database(array)` returns as that storage (decision 170 relies on the same). So
 * `diskDatabaseSeed` hands it a stand-in whose `slice` returns storage that reads and writes a
 * file descriptor. The one thing that would move the file back into memory is a truncation
 * (`ftruncate`, a rollback of a transaction that grew the file): its copy is made in memory, and
 * `DiskStorage.writes` stops counting, which the worker checks (`stillOnDisk`).
 * @module
 */
import { readSync, writeSync } from 'node:fs';

/** The capacity the storage claims: MEMFS never grows (copies) a storage larger than a write. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** A file's storage in MEMFS, on disk at `fd`. */
export class DiskStorage {
  readonly length = UNBOUNDED;
  /** Writes that reached the disk; a check that sql.js still writes here. */
  writes = 0;
  /** Reads land here: MEMFS copies each into WebAssembly's memory before the next. */
  private scratch = Buffer.allocUnsafe(64 * 1024);

  constructor(private readonly fd: number) {}

  subarray(begin: number, end: number): Uint8Array {
    const size = Math.max(0, end - begin);
    if (size > this.scratch.length) this.scratch = Buffer.allocUnsafe(size);
    for (let done = 0; done < size;) {
      const read = readSync(this.fd, this.scratch, done, size - done, begin + done);
      // Past the file's end (never asked: MEMFS reads within its size) reads as zeros.
      if (read === 0) {
        this.scratch.fill(0, done, size);
        break;
      }
      done += read;
    }
    return this.scratch.subarray(0, size);
  }

  set(bytes: Uint8Array, at = 0): void {
    writeAllSync(this.fd, bytes, at);
    this.writes += 1;
  }
}

/** Writes all of `bytes` at `at` of `fd`. */
export function writeAllSync(fd: number, bytes: Uint8Array, at: number): void {
  for (let done = 0; done < bytes.length;) {
    done += writeSync(fd, bytes, done, bytes.length - done, at + done);
  }
}

/**
 * What `new SQL.Database(seed)` takes to open the `bytes`-long database file at `storage`: a
 * typed array that claims that length (MEMFS sizes the file by it) and whose `slice` is the
 * storage. It holds no bytes itself.
 */
export function diskDatabaseSeed(storage: DiskStorage, bytes: number): Uint8Array {
  const seed = new Uint8Array(0);
  Object.defineProperty(seed, 'length', { value: bytes });
  Object.defineProperty(seed, 'slice', { value: () => storage });
  return seed;
}
