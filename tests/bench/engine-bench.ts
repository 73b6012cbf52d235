/**
 * The matching engine alone, in this process, on the benchmark's generated rules:
 * `npx tsx tests/bench/engine-bench.ts [--sizes 10000,100000] [--queries 2000]`.
 * Per size: indexing rules/s (upserts in batches of 1000, as an import applies them), new
 * questions p50 / p99 / mean in ms after a warm-up of 1000 others, the V8 heap the index
 * holds, and what opening one robot from its saved index costs (the bytes of `saveRobotIndex`,
 * `loadRobotIndex` on them, and its first answer: the price of loading a robot on demand). For work on the engine's own cost, apart from the service's (`npm run bench`).
 * @module
 */
import { parseArgs } from 'node:util';
import {
  createRobotIndex,
  DEFAULT_MATCH_SETTINGS,
  loadRobotIndex,
  saveRobotIndex,
} from '../../electron/service/matching/index';
import { fillIndex, generateRules, matchableRules } from './generate-rules';
import { percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

const NOW = Date.UTC(2025, 0, 1);

export interface EngineFigures {
  size: number;
  indexRulesPerSec: number;
  askP50Ms: number;
  askP99Ms: number;
  askMeanMs: number;
  /** CPU time per question (user + system): steadier than wall time on a shared machine. */
  askCpuMs: number;
  heapMb: number;
  savedMb: number;
  loadMs: number;
  firstAskAfterLoadMs: number;
}

function heapUsedMb(): number {
  globalThis.gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 2 ** 20;
}

export function measureEngine(size: number, queryCount: number): EngineFigures {
  const rules = generateRules(size, 42);
  const matchable = matchableRules(rules);
  const heapBefore = heapUsedMb();
  const index = createRobotIndex({ selfCalibration: false });
  const started = performance.now();
  fillIndex(index, matchable);
  const indexRulesPerSec = size / ((performance.now() - started) / 1000);
  const heapMb = heapUsedMb() - heapBefore;
  for (const question of deriveQueries(rules, 1000, 1_000_000)) {
    index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
  }
  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (const question of deriveQueries(rules, queryCount)) {
    const start = performance.now();
    index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    samples.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const bytes = new Uint8Array(saveRobotIndex(index));
  const loadStarted = performance.now();
  const loaded = loadRobotIndex(bytes);
  const loadMs = performance.now() - loadStarted;
  const [first = ''] = deriveQueries(rules, 1, 2_000_000);
  const askStarted = performance.now();
  loaded?.match(first, NOW, DEFAULT_MATCH_SETTINGS);
  const firstAskAfterLoadMs = performance.now() - askStarted;
  return {
    size,
    indexRulesPerSec,
    askP50Ms: percentile(samples, 50),
    askP99Ms: percentile(samples, 99),
    askMeanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
    askCpuMs: (cpu.user + cpu.system) / 1000 / samples.length,
    heapMb,
    savedMb: bytes.length / 2 ** 20,
    loadMs,
    firstAskAfterLoadMs,
  };
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,100000' },
      queries: { type: 'string', default: '2000' },
    },
  });
  for (const size of values.sizes.split(',').map(Number)) {
    const f = measureEngine(size, Number(values.queries));
    console.log(
      `${size} rules: index ${round(f.indexRulesPerSec, 0)} rules/s, ask p50 ${round(f.askP50Ms, 3)} ` +
        `p99 ${round(f.askP99Ms, 3)} mean ${round(f.askMeanMs, 3)} ms ` +
        `(CPU ${round(f.askCpuMs, 3)} ms), heap ${round(f.heapMb, 0)} MB; ` +
        `saved ${round(f.savedMb, 1)} MB, load ${round(f.loadMs, 1)} ms, ` +
        `first ask after load ${round(f.firstAskAfterLoadMs, 2)} ms`,
    );
  }
}
