/**
 * The collision report at volume (`npm run bench -- --collisions [--collision-sizes 1000,100000]`,
 * or `npx tsx tests/bench/collision-bench.ts`): since issue 29 it asks each phrasing twice (the
 * decision ask makes, then leave-one-out), so its time is measured here against a baseline taken
 * in the same process just before: the same number of plain asks (`match`) of the same phrasings.
 * Per size: the report's wall time, the baseline's, their ratio, the longest slice between two
 * turns of the event loop (what a question waiting meanwhile could be held), and the findings.
 * @module
 */
import { parseArgs } from 'node:util';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import { generateRules, standaloneIndex } from './generate-rules';
import { round } from './stats';

const NOW = Date.UTC(2025, 0, 1);

export interface CollisionFigures {
  size: number;
  probed: number;
  complete: boolean;
  reportMs: number;
  /** The same number of plain asks of the same phrasings, just before. */
  baselineMs: number;
  /** Longest time between two turns of the event loop during the report. */
  longestHoldMs: number;
  findings: number;
}

/** How long the event loop goes unturned while `work` runs (a 1 ms timer measures the gaps). */
async function longestGap<T>(work: () => Promise<T>): Promise<{ value: T; gapMs: number }> {
  let last = performance.now();
  let gapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 1);
  try {
    const value = await work();
    return { value, gapMs };
  } finally {
    clearInterval(timer);
  }
}

export async function measureCollisions(size: number): Promise<CollisionFigures> {
  const rules = generateRules(size, 42);
  const index = standaloneIndex(rules);
  // Warm-up: the first asks compute per-rule norms and run unoptimised code.
  for (const rule of rules.slice(0, 200))
    index.match(rule.questions[0] ?? '', NOW, DEFAULT_MATCH_SETTINGS);
  const started = performance.now();
  const { value: report, gapMs } = await longestGap(() =>
    index.collisions({ nowMs: NOW, settings: DEFAULT_MATCH_SETTINGS }),
  );
  const reportMs = performance.now() - started;
  // Baseline: as many plain asks as the report probed, of the rules' phrasings in order.
  const phrasings = rules.flatMap((rule) => rule.questions).slice(0, report.probed);
  const baseStarted = performance.now();
  for (const phrasing of phrasings) index.match(phrasing, NOW, DEFAULT_MATCH_SETTINGS);
  const baselineMs = performance.now() - baseStarted;
  return {
    size,
    probed: report.probed,
    complete: report.complete,
    reportMs,
    baselineMs,
    longestHoldMs: gapMs,
    findings: report.findings.length,
  };
}

export function collisionLine(f: CollisionFigures): string {
  return (
    `collision report, ${f.size} rules: ${f.probed} phrasings asked` +
    `${f.complete ? ' (all)' : ' (an even sample)'} in ${round(f.reportMs / 1000, 1)} s; ` +
    `${f.probed} plain asks ${round(f.baselineMs / 1000, 1)} s → ratio ` +
    `${round(f.reportMs / f.baselineMs, 2)}; longest hold ${round(f.longestHoldMs, 1)} ms; ` +
    `${f.findings} findings`
  );
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const { values } = parseArgs({
    options: { sizes: { type: 'string', default: '1000,10000,100000' } },
  });
  for (const size of values.sizes.split(',').map(Number)) {
    console.log(collisionLine(await measureCollisions(size)));
  }
}
