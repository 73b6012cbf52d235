/**
 * An impact preview's replay on a worker thread (decision 128): the two sides' indexes are
 * written out in slices (the saved-index format, calibration and all) and opened by the worker
 * (impact-worker.ts, its TypeScript source under tsx, its bundle beside the service's in dist/),
 * the questions sent in chunks, and its progress and count handed back. The openapi's asks then
 * share the event loop with nothing but the writing and the sending, and the replay runs on
 * another core. Answers null when the worker cannot be used (an index of another engine, an
 * index changed while it was written, too little free memory, a worker that fails to start or
 * stops): the caller replays on the loop instead.
 * @module
 */
import { availableParallelism, freemem } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { writeRobotIndexInSlices } from '../matching/index';
import type { RobotIndex } from '../matching/types';
import { forEachInSlices, nextTurn } from '../time-slices';
import type { MemoryReservation } from '../domain/robot-indexes';
import { startWorker, workerUrl } from '../worker-threads';
import { ReplayPlan } from './impact-bound';
import { answerDiffers, mergeComparisons, nameExamples } from './impact-compare';
import type { Comparison, ImpactWatch, PartialComparison, Replay } from './impact-compare';
import type { KeptOutcomes } from './impact-outcome';
import type { Learned, PlanSource, ReplayStart, ToWorker } from './impact-messages';
import { fromWorker, packOutcomes, unpackOutcome } from './impact-messages';
import type { ReachableQuestions } from './impact-reach';

/**
 * Workers a replay is shared among (decision 156): each asks its share of the questions of its
 * own copy of both indexes, so a second core halves the wait; no more than the machine's cores,
 * nor than its free memory holds copies.
 */
export const IMPACT_WORKERS = Math.max(1, Math.min(2, availableParallelism()));

/** Questions sent to the worker in one message (cloned on the loop: ~1 ms each). */
const CHUNK = 2048;
/** The written index is gathered in blocks of this size (its own pieces are small views). */
const BLOCK = 4 * 2 ** 20;

/**
 * The worker holds both indexes opened from their bytes (the bytes, and the rule store's maps
 * and arrays rebuilt from them: about twice the bytes, measured in the bench) at its peak: it
 * runs only while the machine's free memory holds four times the bytes, as the snapshot's worker
 * does (decision 121); otherwise the loop replays.
 */
export function impactWorkerFits(indexBytes: number, freeBytes = freemem()): boolean {
  return freeBytes >= WORKER_MEMORY_FACTOR * indexBytes;
}
const WORKER_MEMORY_FACTOR = 4;

/**
 * What a replay on the worker holds beside the loop's indexes, counted in a node's memory
 * budget: the written bytes (moved to the worker), the indexes opened from them (about twice
 * the bytes) and the worker's own heap. Measured in the impact bench at 10k rules: ~20 MB
 * written for both sides, the process's peak +141 MB on the worker against +47 MB on the loop.
 */
export const impactWorkerBytes = (indexBytes: number): number => WORKER_HEAP_BYTES + 3 * indexBytes;
const WORKER_HEAP_BYTES = 32 * 2 ** 20;

/** The worker's file: next to this module's source under tsx, next to the bundle once built. */
export function impactWorkerUrl(here = import.meta.url): URL {
  return workerUrl('impact-worker', here);
}

/**
 * An index written as its saved bytes, in slices, gathered in blocks; null when it is not this
 * engine's (a stand-in of the tests) or it changed meanwhile (the bytes would be torn).
 */
async function written(index: RobotIndex): Promise<Uint8Array[] | null> {
  const version = index.version;
  const blocks: Uint8Array[] = [];
  let block: Uint8Array = new Uint8Array(0);
  let used = 0;
  const sink = (chunk: Uint8Array) => {
    for (let from = 0; from < chunk.length;) {
      if (used === block.length) {
        if (block.length > 0) blocks.push(block);
        // Shared: every worker reads the same bytes, none is copied on the loop (cloning 20 MB
        // for a second worker held it ~320 ms on the loaded machine).
        block = new Uint8Array(new SharedArrayBuffer(BLOCK));
        used = 0;
      }
      const take = Math.min(chunk.length - from, block.length - used);
      block.set(chunk.subarray(from, from + take), used);
      used += take;
      from += take;
    }
  };
  try {
    await writeRobotIndexInSlices(index, sink, nextTurn);
  } catch {
    return null;
  }
  if (used > 0) blocks.push(block.subarray(0, used));
  return index.version === version ? blocks : null;
}

