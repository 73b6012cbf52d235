/** Small statistics helpers for the benchmarks. */
import { execFileSync } from 'node:child_process';
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

let clockTicks: number | undefined;
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux seen). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * CPU time a process has used so far, in seconds (user and system, all its threads: Linux's
 * /proc/PID/stat); NaN where unknown.
 */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) start at the third: utime and
    // stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return Number.NaN;
  }
}
