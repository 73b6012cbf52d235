/**
 * Loaded into a benched service with `node --import` (tests/bench/bundle-import-bench.ts): every
 * stretch of over 20 ms during which the service's event loop ran no timer is printed to stderr
 * as `loop-hold <ms> cpu <ms>`, with the CPU time the process used meanwhile (all its threads).
 * A hold with little CPU was the machine's scheduler (a loaded machine); one with as much CPU as
 * wall time was work that held the loop. Plain JavaScript: node runs it before the service.
 * @module
 */
import { isMainThread } from 'node:worker_threads';

const TICK_MS = 5;
const REPORT_MS = 20;

let last = performance.now();
let cpu = process.cpuUsage();
// The service's loop only: a worker thread (the snapshot's) inherits `--import` and has its own.
if (isMainThread)
  setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const held = now - last - TICK_MS;
    last = now;
    if (held > REPORT_MS) {
      const cpuMs = (used.user + used.system) / 1000;
      process.stderr.write(`loop-hold ${held.toFixed(0)} cpu ${cpuMs.toFixed(0)}\n`);
    }
  }, TICK_MS).unref();
