/**
 * `npx tsx tests/bench/ranking-digest.ts [dataset.json ...] [--generated 1000,10000] [--dump FILE]`:
 * a digest of everything the engine answers — every candidate of every question (rule, phrasing,
 * score and every score part, to the last bit) and the robot's self-calibration — per dataset and
 * per generated knowledge base of the benchmark (its derived questions). Two builds of the engine
 * rank identically when their digests are equal: a stricter check than `npm run eval`'s figures,
 * for work on the engine's speed, which must not change a single answer. `--dump` writes one JSON
 * line per question, to find the first that differs.
 * @module
 */
import { createHash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import type { SynonymAwareRobotIndex } from '../../electron/service/matching/index';
import { loadDataset } from '../eval/dataset';
import { indexRules } from '../eval/index-rules';
import { generateRules } from './generate-rules';
import { deriveQueries } from './typed-questions';

const NOW = Date.UTC(2025, 0, 1);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    generated: { type: 'string', default: '' },
    dump: { type: 'string' },
    queries: { type: 'string', default: '2000' },
  },
});
if (values.dump) writeFileSync(values.dump, '');

function digest(name: string, index: SynonymAwareRobotIndex, questions: readonly string[]): void {
  const hash = createHash('sha256');
  const started = performance.now();
  index.selfCalibrate(NOW);
  const calibrated = performance.now();
  hash.update(JSON.stringify(index.calibration));
  let lines = '';
  for (const question of questions) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    const line = JSON.stringify({
      question,
      kind: decision.kind,
      candidates: decision.candidates.map((c) => [c.ruleId, c.question, c.score, c.parts]),
    });
    hash.update(line);
    if (values.dump) lines += `${name}\t${line}\n`;
  }
  const answered = performance.now();
  if (values.dump) appendFileSync(values.dump, lines);
  console.log(
    `${name}: ${hash.digest('hex').slice(0, 16)} (${questions.length} questions; ` +
      `self-test ${Math.round(calibrated - started)} ms, questions ${Math.round(answered - calibrated)} ms)`,
  );
}

for (const path of positionals) {
  const dataset = loadDataset(path);
  const questions = [...dataset.queries, ...(dataset.oosQueries ?? [])].map((q) => q.question);
  digest(dataset.name, indexRules(dataset.rules), questions);
}
for (const size of values.generated.split(',').filter(Boolean).map(Number)) {
  const rules = generateRules(size, 42);
  const index = indexRules(rules.map(({ ruleName, questions }) => ({ ruleName, questions })));
  digest(`generated-${size}`, index, deriveQueries(rules, Number(values.queries)));
}
