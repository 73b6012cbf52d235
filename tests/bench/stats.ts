/** Small statistics helpers for the benchmarks. */
import { readFileSync } from 'node:fs';

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Times `fn` once, in milliseconds. */
export async function timeMs(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Peak resident set size of a process (Linux: VmHWM), in MB; NaN where unknown. */
export function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Follows a process's peak RSS until it exits (VmHWM read every 10 ms; the last reading before
 * exit is the peak of its whole life, stop included, to within those 10 ms).
 */
export function followPeakRss(pid: number): { stop(): number } {
  let peak = peakRssMb(pid);
  const timer = setInterval(() => {
    const now = peakRssMb(pid);
    if (!Number.isNaN(now)) peak = Math.max(peak, now);
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
