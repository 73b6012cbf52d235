/**
 * `npx tsx tests/bench/index-upsert-bench.ts [--rules 100000] [--rounds 3] [--base DIR]`: the
 * matching index's share of an import (issue 31), in-process: the CPU of upserting N generated
 * rules one by one, as an import's index update does (parsed from JSON, their strings not
 * shared), per 1000 rules, and the SHA-256 of the index saved afterwards. With `--base` (another
 * checkout, e.g. `git worktree add /tmp/base-XX <commit>`), each round measures both engines,
 * alternating, each in a child process of its own; equal digests say the two built the same
 * index, byte for byte.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RobotIndex } from '../../electron/service/matching/types';
import { generateRules, matchableRules } from './generate-rules';
import { percentile, round } from './stats';

interface Engine {
  createRobotIndex(options: { selfCalibration: boolean }): RobotIndex;
  saveRobotIndex(index: RobotIndex): Uint8Array;
}

interface Figures {
  cpuMsPer1000: number;
  digest: string;
}

async function measureHere(root: string, size: number): Promise<Figures> {
  const engine = (await import(resolve(root, 'electron/service/matching/index.ts'))) as Engine;
  const json = JSON.stringify(matchableRules(generateRules(size, 42)));
  const rules = JSON.parse(json) as ReturnType<typeof matchableRules>;
  const index = engine.createRobotIndex({ selfCalibration: false });
  const cpu = process.cpuUsage();
  for (const rule of rules) index.upsert(rule);
  // Whatever an index leaves to do before its first read is part of the import.
  index.match('warm up', Date.UTC(2025, 0, 1), {
    bestmatchThreshold: 0.94,
    recommendThreshold: 0.1,
    margin: 0.1,
    maxRecommend: 5,
  });
  const used = process.cpuUsage(cpu);
  const digest = createHash('sha256').update(engine.saveRobotIndex(index)).digest('hex');
  return { cpuMsPer1000: (used.user + used.system) / 1000 / (size / 1000), digest };
}

function measure(root: string, size: number): Figures {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--child', root, String(size)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Figures;
}

const { values } = parseArgs({
  options: {
    rules: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    base: { type: 'string' },
    child: { type: 'string' },
  },
  allowPositionals: true,
  strict: false,
});

if (typeof values.child === 'string') {
  const size = Number(process.argv.at(-1));
  console.log(JSON.stringify(await measureHere(values.child, size)));
} else {
  const size = Number(values.rules);
  const here = resolve(import.meta.dirname, '..', '..');
  const roots = typeof values.base === 'string' ? [values.base, here] : [here];
  const runs = new Map<string, Figures[]>(roots.map((root) => [root, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const root of roots) {
      const figures = measure(root, size);
      runs.get(root)?.push(figures);
      console.log(`${root}: ${figures.cpuMsPer1000.toFixed(1)} ms per 1000 rules`);
    }
  }
  const median = (root: string) =>
    percentile(
      (runs.get(root) ?? []).map((f) => f.cpuMsPer1000),
      50,
    );
  for (const root of roots) {
    const digests = new Set((runs.get(root) ?? []).map((f) => f.digest));
    console.log(
      `${root}, ${size} rules: index CPU ${round(median(root), 1)} ms per 1000 rules ` +
        `(median of ${values.rounds}), saved index ${[...digests].join(', ').slice(0, 16)}`,
    );
  }
  if (typeof values.base === 'string') {
    console.log(`this ÷ base: ${round(median(here) / median(values.base), 2)}`);
  }
}
