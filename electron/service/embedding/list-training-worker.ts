/**
 * The worker thread that trains a robot's vector lists (decision 126): it clusters the sample,
 * files the rows sent in chunks and checks the lists (matching/list-trainer.ts), answering each
 * message in order with typed arrays transferred, so that the event loop only copies rows out
 * and swaps the finished lists in. Built to dist/list-training-worker.js (build/build.mjs).
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { ListTrainer } from '../matching/list-trainer';
import type { FromWorker } from './list-training-messages';
import { toWorker, transferable } from './list-training-messages';

let trainer: ListTrainer | null = null;

const reply = (message: FromWorker, transfer: ArrayBufferLike[] = []): void => {
  parentPort?.postMessage(message, transferable(transfer));
};

parentPort?.on('message', (data: unknown) => {
  try {
    const message = toWorker(data);
    if (message === null) throw new Error('not a training message');
    if (message.type === 'start') {
      trainer = new ListTrainer(message.job);
      trainer.cluster(Infinity);
      reply({ type: 'clustered' });
      return;
    }
    if (trainer === null) throw new Error('no training started');
    if (message.type === 'file') {
      const lists = trainer.file(message.rows, message.values, message.rows.length);
      reply({ type: 'filed', rows: message.rows, lists }, [message.rows.buffer, lists.buffer]);
      return;
    }
    const result = trainer.finish();
    trainer = null;
    reply({ type: 'finished', result }, [result.centroids.buffer]);
  } catch (error) {
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
