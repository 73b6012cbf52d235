/**
 * Long batch work cut into slices of a few milliseconds with a turn of the event loop between
 * them, so that the questions that arrive meanwhile are answered within a slice, not after the
 * whole batch (docs/storage.md, "Writes and the questions asked meanwhile").
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The longest stretch of batch work between two turns of the event loop. 1 ms, not 4: with two
 * importers, ask p99 went from 3.9–4.3× its idle value to 1.8–2.8× (medians 4.1× and 2.3× of 9 and 8 runs, same session),
 * for ~7% fewer rules/s imported while asks are served and ~1% alone (docs/storage.md).
 */
export const SLICE_MS = 1;

/** Batch work waiting for its next slice, in the order it asked. */
const waiting: (() => void)[] = [];
let turnScheduled = false;

function resumeOne(): void {
  turnScheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) scheduleTurn();
}

function scheduleTurn(): void {
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(resumeOne);
}

/**
 * Resolves after the event loop has polled for I/O once (requests waiting are read first).
 * Batch works waiting at once take turns, one slice per turn of the event loop: with two
 * imports and an index update in flight, a question waits for one slice, not one of each.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    scheduleTurn();
  });
}

/**
 * Calls `each` for every item in order, giving the event loop a turn whenever a slice has run
 * for `sliceMs`.
 */
export async function forEachInSlices<T>(
  items: readonly T[],
  each: (item: T, index: number) => void,
  sliceMs = SLICE_MS,
): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    each(items[i] as T, i);
    if (i + 1 < items.length && performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** `items.map(map)`, in slices (see `forEachInSlices`). */
export async function mapInSlices<T, U>(
  items: readonly T[],
  map: (item: T, index: number) => U,
  sliceMs = SLICE_MS,
): Promise<U[]> {
  const out: U[] = [];
  await forEachInSlices(items, (item, i) => out.push(map(item, i)), sliceMs);
  return out;
}

/**
 * Resolves after `ms`, or at once when `signal` aborts; keeps no timer alive and leaves no
 * listener on the signal (a warm-up polling every 500 ms for a minute added 120 to the
 * service's long-lived closing signal, and Node warned of a leak).
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { ref: false, ...(signal ? { signal } : {}) }).catch(() => undefined);
}
