/**
 * A vector lists' training in a worker thread (decision 126): the port the training driver
 * (matching/vector-lists.ts) talks to, which starts list-training-worker (its TypeScript source
 * under tsx, its bundle next to the service's in dist/), sends it the sample and the chunks of
 * rows (transferred, not copied again), and hands its answers to the driver. A worker that fails
 * or stops tells the driver, which trains on the loop instead.
 * @module
 */
import type { Worker } from 'node:worker_threads';
import type { TrainerStart } from '../matching/list-trainer';
import type { TrainingPort, TrainingSink } from '../matching/vector-lists';
import type { ToWorker } from './list-training-messages';
import { fromWorker, transferable } from './list-training-messages';
import { startWorker, workerUrl } from '../worker-threads';

/** The worker's file (`dist/list-training-worker.js` once built). */
export function trainingWorkerUrl(here = import.meta.url): URL {
  return workerUrl('list-training-worker', here);
}

export class WorkerTrainingPort implements TrainingPort {
  private worker: Worker | null = null;
  private sink: TrainingSink | null = null;
  private closed = false;

  /** `url`: the worker's file (tests give one that fails). */
  constructor(private readonly url: URL = trainingWorkerUrl()) {}

  start(job: TrainerStart, sink: TrainingSink): void {
    this.sink = sink;
    try {
      const worker = startWorker(this.url, { execArgv: [] });
      worker.unref();
      worker.on('message', (data: unknown) => this.received(data));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (!this.closed) this.fail(new Error(`the training worker stopped (code ${code})`));
      });
      this.worker = worker;
    } catch (error) {
      // Failing in the driver's own call would leave it half-started: tell it on the next turn.
      queueMicrotask(() => this.fail(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    this.send({ type: 'start', job }, [job.sample.buffer, job.sampleRows.buffer]);
  }

  file(rows: Int32Array, values: Int8Array): void {
    this.send({ type: 'file', rows, values }, [rows.buffer, values.buffer]);
  }

  finish(): void {
    this.send({ type: 'finish' });
  }

  work(): void {
    // The worker works on its own.
  }

  close(): void {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
  }

  private send(message: ToWorker, transfer: ArrayBufferLike[] = []): void {
    this.worker?.postMessage(message, transferable(transfer));
  }

  private received(data: unknown): void {
    const sink = this.sink;
    if (this.closed || sink === null) return;
    const message = fromWorker(data);
    if (message === null) return this.fail(new Error('the training worker answered nonsense'));
    if (message.type === 'clustered') sink.clustered();
    else if (message.type === 'filed') sink.filed(message.rows, message.lists);
    else if (message.type === 'finished') sink.finished(message.result);
    else this.fail(new Error(message.message));
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.close();
    this.sink?.failed(error);
  }
}