const bytesOf = (pieces: readonly Uint8Array[]) =>
  pieces.reduce((sum, piece) => sum + piece.length, 0);

function planSource(filter: ReplayPlan | ReachableQuestions | null): PlanSource | null {
  if (filter === null) return null;
  const reach = filter instanceof ReplayPlan ? filter.reach : filter;
  const answers = filter instanceof ReplayPlan ? filter.answers : [];
  return { synonyms: reach.synonyms, rules: reach.rules, answers };
}

/** Where the replay runs, for tests: the worker's file (one that fails, to see the fallback). */
export interface WorkerOptions {
  url?: URL;
  /** Workers to share the questions among (default IMPACT_WORKERS). */
  workers?: number;
  /** Told each worker's niceness once it has its indexes (null: not lowered). */
  onReady?: (nice: number | null) => void;
  /** Free memory to gate on (default: the machine's). */
  freeBytes?: number;
  /**
   * Counts the worker's memory in the node's budget (RobotIndexes.reserve); null from it: no
   * room, the loop replays (it asks the indexes already in memory).
   */
  reserve?: (bytes: number) => MemoryReservation | null;
}

/**
 * `questions` asked of both sides on a worker thread, as impact.ts's `compareSides` would on
 * the loop; null when the worker cannot be used. Rejects with the signal's reason once
 * `watch.signal` aborts (the worker is stopped).
 */
export async function compareOnWorker(
  { a, b, questions, reach: filter, at, settings, known, warm }: Replay,
  watch: ImpactWatch = {},
  options: WorkerOptions = {},
): Promise<Comparison | null> {
  const total = questions.length;
  const fromVersion = a.index.version;
  // The job takes the robot's state at its first progress: a change while the indexes are
  // written cancels it, as one while they are asked does.
  watch.progress?.(0, total);
  const kept = known && known.version === fromVersion ? known : null;
  // Every `from` outcome kept (a warmed published side, decision 179): the workers never ask
  // that side (impact-bound.ts tests a kept outcome without the index), so it is neither
  // written nor opened (decision 191).
  const from = warm !== true && (await allKept(kept, questions)) ? [] : await written(a.index);
  // A warm-up asks the `from` side alone: the other is neither written nor opened.
  const to = from && (warm === true ? [] : await written(b.index));
  watch.signal?.throwIfAborted();
  if (from === null || to === null) return null;
  const bytes = bytesOf(from) + bytesOf(to);
  const room = roomFor(bytes, Math.min(options.workers ?? IMPACT_WORKERS, chunks(total)), options);
  if (room === null) return null;
  try {
    return await replayOnWorkers(
      from,
      to,
      room.workers,
      { a, b, questions, reach: filter, at, settings, warm },
      watch,
      options,
      // The outcomes the workers work out are kept only if asked of the version kept.
      kept,
    );
  } finally {
    room.reservation?.release();
  }
}

/** Whether `kept` holds the outcome of every one of `questions`, looked up in slices. */
async function allKept(
  kept: KeptOutcomes | null,
  questions: Replay['questions'],
): Promise<boolean> {
  if (kept === null || kept.size === 0) return false;
  let all = true;
  await forEachInSlices(questions, (question) => {
    if (all && kept.get(question.text) === undefined) all = false;
  });
  return all;
}

const chunks = (questions: number): number => Math.max(1, Math.ceil(questions / CHUNK));

/**
 * How many workers (at most `wanted`) the machine's free memory and the node's budget have room
 * for, each holding both indexes, and their reservation; null: not even one.
 */
function roomFor(
  bytes: number,
  wanted: number,
  options: WorkerOptions,
): { workers: number; reservation: MemoryReservation | null } | null {
  for (let workers = wanted; workers >= 1; workers--) {
    if (!impactWorkerFits(bytes * workers, options.freeBytes)) continue;
    if (!options.reserve) return { workers, reservation: null };
    const reservation = options.reserve(workers * impactWorkerBytes(bytes));
    if (reservation !== null) return { workers, reservation };
  }
  return null;
}

