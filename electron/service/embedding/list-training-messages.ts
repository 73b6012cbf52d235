/**
 * The messages between a vector lists' training driver (on the event loop) and its worker
 * thread (list-training-worker.ts), and the guards that read them back.
 * @module
 */
import type { TrainerResult, TrainerStart } from '../matching/list-trainer';

export type ToWorker =
  | { type: 'start'; job: TrainerStart }
  | { type: 'file'; rows: Int32Array; values: Int8Array }
  | { type: 'finish' };

export type FromWorker =
  | { type: 'clustered' }
  | { type: 'filed'; rows: Int32Array; lists: Int32Array }
  | { type: 'finished'; result: TrainerResult }
  | { type: 'failed'; message: string };

/** The buffers that can be moved to the other thread rather than copied. */
export const transferable = (buffers: readonly ArrayBufferLike[]): ArrayBuffer[] =>
  buffers.filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function isJob(value: unknown): value is TrainerStart {
  return (
    isObject(value) &&
    typeof value['dimensions'] === 'number' &&
    typeof value['listCount'] === 'number' &&
    typeof value['seed'] === 'number' &&
    value['sampleRows'] instanceof Int32Array &&
    value['sample'] instanceof Int8Array
  );
}

function isResult(value: unknown): value is TrainerResult {
  return (
    isObject(value) &&
    value['centroids'] instanceof Int8Array &&
    typeof value['probes'] === 'number' &&
    typeof value['recall'] === 'number' &&
    typeof value['asked'] === 'number'
  );
}

/** A message to the worker, or null when it is not one. */
export function toWorker(data: unknown): ToWorker | null {
  if (!isObject(data)) return null;
  const { type } = data;
  if (type === 'start' && isJob(data['job'])) return { type, job: data['job'] };
  if (type === 'file' && data['rows'] instanceof Int32Array && data['values'] instanceof Int8Array)
    return { type, rows: data['rows'], values: data['values'] };
  if (type === 'finish') return { type };
  return null;
}

/** A message from the worker, or null when it is not one. */
export function fromWorker(data: unknown): FromWorker | null {
  if (!isObject(data)) return null;
  const { type } = data;
  if (type === 'clustered') return { type };
  if (type === 'filed' && data['rows'] instanceof Int32Array && data['lists'] instanceof Int32Array)
    return { type, rows: data['rows'], lists: data['lists'] };
  if (type === 'finished' && isResult(data['result'])) return { type, result: data['result'] };
  if (type === 'failed' && typeof data['message'] === 'string')
    return { type, message: data['message'] };
  return null;
}
