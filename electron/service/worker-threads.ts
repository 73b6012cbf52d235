/**
 * The service's worker threads (the snapshot, the question log's export, the vector lists'
 * training, the impact preview's replay): each is built to a file of its own beside the bundle
 * that starts it (build/build.mjs), and run from its TypeScript source under tsx (tests, the
 * bench).
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * The worker `name`'s file for the module at `here` (its `import.meta.url`): `name.ts` beside the
 * source under tsx, `name.js` beside the bundle once built.
 */
export function workerUrl(name: string, here: string): URL {
  return new URL(here.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, here);
}

/**
 * Starts the worker at `url`. A TypeScript source goes through tsx's loader, which a worker does
 * not inherit on Node 20 whatever its flags: the worker registers tsx's hooks itself, then
 * imports the source.
 */
export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * The messages `worker` posts, read one at a time in their order; the thread failing or ending
 * comes after them as `{ error }` (`what` names it), so a reader waiting for the next always
 * wakes. Used by the exports, which ask for chunks ahead of the response.
 */
export function workerMessages<M>(
  worker: Worker,
  what: string,
): () => Promise<M | { error: string }> {
  const queue: (M | { error: string })[] = [];
  let wake: (() => void) | null = null;
  const push = (message: M | { error: string }) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (error: Error) => push({ error: error.message }));
  worker.on('exit', (code: number) => push({ error: `${what} stopped (exit code ${code})` }));
  return async () => {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift() as M | { error: string };
  };
}
