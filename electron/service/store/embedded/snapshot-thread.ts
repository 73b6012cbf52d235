/**
 * Starts the snapshot's worker thread (snapshot-worker.ts) and waits for its bytes.
 * @module
 */
import type { Worker } from 'node:worker_threads';
import { startWorker as startWorkerAt, workerUrl } from '../../worker-threads';

/** What the worker rebuilds: the snapshot of `dataDir` plus `segments`, up to `targetSeq`. */
export interface SnapshotJob {
  dataDir: string;
  segments: string[];
  targetSeq: number;
  /** The main thread's database at the rotation, bytes: the room the rebuilt file is given. */
  databaseBytes?: number;
}

/** The worker's one message: the snapshot's bytes and trailer, or why there are none. */
export type SnapshotMessage = { bytes: Uint8Array; trailer: Uint8Array } | { error: string };

/** The worker (`dist/snapshot-worker.js` once built; worker-threads.ts). */
function startWorker(job: SnapshotJob): Worker {
  return startWorkerAt(workerUrl('snapshot-worker', import.meta.url), { workerData: job });
}

/**
 * The snapshot at `job.targetSeq`, built on a worker thread; rejects if it could not be, or
 * once `signal` aborts (the worker is stopped).
 */
export function buildSnapshotOnWorker(
  job: SnapshotJob,
  signal?: AbortSignal,
): Promise<{ bytes: Uint8Array; trailer: Uint8Array }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const worker = startWorker(job);
    signal?.addEventListener('abort', () => {
      settle(() => reject(new Error('the snapshot was abandoned')));
      void worker.terminate();
    });
    worker.once('message', (message: SnapshotMessage) => {
      settle(() =>
        'error' in message
          ? reject(new Error(message.error))
          : resolve({ bytes: message.bytes, trailer: message.trailer }),
      );
      void worker.terminate();
    });
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the snapshot worker stopped (exit code ${code})`))),
    );
  });
}
