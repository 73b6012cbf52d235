/**
 * Streams an export's CSV rows on the event loop, a small chunk a turn (decision 202, which
 * supersedes the worker thread of decisions 133 and 141).
 *
 * The worker cost the process 60–80 MB of RSS during an export of a million entries: its isolate
 * (10 MB bare, 25 MB once it ran our rows), and on the main thread the bytes it transferred,
 * which are freed only when the main heap's collector finds their buffers (34 MB of them at the
 * peak). The rows made on the loop cost that much only when a turn made many: a turn of 256k
 * characters (~1,700 entries) lived across young collections, so its rows and the lines of its
 * mebibyte read were promoted and stayed in the old generation until a mark-compact (+317 MB).
 * A turn here makes at most `TURN_TEXT` characters of rows from lines read `TURN_READ_BYTES` at a
 * time into one buffer: what a turn allocates is dead before the next young collection, and an
 * ask waits for one turn at most (about a millisecond).
 * @module
 */
import { csvChunks } from './segment-csv';
import type { ExportJob } from './segment-csv';

/** Characters of rows made a turn (some 100 entries). */
export const TURN_TEXT = 16 * 1024;
/** Bytes of a segment read at a time. */
const TURN_READ_BYTES = 16 * 1024;

/**
 * The job's CSV rows, a chunk of at most `TURN_TEXT` characters (and the row that reached it) a
 * turn of the event loop. Stopping early (the client went away) closes the segment it reads.
 */
export async function* exportRows(job: ExportJob): AsyncGenerator<Uint8Array> {
  for await (const text of csvChunks(job, TURN_TEXT, TURN_READ_BYTES)) {
    yield Buffer.from(text);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
