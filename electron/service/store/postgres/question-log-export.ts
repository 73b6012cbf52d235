/**
 * The team server's export, its rows made by a worker thread (question-log-export-worker.ts,
 * decision 193): made on the event loop a slice at a time (decision 189), a million entries held
 * asks for 1.2–2.4 s under load and grew RSS by 100–200 MB, their decoded entries and rows being
 * the main heap's garbage. The worker reads the slices on a connection of its own (the node's
 * connection settings and timeouts; one connection, ended on finish, failure or abort), makes the
 * rows with its own small heap and posts them as bytes, a few chunks ahead of the response at
 * most: the main thread only writes them out.
 *
 * A worker takes a while to give its first rows (its start, the driver's load, its connection:
 * 0.3–1 s under load), so the first `HEAD_ROWS` entries are made on the event loop in small
 * slices meanwhile, as the embedded store's export does (decision 141); an export no longer than
 * that starts no worker. A worker that cannot start, or an export past `EXPORT_WORKERS_MAX`
 * running at once, leaves the rows to the event loop, a slice a turn (decision 189).
 * @module
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type pg from 'pg';
import { startWorker as startWorkerAt, workerMessages, workerUrl } from '../../worker-threads';
import type { Pool } from './connection';
import { mappedError } from './database-errors';
import type { RuleNumbers } from './question-log-row';
import { SLICE_ROWS, csvText, readSlice } from './question-log-slice';

/** What the worker is given: where to connect, and which entries. */
export interface ExportWorkerJob {
  config: pg.ClientConfig;
  logId: number;
  from: number;
  to: number;
  /** Entries read a statement (WORKER_SLICE_ROWS). */
  sliceRows: number;
}

/** What the main thread tells the worker: where to start (once), and more chunks allowed. */
export interface ToExportWorker {
  start?: number;
  credit?: number;
}

/** What the worker posts: a chunk of rows, the end, or why it stopped (the driver's code). */
export type ExportMessage =
  { chunk: Uint8Array } | { done: true } | { error: string; code?: string };

/**
 * Entries the worker reads a statement. 1,000 as on the loop: at 5,000 the slice in hand outlived
 * the worker's young generation and the export took more CPU (decision 193).
 */
export const WORKER_SLICE_ROWS = 1000;
/** Characters of CSV the worker hands over at a time. */
export const EXPORT_CHUNK_TEXT = 256 * 1024;
/** Chunks the worker may make ahead of the response. */
const AHEAD = 4;
/** Entries made on the event loop while the worker starts, and a slice of them (a few ms). */
export const HEAD_ROWS = 2000;
const HEAD_SLICE_ROWS = 250;
/**
 * The worker's heap: a bound on the old generation (it keeps nothing but a slice and a chunk),
 * and a young one that holds most of a slice's garbage (rows, entries, CSV text), so that it is
 * scavenged rather than promoted. At 4 MB (the embedded export's) the export took more CPU; at
 * 32 MB the service's RSS rose past 100 MB during the reads (decision 193).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 };
/**
 * Exports a node runs in workers at once: each holds a connection beside the pool's, so that
 * their number stays bounded; an export past them makes its rows on the event loop.
 */
export const EXPORT_WORKERS_MAX = 2;
let workersRunning = 0;
/** How the export's session shows in `pg_stat_activity` (operators, and the tests). */
export const EXPORT_APPLICATION_NAME = 'kb-studio question-log export';
/** Options of the pool that are not a connection's. */
const POOL_ONLY = new Set([
  'max',
  'min',
  'idleTimeoutMillis',
  'maxUses',
  'maxLifetimeSeconds',
  'allowExitOnIdle',
]);

/**
 * The worker's connection settings: the node's pool's (its URL, timeouts and session settings:
 * connection.ts `clientConfig`), the values a thread can be given. The pool keeps its password
 * unlisted; it is copied when it is text.
 */
export function workerConfig(pool: Pool): pg.ClientConfig {
  const config: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(pool.options)) {
    if (POOL_ONLY.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      config[name] = value;
  }
  if (typeof pool.options.password === 'string') config.password = pool.options.password;
  return { ...config, application_name: EXPORT_APPLICATION_NAME };
}

/** Where the rows come from: the node's pool and rule numbers, the log and its period. */
export interface ExportSource {
  pool: Pool;
  rules: RuleNumbers;
  logId: number;
  from: number;
  to: number;
}

