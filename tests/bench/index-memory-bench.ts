/**
 * `npx tsx tests/bench/index-memory-bench.ts [--sizes 10000,100000] [--rounds 3] [--base DIR]`:
 * what the matching index holds at the bench's sizes and what a new question costs, this tree's
 * engine and (with `--base`, another checkout's, e.g. main's exported with `git archive`) in
 * the same run, rounds alternating. Each measure runs in a child process of its own
 * (`--expose-gc`): the index's bytes are the V8 heap plus array buffers after a full GC, less
 * the same before indexing, once 500 questions were asked (the norms and the scorer's tables are
 * made on first use); then 2000 new questions after 1000 others, wall p50 / p99 and CPU time per
 * question; then the index saved, dropped and opened from its bytes (as a new start or a budgeted
 * node's load does), its bytes plus what it holds besides once 500 questions were asked. For work
 * on the index's memory (issue 31, docs/matching.md "Memory at 100k rules").
 * @module
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RobotIndex } from '../../electron/service/matching/types';
import { generateRules, matchableRules } from './generate-rules';
import { percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

const NOW = Date.UTC(2025, 0, 1);
const SETTINGS = {
  bestmatchThreshold: 0.94,
  recommendThreshold: 0.1,
  margin: 0.1,
  maxRecommend: 5,
};

export interface IndexMemoryFigures {
  size: number;
  indexMb: number;
  heapMb: number;
  arrayBuffersMb: number;
  askP50Ms: number;
  askP99Ms: number;
  askCpuMs: number;
  /** The same rules saved and opened again (as a new start or a budgeted node's load does). */
  savedMb: number;
  openedMb: number;
  openedHeapMb: number;
}

interface Engine {
  createRobotIndex(options: { selfCalibration: boolean }): RobotIndex;
  saveRobotIndex(index: RobotIndex): Uint8Array;
  loadRobotIndex(bytes: Uint8Array<ArrayBuffer>): RobotIndex | null;
}

async function settled(): Promise<{ heap: number; buffers: number }> {
  for (let i = 0; i < 3; i += 1) {
    // A turn of the loop first: a GC from inside the caller's frame keeps its garbage.
    await new Promise((done) => setTimeout(done, 10));
    globalThis.gc?.();
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, buffers: arrayBuffers };
}

/** One measure, in this process (started with --expose-gc): the engine at `root`. */
async function measureHere(root: string, size: number): Promise<IndexMemoryFigures> {
  const engine = (await import(resolve(root, 'electron/service/matching/index.ts'))) as Engine;
  const generated = generateRules(size, 42);
  const warmUp = deriveQueries(generated, 1_000, 1_000_000);
  const queries = deriveQueries(generated, 2_000);
  // The rules as an import hands them over: parsed from JSON, their strings not shared.
  const json = JSON.stringify(matchableRules(generated));
  const before = await settled();
  const index = engine.createRobotIndex({ selfCalibration: false });
  for (const rule of JSON.parse(json) as ReturnType<typeof matchableRules>) index.upsert(rule);
  for (const question of warmUp.slice(0, 500)) index.match(question, NOW, SETTINGS);
  const after = await settled();
  // Kept alive until here: freed between the two readings, they would count against the index.
  if (json.length === 0 || generated.length === 0 || queries.length === 0)
    throw new Error('no rules');
  for (const question of warmUp.slice(500)) index.match(question, NOW, SETTINGS);
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (const question of queries) {
    const start = performance.now();
    index.match(question, NOW, SETTINGS);
    times.push(performance.now() - start);
  }
  const used = process.cpuUsage(cpu);
  const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
  // Opened from its saved bytes, read as a difference (the built index may still be alive): the
  // bytes exist on both sides of it, and since the opened arrays are views on them they count
  // in full, added below.
  const saved = engine.saveRobotIndex(index) as Uint8Array<ArrayBuffer>;
  const beforeOpen = await settled();
  const reopened = engine.loadRobotIndex(saved);
  if (reopened === null) throw new Error('the saved index did not open');
  for (const question of warmUp.slice(0, 500)) reopened.match(question, NOW, SETTINGS);
  const opened = await settled();
  const savedBytes = saved.byteLength;
  return {
    size,
    indexMb: mb(after.heap - before.heap + after.buffers - before.buffers),
    heapMb: mb(after.heap - before.heap),
    arrayBuffersMb: mb(after.buffers - before.buffers),
    askP50Ms: round(percentile(times, 50), 3),
    askP99Ms: round(percentile(times, 99), 3),
    askCpuMs: round((used.user + used.system) / 1000 / queries.length, 3),
    savedMb: mb(savedBytes),
    openedMb: mb(opened.heap - beforeOpen.heap + opened.buffers - beforeOpen.buffers + savedBytes),
    openedHeapMb: mb(opened.heap - beforeOpen.heap),
  };
}

/** One measure in a child process of its own. */
export function measureIndexMemory(root: string, size: number): IndexMemoryFigures {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', import.meta.filename, '--child', root, String(size)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as IndexMemoryFigures;
}

function medians(rows: IndexMemoryFigures[]): IndexMemoryFigures {
  const first = rows[0] as IndexMemoryFigures;
  const of = (key: keyof IndexMemoryFigures) =>
    percentile(
      rows.map((row) => row[key]),
      50,
    );
  return {
    size: first.size,
    indexMb: of('indexMb'),
    heapMb: of('heapMb'),
    arrayBuffersMb: of('arrayBuffersMb'),
    askP50Ms: of('askP50Ms'),
    askP99Ms: of('askP99Ms'),
    askCpuMs: of('askCpuMs'),
    savedMb: of('savedMb'),
    openedMb: of('openedMb'),
    openedHeapMb: of('openedHeapMb'),
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      child: { type: 'boolean', default: false },
      sizes: { type: 'string', default: '10000,100000' },
      rounds: { type: 'string', default: '3' },
      base: { type: 'string' },
    },
  });
  if (values.child) {
    const [root = '.', size = '100000'] = positionals;
    console.log(JSON.stringify(await measureHere(root, Number(size))));
    return;
  }
  const here = resolve(import.meta.dirname, '../..');
  const builds = [{ name: 'this tree', root: here }];
  if (values.base) builds.push({ name: 'base', root: resolve(values.base) });
  for (const size of values.sizes.split(',').map(Number)) {
    const rows = new Map<string, IndexMemoryFigures[]>(builds.map((b) => [b.name, []]));
    for (let round_ = 0; round_ < Number(values.rounds); round_ += 1) {
      for (const build of round_ % 2 === 0 ? builds : [...builds].reverse()) {
        rows.get(build.name)?.push(measureIndexMemory(build.root, size));
      }
    }
    for (const [name, measured] of rows) {
      console.log(JSON.stringify({ build: name, rounds: measured, ...medians(measured) }));
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await main();
}
