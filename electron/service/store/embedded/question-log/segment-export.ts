/**
 * Streams an export's CSV rows from a worker thread (segment-export-worker.ts, decision 133): an
 * export of a million entries made on the event loop grew the heap by hundreds of megabytes (its
 * decoded entries and rows), and the mark-compact that followed held every ask for about a
 * second. The worker reads the segment files itself; the main thread receives bytes (outside its
 * heap) and asks for the next chunk once the consumer took one, a few chunks ahead at most.
 * Where the worker cannot start, the rows are made on the event loop, a chunk a turn.
 *
 * A worker takes a while to give its first chunk (its start and its first rows in code not yet
 * optimised: 0.5–1 s on the shared machine, seconds under load), so the first rows are made on
 * the event loop, small chunks a turn, while the worker makes the rest (decision 141).
 * @module
 */
import type { Worker } from 'node:worker_threads';
import { startWorker as startWorkerAt, workerMessages, workerUrl } from '../../../worker-threads';
import { csvChunks, splitJob } from './segment-csv';
import type { ExportJob } from './segment-csv';

/** What the worker posts: a chunk of rows, the end, or why it stopped. */
export type ExportMessage = { chunk: Uint8Array } | { done: true } | { error: string };

/** Chunks the worker may make ahead of the consumer. */
const AHEAD = 4;
/**
 * Line bytes whose rows the event loop makes while the worker starts (some 7,000 entries: about
 * 2 MB of CSV, tens of ms of the loop's time in all), and the characters it hands over a turn.
 */
export const HEAD_BYTES = 1024 * 1024;
const HEAD_CHUNK_TEXT = 16 * 1024;
const HEAD_READ_BYTES = 32 * 1024;
/**
 * The worker's heap: small young generation (its garbage is short-lived: scavenged often rather
 * than grown into the process's RSS), and a bound on the old one (it keeps nothing but a chunk).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };

/** The worker (`dist/segment-export-worker.js` once built; worker-threads.ts). */
function startWorker(job: ExportJob): Worker {
  return startWorkerAt(workerUrl('segment-export-worker', import.meta.url), {
    workerData: job,
    resourceLimits: RESOURCE_LIMITS,
  });
}

/** The rows on the event loop (the export's head, and the fallback). */
async function* onLoop(job: ExportJob, head = false): AsyncGenerator<Uint8Array> {
  const chunks = head ? csvChunks(job, HEAD_CHUNK_TEXT, HEAD_READ_BYTES) : csvChunks(job);
  for await (const text of chunks) {
    yield Buffer.from(text);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * The job's CSV rows, a chunk at a time: its first `headBytes` of lines made on the event loop
 * while a worker starts and makes the rest; on the event loop when the worker fails before its
 * first chunk (it could not start). Stopping early (the client went away) ends it.
 */
export async function* exportRows(
  job: ExportJob,
  start: (job: ExportJob) => Worker = startWorker,
  headBytes = HEAD_BYTES,
): AsyncGenerator<Uint8Array> {
  const [head, rest] = await splitJob(job, headBytes);
  if (rest.segments.length === 0) {
    yield* onLoop(head, true);
    return;
  }
  let worker: Worker;
  try {
    worker = start(rest);
  } catch {
    yield* onLoop(head, true);
    yield* onLoop(rest);
    return;
  }
  const next = workerMessages<ExportMessage>(worker, 'the export worker');
  let received = 0;
  try {
    worker.postMessage({ credit: AHEAD });
    yield* onLoop(head, true);
    for (;;) {
      const message = await next();
      if ('done' in message) return;
      if ('error' in message) {
        if (received > 0) throw new Error(message.error);
        // It never started: the rows on the loop instead.
        yield* onLoop(rest);
        return;
      }
      received += 1;
      yield message.chunk;
      worker.postMessage({ credit: 1 });
    }
  } finally {
    worker.removeAllListeners();
    void worker.terminate();
  }
}
