/**
 * Starts the snapshot's worker thread (snapshot-worker.ts) and waits for its file.
 * @module
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { temporaryPath } from '../../files/durable-fs';
import { startWorker as startWorkerAt, workerUrl } from '../../worker-threads';

/**
 * What the worker rebuilds: the snapshot of `dataDir` plus `segments`, up to `targetSeq`, written
 * whole to `file`.
 */
export interface SnapshotJob {
  dataDir: string;
  segments: string[];
  targetSeq: number;
  file: string;
}

/**
 * The worker's temporary file in `dataDir`: its own name, since a snapshot copied from memory
 * may be written (to `kb.sqlite`'s temporary file) while an abandoned worker is still stopping;
 * a temporary file all the same, removed at the next open if a crash leaves it.
 */
export function rebuildFile(dataDir: string): string {
  return temporaryPath(join(dataDir, 'kb.sqlite.rebuild'));
}

/** The worker's one message: the file is written, or why it is not (with node's error code). */
export type SnapshotMessage = { done: true } | { error: string; code?: string };

/** A file system error of the worker's, with its code (`ENOSPC` …). */
export class SnapshotWorkerError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SnapshotWorkerError';
  }
}

/**
 * The worker's young generation (decision 201): its garbage (each journal record's decoded
 * statements) dies young, so a few megabytes scavenged often serve; left to V8, it grew to tens
 * of megabytes of RSS for the whole rebuild, after a large import, when the process is at its
 * largest. The old generation is not bounded: a large journal record must not fail the snapshot.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4 };

/** The worker (`dist/snapshot-worker.js` once built; worker-threads.ts). */
function startWorker(job: SnapshotJob): Worker {
  return startWorkerAt(workerUrl('snapshot-worker', import.meta.url), {
    workerData: job,
    resourceLimits: RESOURCE_LIMITS,
  });
}

/**
 * Writes the snapshot at `job.targetSeq` to `job.file` on a worker thread; rejects if it could
 * not, or once `signal` aborts, only after the worker has stopped and its file is removed (no
 * write of it can land later).
 */
export async function buildSnapshotOnWorker(job: SnapshotJob, signal?: AbortSignal): Promise<void> {
  const worker = startWorker(job);
  const stopped = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let abandoned: () => void = () => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      abandoned = () => reject(new Error('the snapshot was abandoned'));
      if (signal?.aborted) abandoned();
      signal?.addEventListener('abort', abandoned);
      worker.once('message', (message: SnapshotMessage) =>
        'error' in message
          ? reject(new SnapshotWorkerError(message.error, message.code))
          : resolve(),
      );
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the snapshot worker stopped (exit code ${code})`)),
      );
    });
  } catch (error) {
    void worker.terminate();
    await stopped;
    await rm(job.file, { force: true });
    throw error;
  } finally {
    signal?.removeEventListener('abort', abandoned);
  }
  void worker.terminate();
}
