/**
 * The embedded question log's raw reads at volume (issue 28, decisions 133-134), in-process on
 * the store itself: one robot's day of asks (question-log-traffic.ts) filled once and kept under
 * the system's temporary folder (`KB_BENCH_LOG_FILL` names another; a copy is read, so that the
 * fill serves every run), then each filtered page (user id, text present and absent, outcome,
 * rule, time) and the CSV export timed, with the longest hold of the event loop while each runs
 * (what an ask would have waited) and the heap and RSS the export added. Entries keep arriving
 * meanwhile (as asks would), so that a read finds lines buffered. The export is measured twice in
 * the same run: on the event loop (a slice of entries at a time: the baseline) and as the store
 * streams it (its worker).
 * `npx tsx tests/bench/log-read-bench.ts [asks]` (default 1,000,000).
 * @module
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { silentLogger } from '../../electron/service/logger';
import { CSV_COLUMNS, csvRow } from '../../electron/service/question-log-types';
import type { LogFilter } from '../../electron/service/store/contract/question-log';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { exportRows } from '../../electron/service/store/embedded/question-log/segment-export';
import { makeDataDir } from '../helpers/service';
import { generateRules } from './generate-rules';
import { fillLog } from './question-log-fill';
import { traffic } from './question-log-traffic';
import { round } from './stats';

const MB = 1024 * 1024;
const ROBOT = { tenantId: 1, robotId: 'default' };
const LOG = '1/default';
/** The form of the segments' filters the fill has (decisions 134, 140). */
const FILTERS = 3;

export interface ReadFigure {
  ms: number;
  /** The longest the event loop was held while it ran (wall time: the machine's load in it). */
  loopMaxMs: number;
  /** The main thread's longest garbage collection while it ran, and all of them. */
  gcMaxMs: number;
  gcTotalMs: number;
  /** The process's CPU time meanwhile (all its threads): the steadier figure on a busy machine. */
  cpuMs: number;
}

export interface LogReadFigures {
  asks: number;
  reads: Record<string, ReadFigure>;
  exports: Record<
    'loop' | 'store' | 'built',
    ReadFigure & { firstByteMs: number; bytes: number; heapPeakMb: number; rssAddedMb: number }
  >;
}

async function filled(asks: number): Promise<{ dataDir: string; end: number }> {
  const dir = process.env.KB_BENCH_LOG_FILL ?? join(tmpdir(), `kb-bench-log-fill-${asks}`);
  const done = join(dir, 'filled.json');
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const rules = generateRules(2000, 42).map((rule, i) => ({
      ruleId: `r${i}`,
      questions: rule.questions,
    }));
    const end = Date.now();
    const started = performance.now();
    await fillLog({ dataDir: dir, database: undefined, robot: ROBOT, rules, asks, end });
    console.error(`  filled ${asks} asks in ${round((performance.now() - started) / 1000, 1)} s`);
    writeFileSync(done, JSON.stringify({ end }));
  }
  const { end, filters } = JSON.parse(readFileSync(done, 'utf8')) as {
    end: number;
    filters?: number;
  };
  if (filters !== FILTERS) {
    // The segments' filters of the current form, made once in the fill (a service makes them
    // as its segments close: none is made while the reads are timed).
    const upgrade = new DayFileLog({ dataDir: dir, logger: silentLogger, now: () => end });
    await upgrade.size(LOG);
    await upgrade.filtersBuilt();
    await upgrade.close();
    writeFileSync(done, JSON.stringify({ end, filters: FILTERS }));
  }
  const copy = makeDataDir('bench-log-read');
  cpSync(dir, copy, { recursive: true });
  return { dataDir: copy, end };
}

/** Times `run` with the event loop's longest hold and the collections meanwhile. */
async function held<T>(run: () => Promise<T>): Promise<ReadFigure & { value: T }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  let gcMaxMs = 0;
  let gcTotalMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
      gcTotalMs += entry.duration;
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  delay.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await run();
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  delay.disable();
  // The last collections' entries arrive a turn later.
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc.disconnect();
  return {
    ms,
    loopMaxMs: delay.max / 1e6,
    gcMaxMs,
    gcTotalMs,
    cpuMs: (user + system) / 1000,
    value,
  };
}

