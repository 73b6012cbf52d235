/**
 * The team server's export alone, in-process (issue 28, decisions 193–194): `tsx
 * tests/bench/question-log-pg-export.ts postgres://…/DATABASE [rounds]` exports the largest log
 * of a filled database (question-log-pg-kept.ts keeps one; read a copy, not the kept template,
 * which a connection would keep from being copied) made on the event loop (decision 189) and
 * by the worker (the shipped settings, and others tried), alternated, and reports for each: the
 * export's wall time and the process's CPU (every thread), the event loop's longest hold
 * (monitorEventLoopDelay), RSS before and at its peak, and the CSV's bytes and SHA-256 (the
 * same in every way, or the bench says so). No asks: the hold is the export's own.
 * @module
 */
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import type { ExportOptions } from '../../electron/service/store/postgres/question-log-export';
import { startExportWorker } from '../../electron/service/store/postgres/question-log-export';

const [url, roundsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: question-log-pg-export.ts postgres://…/DATABASE [rounds]');
const rounds = Number(roundsArg ?? 2);
/** Ways left out (a comma-separated list in KB_BENCH_SKIP, to shorten a run). */
const skipped = new Set((process.env.KB_BENCH_SKIP ?? '').split(','));

const WAYS: Record<string, ExportOptions> = {
  loop: {
    start: () => {
      throw new Error('on the event loop');
    },
  },
  worker: {},
  'worker young 32': {
    start: (job) =>
      startExportWorker(job, { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 128 }),
  },
  'worker slices 1000': { workerSliceRows: 1000 },
  'worker slices 1000 young 32': {
    workerSliceRows: 1000,
    start: (job) =>
      startExportWorker(job, { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 128 }),
  },
};

interface Run {
  way: string;
  wallMs: number;
  cpuMs: number;
  loopMaxMs: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  bytes: number;
  sha256: string;
}

const pool = openPool({ url, logger: silentLogger });
const { rows } = await pool.query<{ log_key: string }>(
  'SELECT log_key FROM question_logs ORDER BY entries DESC LIMIT 1',
);
const key = rows[0]?.log_key;
if (!key) throw new Error('no log in that database');

async function exportOnce(way: string): Promise<Run> {
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, export: WAYS[way] ?? {} });
  const hold = monitorEventLoopDelay({ resolution: 10 });
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, process.memoryUsage().rss / 2 ** 20);
  }, 50);
  const hash = createHash('sha256');
  let bytes = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  hold.enable();
  for await (const chunk of log.csvRows(key as string, 0, Number.MAX_SAFE_INTEGER)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  hold.disable();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  await log.close();
  return {
    way,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round((used.user + used.system) / 1000),
    loopMaxMs: Math.round(hold.max / 1e6),
    rssBeforeMb: Math.round(rssBeforeMb),
    rssPeakMb: Math.round(rssPeakMb),
    bytes,
    sha256: hash.digest('hex').slice(0, 16),
  };
}

const runs: Run[] = [];
for (let round = 0; round < rounds; round++) {
  const ways = Object.keys(WAYS).filter((way) => !skipped.has(way));
  for (const way of round % 2 === 0 ? ways : ways.reverse()) {
    const run = await exportOnce(way);
    console.error(JSON.stringify(run));
    runs.push(run);
  }
}
const digests = new Set(runs.map((run) => `${run.bytes}/${run.sha256}`));
console.log(JSON.stringify({ load: (await import('node:os')).loadavg(), runs }));
console.log(
  digests.size === 1
    ? 'every way made the same bytes'
    : `DIFFERENT BYTES: ${[...digests].join(', ')}`,
);
await pool.end();
