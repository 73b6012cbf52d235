/**
 * The fusion's examples from traffic outlive a restart and not their rule (decisions 150-151):
 * saved in a file of the data directory under the model they are of, read back as past their
 * warm-up (the same fit at once), and dropped when their rule is edited, deleted or overwritten,
 * but not when an index is attached and told the rules it holds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  decodeFusionExamples,
  encodeFusionExamples,
  providerKey,
} from '../../../electron/service/embedding/fusion-example-codec';
import { fitFusion } from '../../../electron/service/matching/fusion-calibration';
import { FusionTraffic, WARM_UP } from '../../../electron/service/matching/fusion-traffic';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import { SemanticIndex } from '../../../electron/service/matching/semantic-index';
import { VectorSpace, quantize } from '../../../electron/service/matching/vector-space';
import { FusionExampleFiles } from '../../../electron/service/store/embedded/fusion-example-files';
import { knownQualityVector } from '../../helpers/embedding-server';
import { madeUpWord, prng } from '../../helpers/prng';

const NOW = Date.UTC(2025, 0, 1);
const DIMENSIONS = 32;

/** Rules of two phrasings of their own words, and each asked again with a word more. */
function robot() {
  const random = prng(11);
  const labels = new Map<string, string>();
  const rules = Array.from({ length: 30 }, (_, i) => {
    const ruleId = `rule-${i}`;
    const phrasings = [0, 1].map(() =>
      Array.from({ length: 3 }, () => madeUpWord(random)).join(' '),
    );
    const asked = `${phrasings[0]} please`;
    for (const text of [...phrasings, asked]) labels.set(text, ruleId);
    return { ruleId, phrasings, asked };
  });
  const index = createRobotIndex();
  const matchable = (rule: (typeof rules)[number], questions = rule.phrasings) => ({
    ruleId: rule.ruleId,
    ruleName: rule.phrasings[0] ?? '',
    questions,
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
  });
  for (const rule of rules) index.upsert(matchable(rule));
  index.selfCalibrate(NOW);
  const vectorOf = (text: string) => knownQualityVector(text, labels.get(text), 0.6, DIMENSIONS);
  const space = new VectorSpace(DIMENSIONS);
  const traffic = new FusionTraffic();
  const semantic = new SemanticIndex(index, space, undefined, traffic);
  for (const text of space.takeMissing(Infinity)) space.set(text, quantize(vectorOf(text)));
  const ask = (question: string) =>
    index.match(
      question,
      NOW,
      DEFAULT_MATCH_SETTINGS,
      semantic.channel(vectorOf(question), { question, decision: DEFAULT_MATCH_SETTINGS }),
    );
  return { index, space, traffic, rules, ask, matchable };
}

test('examples whose rule is written are dropped, not when an index is told its rules', () => {
  const { index, space, traffic, rules, ask, matchable } = robot();
  for (const rule of rules) assert.equal(ask(rule.asked).kind, 'bestmatch', rule.asked);
  assert.equal(traffic.size, rules.length);
  const [edited, deleted, rephrased, same] = rules as [
    (typeof rules)[number],
    (typeof rules)[number],
    (typeof rules)[number],
    (typeof rules)[number],
  ];
  // Another index of the robot (its published edition) following the same rules: no write.
  const published = new SemanticIndex(index, space, undefined, traffic);
  assert.equal(traffic.size, rules.length, 'attaching an index drops nothing');
  // The rule as it was (a team node following its own write): nothing changed.
  index.upsert(matchable(same));
  assert.equal(traffic.size, rules.length);
  index.upsert({ ...matchable(edited), active: false });
  index.remove(deleted.ruleId);
  index.upsert(matchable(rephrased, [...rephrased.phrasings, 'a new phrasing']));
  assert.equal(traffic.size, rules.length - 3);
  const left = new Set(traffic.sample().map((example) => example.ruleId));
  assert.equal(traffic.warmed, true);
  for (const gone of [edited, deleted, rephrased]) assert.ok(!left.has(gone.ruleId), gone.ruleId);
  published.close();
});

test('the examples saved in the data directory come back past their warm-up, of their model only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fusion-examples-'));
  try {
    const row = (ruleId: string, i: number) => ({
      ruleId,
      exact: false,
      lexical: Math.sin(i) * 3,
      cosine: Math.cos(i) / 3,
      gap: i / 7 - 0.5,
    });
    const before = new FusionTraffic();
    for (let i = 0; i < WARM_UP + 5; i += 1) {
      before.record(`question ${i}`, `r${i % 4}`, [
        row(`r${i % 4}`, i),
        row(`r${(i + 1) % 4}`, i + 100),
      ]);
    }
    assert.equal(before.warmed, true);
    const model = providerKey({ api: 'openai', base: 'http://127.0.0.1:1/v1', model: 'm' });
    const files = new FusionExampleFiles(dir);
    const robotKey = { tenantId: 1, robotId: 'default' };
    await files.save(robotKey, await encodeFusionExamples(model, before.snapshot()));
    assert.deepEqual(readdirSync(join(dir, 'fusion-examples')).length, 1, 'no temporary file left');

    let due = 0;
    const after = new FusionTraffic(() => (due += 1));
    const bytes = await files.load(robotKey);
    assert.ok(bytes);
    const saved = await decodeFusionExamples(model, bytes);
    assert.ok(saved);
    after.restore(saved);
    assert.equal(due, 1, 'a refit is due at once');
    assert.equal(after.warmed, true);
    assert.deepEqual(after.sample(), before.sample());
    const probes = before.sample().map((example) => ({ ...example, ruleId: 'absent' }));
    assert.deepEqual(
      fitFusion(probes, DEFAULT_MATCH_SETTINGS, after.sample()),
      fitFusion(probes, DEFAULT_MATCH_SETTINGS, before.sample()),
    );
    after.record('question 3', 'r3', []);
    assert.equal(after.size, before.size, 'a question kept before the restart is known');

    const other = providerKey({ api: 'openai', base: 'http://127.0.0.1:1/v1', model: 'other' });
    assert.equal(await decodeFusionExamples(other, bytes), null, 'another model starts empty');
    assert.equal(await files.load({ tenantId: 1, robotId: 'another' }), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