export async function measureLogReads(asks = 1_000_000): Promise<LogReadFigures> {
  const { dataDir, end } = await filled(asks);
  const log = new DayFileLog({ dataDir, logger: silentLogger, now: () => end });
  // Asks keep coming while the reads run (about 200 a second).
  const arriving = traffic(
    generateRules(50, 7).map((rule, i) => ({ ruleId: `r${i}`, questions: rule.questions })),
    1_000_000,
    end,
  );
  const asker = setInterval(() => {
    for (let i = 0; i < 2; i++) {
      const next = arriving.next();
      if (!next.done) log.append(LOG, next.value.entry, null);
    }
  }, 10);
  try {
    const all: LogFilter = { from: 0, to: Number.MAX_SAFE_INTEGER };
    const page = (filter: Partial<LogFilter>) =>
      log.page(LOG, { filter: { ...all, ...filter }, before: null, offset: 0, limit: 50 });
    // Opened (the segments listed) before anything is timed, as the service does at start.
    await log.size(LOG);
    const reads: Record<string, ReadFigure> = {};
    const cases: [string, Partial<LogFilter>][] = [
      ['first page', {}],
      ['user id', { userId: 'user-4242' }],
      ['user id (again)', { userId: 'user-777' }],
      ['absent text', { text: 'nowhere-to-be-found' }],
      ['text', { text: 'parcel' }],
      ['outcome', { outcome: 'fallback' }],
      ['rule', { ruleId: 'r17' }],
      ['time (an hour, 12 h ago)', { from: end - 12 * 3_600_000, to: end - 11 * 3_600_000 }],
      ['absent text (again)', { text: 'nowhere-at-all' }],
    ];
    for (const [name, filter] of cases) {
      const { ms, loopMaxMs, gcMaxMs, gcTotalMs, cpuMs } = await held(() => page(filter));
      reads[name] = { ms, loopMaxMs, gcMaxMs, gcTotalMs, cpuMs };
    }
    const exportOf = async (chunks: () => AsyncIterable<string | Uint8Array>) => {
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      const rssBefore = process.memoryUsage().rss;
      let heapPeak = heapBefore;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        const usage = process.memoryUsage();
        heapPeak = Math.max(heapPeak, usage.heapUsed);
        rssPeak = Math.max(rssPeak, usage.rss);
      }, 20);
      let firstByteMs = Number.NaN;
      let bytes = 0;
      const start = performance.now();
      const figure = await held(async () => {
        for await (const chunk of chunks()) {
          if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - start;
          bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
          // A socket's pace: the consumer writes each chunk before it asks for the next.
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      clearInterval(sampler);
      return {
        ms: figure.ms,
        loopMaxMs: figure.loopMaxMs,
        gcMaxMs: figure.gcMaxMs,
        gcTotalMs: figure.gcTotalMs,
        cpuMs: figure.cpuMs,
        firstByteMs,
        bytes,
        heapPeakMb: (heapPeak - heapBefore) / MB,
        rssAddedMb: (rssPeak - rssBefore) / MB,
      };
    };
    const header = `\ufeff${CSV_COLUMNS.join(',')}\r\n`;
    const loop = await exportOf(async function* () {
      yield header;
      for await (const slice of log.slices(LOG, 0, Number.MAX_SAFE_INTEGER)) {
        let text = '';
        for (const entry of slice) text += `${csvRow(entry)}\r\n`;
        yield text;
      }
    });
    const store = await exportOf(() => log.csvRows(LOG, 0, Number.MAX_SAFE_INTEGER));
    // The export from the segment files alone (decision 202: on the loop, as the store runs it).
    const folder = join(dataDir, 'question-log', '1', 'default');
    const job = () => ({
      segments: readdirSync(folder)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
        .map((name) => ({
          path: join(folder, name),
          dayStart: Date.parse(name.slice(0, 10)),
          bytes: statSync(join(folder, name)).size,
        })),
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
    });
    const bundled = await exportOf(() => exportRows(job()));
    return { asks, reads, exports: { loop, store, built: bundled } };
  } finally {
    clearInterval(asker);
    await log.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function logReadLine(figures: LogReadFigures): string {
  const ms = (value: number) => round(value, 0);
  const reads = Object.entries(figures.reads)
    .map(
      ([name, f]) =>
        `${name} ${ms(f.ms)} ms (CPU ${ms(f.cpuMs)}, loop held ${ms(f.loopMaxMs)}, GC max ${ms(f.gcMaxMs)})`,
    )
    .join(', ');
  const exp = (name: string, f: LogReadFigures['exports']['loop']) =>
    `${name}: first byte ${ms(f.firstByteMs)} ms, total ${ms(f.ms)} ms (CPU ${ms(f.cpuMs)}), loop held ${ms(f.loopMaxMs)} ms, ` +
    `GC max ${ms(f.gcMaxMs)} ms (${ms(f.gcTotalMs)} ms in all), ` +
    `heap +${ms(f.heapPeakMb)} MB, RSS +${ms(f.rssAddedMb)} MB, ${round(f.bytes / MB, 1)} MB`;
  const { loop, store, built } = figures.exports;
  return (
    `\nLog reads at ${figures.asks} asks (embedded, in-process): ${reads}; export ${exp('on the loop', loop)}; ` +
    `${exp('by the store', store)}; ${exp('from the segment files', built)} ` +
    `(GC max ${round(built.gcMaxMs / loop.gcMaxMs, 3)} of the baseline's, heap ${round(built.heapPeakMb / loop.heapPeakMb, 3)})`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureLogReads(Number(process.argv[2] ?? 1_000_000));
  console.log(logReadLine(figures));
  console.log(JSON.stringify(figures));
}
