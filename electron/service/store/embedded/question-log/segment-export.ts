/**
 * Streams an export's CSV rows from a worker thread (segment-export-worker.ts, decision 133): an
 * export of a million entries made on the event loop grew the heap by hundreds of megabytes (its
 * decoded entries and rows), and the mark-compact that followed held every ask for about a
 * second. The worker reads the segment files itself; the main thread receives bytes (outside its
 * heap) and asks for the next chunk once the consumer took one, a few chunks ahead at most.
 * Where the worker cannot start, the rows are made on the event loop, a chunk a turn.
 * @module
 */
import type { Worker } from 'node:worker_threads';
import { startWorker as startWorkerAt, workerUrl } from '../../../worker-threads';
import { csvChunks } from './segment-csv';
import type { ExportJob } from './segment-csv';

/** What the worker posts: a chunk of rows, the end, or why it stopped. */
export type ExportMessage = { chunk: Uint8Array } | { done: true } | { error: string };

/** Chunks the worker may make ahead of the consumer. */
const AHEAD = 4;
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

/** The rows on the event loop: the fallback. */
async function* onLoop(job: ExportJob): AsyncGenerator<Uint8Array> {
  for await (const text of csvChunks(job)) {
    yield Buffer.from(text);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * The job's CSV rows from a worker, a chunk at a time; on the event loop when the worker fails
 * before its first chunk (it could not start). Stopping early (the client went away) ends it.
 */
export async function* exportRows(
  job: ExportJob,
  start: (job: ExportJob) => Worker = startWorker,
): AsyncGenerator<Uint8Array> {
  let worker: Worker;
  try {
    worker = start(job);
  } catch {
    yield* onLoop(job);
    return;
  }
  const queue: ExportMessage[] = [];
  let wake: (() => void) | null = null;
  const push = (message: ExportMessage) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ error: error.message }));
  worker.on('exit', (code) => push({ error: `the export worker stopped (exit code ${code})` }));
  let received = 0;
  try {
    worker.postMessage({ credit: AHEAD });
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift() as ExportMessage;
      if ('done' in message) return;
      if ('error' in message) {
        if (received > 0) throw new Error(message.error);
        // It never started: the rows on the loop instead.
        yield* onLoop(job);
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