/** Which worker asks the questions from `from` on: chunks dealt in turn (equal shares of work). */
const workerOf = (from: number, workers: number): number => Math.floor(from / CHUNK) % workers;

/** The written sides replayed by `workers` workers; null when one fails (the loop replays then). */
async function replayOnWorkers(
  from: Uint8Array[],
  to: Uint8Array[],
  workers: number,
  { a, b, questions, reach: filter, at, settings, warm }: Replay,
  watch: ImpactWatch,
  options: WorkerOptions,
  known: KeptOutcomes | null,
): Promise<Comparison | null> {
  const total = questions.length;
  const differs = [...(await answerDiffers(a, b))];
  const shares = new Array<number>(workers).fill(0);
  for (let i = 0; i < total; i += CHUNK) {
    const j = workerOf(i, workers);
    shares[j] = (shares[j] as number) + Math.min(CHUNK, total - i);
  }
  const threads: Worker[] = [];
  try {
    for (let j = 0; j < workers; j++) {
      const thread = startWorker(options.url ?? impactWorkerUrl(), { execArgv: [] });
      thread.unref();
      threads.push(thread);
    }
  } catch {
    for (const thread of threads) void thread.terminate();
    return null;
  }
  const learned: Learned[] = [];
  const comparison = await new Promise<Comparison | null>((resolve, reject) => {
    let settled = false;
    const done = new Array<number>(workers).fill(0);
    const parts: (PartialComparison | undefined)[] = new Array(workers).fill(undefined);
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      watch.signal?.removeEventListener('abort', aborted);
      for (const thread of threads) void thread.terminate();
      outcome();
    };
    const aborted = () => settle(() => reject(watch.signal?.reason));
    watch.signal?.addEventListener('abort', aborted);
    threads.forEach((thread, j) => {
      thread.on('message', (data: unknown) => {
        const message = fromWorker(data);
        if (message === null || message.type === 'failed') settle(() => resolve(null));
        else if (message.type === 'ready') options.onReady?.(message.nice);
        else if (message.type === 'progress') {
          done[j] = message.done;
          watch.progress?.(
            done.reduce((sum, count) => sum + count, 0),
            total,
          );
        } else if (message.type === 'done') {
          parts[j] = { comparison: message.comparison, positions: message.positions };
          learned.push(message.learned);
          if (parts.every((part) => part !== undefined)) {
            settle(() => resolve(mergeComparisons(parts as PartialComparison[])));
          }
        }
      });
      thread.on('error', () => settle(() => resolve(null)));
      // A worker stops only when told to (settle): one stopping before is a failure.
      thread.on('exit', () => settle(() => resolve(null)));
    });
    void (async () => {
      // The blocks are shared memory: each worker joins them into its own index, off the loop.
      for (let j = workers - 1; j >= 0; j--) {
        const start: ReplayStart = {
          sides: [from, to],
          plan: planSource(filter),
          differs,
          at,
          settings: { ...settings },
          total: shares[j] as number,
          warm: warm === true,
        };
        (threads[j] as Worker).postMessage({ type: 'start', ...start });
        await nextTurn();
      }
      for (let i = 0; i < total && !settled; i += CHUNK) {
        const chunk = questions.slice(i, i + CHUNK);
        const asks = Float64Array.from(chunk, (question) => question.asks);
        const texts = chunk.map((q) => q.text);
        const sent = packOutcomes(texts.map((text) => known?.get(text)));
        const message: ToWorker = { type: 'questions', texts, asks, from: i, known: sent };
        (threads[workerOf(i, workers)] as Worker).postMessage(message, [
          asks.buffer,
          sent.kinds.buffer as ArrayBuffer,
        ]);
        await nextTurn();
      }
    })();
  });
  watch.signal?.throwIfAborted();
  if (comparison !== null && known !== null) await keep(known, learned, questions);
  return comparison && nameExamples(comparison, a, b);
}

/** Keeps the outcomes the workers worked out for the next preview, in slices. */
async function keep(
  known: KeptOutcomes,
  parts: readonly Learned[],
  questions: Replay['questions'],
): Promise<void> {
  for (const part of parts) {
    await forEachInSlices(Array.from(part.positions.keys()), (i) => {
      const question = questions[part.positions[i] as number];
      const outcome = unpackOutcome(part, i);
      if (question !== undefined && outcome !== undefined) known.learn(question.text, outcome);
    });
  }
}
