/**
 * `tsx tests/bench/snapshot-memory-bench.ts [--mb N] [--rounds R]`, or `npm run bench --
 * --snapshot-memory [--snapshot-mb N]`: the memory a snapshot built on the worker thread takes
 * (decision 121), as after a large import: a small snapshot, then about N MB written (rows of
 * ~1 KB of text, 200 per transaction, as an import's batches), then `snapshot()`. Reports the
 * process's RSS before and its peak while the snapshot is built and written (sampled every 5 ms),
 * both as multiples of the database's size (the snapshot file's), and the worker's wall time.
 * @module
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { silentLogger } from '../../electron/service/logger';
import { Store } from '../../electron/service/store/embedded/database';
import { percentile, round } from './stats';

const median = (values: number[]) => percentile(values, 50);

const MB = 1024 * 1024;

export interface SnapshotMemoryFigures {
  databaseMb: number;
  rounds: number;
  /** Median over rounds: (peak RSS during the snapshot − RSS before) / database size. */
  peakOverDatabase: number;
  /** The largest of the rounds. */
  worstPeakOverDatabase: number;
  seconds: number;
}

export function snapshotMemoryLine(f: SnapshotMemoryFigures): string {
  return `snapshot on the worker, database ${f.databaseMb} MB: RSS +${f.peakOverDatabase}× the database while it runs (median of ${f.rounds}, worst ${f.worstPeakOverDatabase}×), ${f.seconds} s`;
}

function rssBytes(): number {
  return process.memoryUsage.rss();
}

async function oneRound(mb: number): Promise<{ over: number; seconds: number; dbMb: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-snapshot-'));
  const store = await Store.open({
    dataDir: dir,
    logger: silentLogger,
    migrations: [
      {
        version: 1,
        name: 'texts',
        sql: 'CREATE TABLE texts (id INTEGER PRIMARY KEY, body TEXT NOT NULL);',
      },
    ],
    // Every snapshot on the worker, none taken by itself while the rows are written.
    snapshotWorkerMinBytes: 0,
    snapshotJournalBytes: Number.MAX_SAFE_INTEGER,
    snapshotIdleMs: 3_600_000,
  });
  try {
    await store.snapshot();
    const body = '答'.repeat(340);
    const rows = Math.round((mb * MB) / Buffer.byteLength(body));
    for (let i = 0; i < rows; i += 200) {
      store.write((tx) => {
        for (let j = i; j < Math.min(rows, i + 200); j++)
          tx.run('INSERT INTO texts (body) VALUES (?)', [`${j} ${body}`]);
      });
    }
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = rssBytes();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes())), 5);
    const start = performance.now();
    await store.snapshot();
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes());
    const dbBytes = statSync(join(dir, 'kb.sqlite')).size;
    return { over: (peak - before) / dbBytes, seconds, dbMb: dbBytes / MB };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureSnapshotMemory(
  mb: number,
  rounds: number,
): Promise<SnapshotMemoryFigures> {
  const results = [];
  for (let r = 0; r < rounds; r++) results.push(await oneRound(mb));
  return {
    databaseMb: round(median(results.map((r) => r.dbMb)), 0),
    rounds,
    peakOverDatabase: round(median(results.map((r) => r.over)), 2),
    worstPeakOverDatabase: round(Math.max(...results.map((r) => r.over)), 2),
    seconds: round(median(results.map((r) => r.seconds)), 1),
  };
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: { mb: { type: 'string', default: '40' }, rounds: { type: 'string', default: '3' } },
  });
  const figures = await measureSnapshotMemory(Number(values.mb), Number(values.rounds));
  console.log(snapshotMemoryLine(figures));
  process.exit(0);
}
