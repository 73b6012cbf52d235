/**
 * Loaded into a benched service with `node --import` (tests/bench/question-log-reads-bench.ts):
 * every stretch of over 20 ms during which the service's event loop ran no timer is printed to
 * stderr as `main-hold <ms> cpu <ms>`, with the CPU time of the main thread alone meanwhile (from
 * its /proc schedstat: the time it ran, in ns). On a loaded machine the wall time of a hold counts
 * the other engineers' work too; the main thread's own CPU says what the service did (issue 28: an
 * export's worker or libuv's threads no longer count, unlike tests/bench/loop-holds.mjs).
 * Plain JavaScript: node runs it before the service.
 * @module
 */
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const TICK_MS = 5;
const REPORT_MS = 20;
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** The main thread's CPU time so far (ms), or NaN where /proc has none. */
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

let last = performance.now();
let cpu = mainThreadCpuMs();
if (isMainThread)
  setInterval(() => {
    const now = performance.now();
    const cpuNow = mainThreadCpuMs();
    const held = now - last - TICK_MS;
    const used = cpuNow - cpu;
    last = now;
    cpu = cpuNow;
    if (held > REPORT_MS)
      process.stderr.write(`main-hold ${held.toFixed(0)} cpu ${used.toFixed(0)}\n`);
  }, TICK_MS).unref();