export interface ExportOptions {
  /** Entries made on the event loop first (HEAD_ROWS; tests set fewer). */
  headRows?: number;
  /** Entries the worker reads a statement (WORKER_SLICE_ROWS; the bench tries others). */
  workerSliceRows?: number;
  /** Starts the worker (tests: one that cannot start). */
  start?: (job: ExportWorkerJob) => Worker;
}

/** Starts the export's worker (`resourceLimits`: RESOURCE_LIMITS; the bench tries others). */
export function startExportWorker(
  job: ExportWorkerJob,
  resourceLimits: ResourceLimits = RESOURCE_LIMITS,
): Worker {
  return startWorkerAt(workerUrl('question-log-export-worker', import.meta.url), {
    workerData: job,
    resourceLimits,
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The rows after entry `after` made on the event loop, a slice a turn (the fallback). */
async function* onLoop(source: ExportSource, after: number): AsyncGenerator<Uint8Array> {
  for (let from = after; ;) {
    const slice = await readSlice(source.pool, source.rules, {
      ...source,
      after: from,
      limit: SLICE_ROWS,
    });
    if (slice.entries.length > 0) yield Buffer.from(csvText(slice.entries));
    if (slice.read < SLICE_ROWS) return;
    from = slice.last;
    await nextTurn();
  }
}

/** The worker's failure as the store's (a database out of reach: `StorageUnavailable`). */
function workerFailure(message: { error: string; code?: string }): unknown {
  const error = Object.assign(new Error(message.error), message.code ? { code: message.code } : {});
  return mappedError(error);
}

/**
 * The CSV rows (no header) of the source's entries, oldest first, a chunk at a time. Stopping
 * early (the download closed) terminates the worker, and its connection with it.
 */
export async function* exportRows(
  source: ExportSource,
  options: ExportOptions = {},
): AsyncGenerator<Uint8Array> {
  const headRows = options.headRows ?? HEAD_ROWS;
  let worker: Worker | null = null;
  // Set by `begin` (a closure: typed so that the checker does not read it as always null).
  let next = null as (() => Promise<ExportMessage>) | null;
  /** Starts the worker (null: it cannot start; the loop makes every row). */
  const begin = (): Worker | null => {
    if (workersRunning >= EXPORT_WORKERS_MAX) return null;
    try {
      const started = (options.start ?? startExportWorker)({
        config: workerConfig(source.pool),
        logId: source.logId,
        from: source.from,
        to: source.to,
        sliceRows: options.workerSliceRows ?? WORKER_SLICE_ROWS,
      });
      next = workerMessages<ExportMessage>(started, 'the export worker');
      workersRunning += 1;
      // Counted until its thread has ended (its connection with it), whoever ends it.
      started.once('exit', () => (workersRunning -= 1));
      return started;
    } catch {
      return null;
    }
  };
  try {
    let after = 0;
    if (headRows === 0) worker = begin();
    for (let left = headRows; left > 0;) {
      const limit = Math.min(HEAD_SLICE_ROWS, left);
      const slice = await readSlice(source.pool, source.rules, { ...source, after, limit });
      // Started once the log is known to hold more than a slice: a short export needs none.
      if (slice.read === limit && left === headRows) worker = begin();
      if (slice.entries.length > 0) yield Buffer.from(csvText(slice.entries));
      if (slice.read < limit) return;
      left -= slice.read;
      after = slice.last;
      await nextTurn();
    }
    if (!worker || !next) {
      yield* onLoop(source, after);
      return;
    }
    worker.postMessage({ start: after, credit: AHEAD } satisfies ToExportWorker);
    let received = 0;
    for (;;) {
      const message = await next();
      if ('done' in message) return;
      if ('error' in message) {
        // A worker that never ran (no driver's code, no rows): the rows on the loop instead.
        if (received === 0 && message.code === undefined) {
          yield* onLoop(source, after);
          return;
        }
        throw workerFailure(message);
      }
      received += 1;
      yield message.chunk;
      worker.postMessage({ credit: 1 } satisfies ToExportWorker);
    }
  } finally {
    if (worker) {
      worker.removeAllListeners('message');
      worker.removeAllListeners('error');
      // An error after this (its thread ending) has no one to tell.
      worker.on('error', () => undefined);
      void worker.terminate();
    }
  }
}
