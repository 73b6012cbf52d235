/**
 * The matching engine of another checkout against this one, in one process, rounds alternating
 * (base first, then new first): `npx tsx tests/bench/engine-ab.ts --base /tmp/base-XX
 * [--sizes 10000,100000] [--queries 2000] [--rounds 8]`. On a shared machine two runs of
 * engine-bench.ts minutes apart differ by more than most changes; here both builds see the same
 * load. Each round asks new questions (derived past the previous rounds'), so the recent-question
 * table never answers. Prints, per build, the medians over the rounds of p50, p99 and CPU a
 * question, and the ratios new / base. `--base` must be a source checkout (its `node_modules`
 * linked), e.g. `git worktree add /tmp/base-XX <commit>`.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type * as Engine from '../../electron/service/matching/index';
import { fillIndex, generateRules, matchableRules } from './generate-rules';
import { percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

const NOW = Date.UTC(2025, 0, 1);

interface Figures {
  p50: number[];
  p99: number[];
  cpu: number[];
}

function median(values: readonly number[]): number {
  return percentile([...values], 50);
}

async function compare(base: string, size: number, queries: number, rounds: number) {
  const engines: Record<'base' | 'new', typeof Engine> = {
    base: (await import(resolve(base, 'electron/service/matching/index.ts'))) as typeof Engine,
    new: await import('../../electron/service/matching/index'),
  };
  const rules = generateRules(size, 42);
  const indexes = {
    base: engines.base.createRobotIndex({ selfCalibration: false }),
    new: engines.new.createRobotIndex({ selfCalibration: false }),
  };
  const figures: Record<'base' | 'new', Figures> = {
    base: { p50: [], p99: [], cpu: [] },
    new: { p50: [], p99: [], cpu: [] },
  };
  for (const name of ['base', 'new'] as const) {
    fillIndex(indexes[name], matchableRules(rules));
    for (const question of deriveQueries(rules, 1000, 1_000_000)) {
      indexes[name].match(question, NOW, engines[name].DEFAULT_MATCH_SETTINGS);
    }
  }
  for (let r = 0; r < rounds; r += 1) {
    const questions = deriveQueries(rules, queries, r * queries);
    for (const name of r % 2 === 0 ? (['base', 'new'] as const) : (['new', 'base'] as const)) {
      const index = indexes[name];
      const settings = engines[name].DEFAULT_MATCH_SETTINGS;
      const samples: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (const question of questions) {
        const start = performance.now();
        index.match(question, NOW, settings);
        samples.push(performance.now() - start);
      }
      const cpu = process.cpuUsage(cpuBefore);
      figures[name].p50.push(percentile(samples, 50));
      figures[name].p99.push(percentile(samples, 99));
      figures[name].cpu.push((cpu.user + cpu.system) / 1000 / queries);
    }
  }
  for (const name of ['base', 'new'] as const) {
    const f = figures[name];
    console.log(
      `${size} rules, ${name}: p50 ${round(median(f.p50), 3)} p99 ${round(median(f.p99), 3)} ` +
        `CPU ${round(median(f.cpu), 3)} ms a question`,
    );
  }
  const ratio = (key: keyof Figures) =>
    round(median(figures.new[key]) / median(figures.base[key]), 3);
  console.log(
    `${size} rules, new / base: p50 ×${ratio('p50')} p99 ×${ratio('p99')} CPU ×${ratio('cpu')}`,
  );
}

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '8' },
  },
});
if (values.base === undefined) throw new Error('--base <checkout> is required');
for (const size of values.sizes.split(',').map(Number)) {
  await compare(values.base, size, Number(values.queries), Number(values.rounds));
}
