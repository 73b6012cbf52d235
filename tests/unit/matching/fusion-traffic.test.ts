/**
 * The fusion learns from the robot's traffic (fusion-traffic.ts): a robot whose rules have one
 * phrasing each gets no weight from its self-test (no probe keeps another text of its rule), but
 * the questions its lexical channel answers BESTMATCH are examples, and once enough came a good
 * model is weighed and answers paraphrases that share no word with their rule; a model of noise
 * still gets no weight. No label is given: the examples' rules are the lexical answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fusionActive } from '../../../electron/service/matching/fusion';
import { fitFusion, fitFusionInSteps } from '../../../electron/service/matching/fusion-calibration';
import { FusionTraffic, WARM_UP } from '../../../electron/service/matching/fusion-traffic';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import { SemanticIndex } from '../../../electron/service/matching/semantic-index';
import { VectorSpace, quantize } from '../../../electron/service/matching/vector-space';
import { knownQualityVector } from '../../helpers/embedding-server';
import { prng } from '../../helpers/prng';

const NOW = Date.UTC(2025, 0, 1);
const DIMENSIONS = 64;
const RULES = 60;

/** A made-up word: letters drawn from `random`. */
function word(random: () => number): string {
  const letters = 'bcdfghjklmnprstvz';
  const vowels = 'aeiou';
  let out = '';
  for (let i = 0; i < 3; i += 1) {
    out += letters[Math.floor(random() * letters.length)] ?? 'b';
    out += vowels[Math.floor(random() * vowels.length)] ?? 'a';
  }
  return out;
}

/**
 * Rules of one phrasing each (four words of their own); per rule, a question repeating its
 * phrasing (the lexical channel answers it) and a paraphrase of four other words (it cannot).
 */
function robot(quality: number) {
  const random = prng(7);
  const labels = new Map<string, string>();
  const rules: { ruleId: string; phrasing: string; repeat: string; paraphrase: string }[] = [];
  for (let i = 0; i < RULES; i += 1) {
    const ruleId = `rule-${i}`;
    const phrasing = Array.from({ length: 4 }, () => word(random)).join(' ');
    const paraphrase = Array.from({ length: 4 }, () => word(random)).join(' ');
    const repeat = `${phrasing} please`;
    for (const text of [phrasing, paraphrase, repeat]) labels.set(text, ruleId);
    rules.push({ ruleId, phrasing, repeat, paraphrase });
  }
  const index = createRobotIndex();
  for (const rule of rules) {
    index.upsert({
      ruleId: rule.ruleId,
      ruleName: rule.phrasing,
      questions: [rule.phrasing],
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  }
  index.selfCalibrate(NOW);
  const vectorOf = (text: string) =>
    knownQualityVector(text, labels.get(text), quality, DIMENSIONS);
  const space = new VectorSpace(DIMENSIONS);
  const semantic = new SemanticIndex(index, space);
  for (const text of space.takeMissing(Infinity)) space.set(text, quantize(vectorOf(text)));
  semantic.calibrate(NOW, DEFAULT_MATCH_SETTINGS);
  /** Asks `question` with its vector, as the service does, refitting when due. */
  const ask = (question: string) => {
    const channel = semantic.channel(vectorOf(question), {
      question,
      decision: DEFAULT_MATCH_SETTINGS,
    });
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS, channel);
    if (!semantic.calibration.current) semantic.calibrate(NOW, DEFAULT_MATCH_SETTINGS);
    return decision;
  };
  return { index, semantic, rules, ask };
}

test('one phrasing a rule: no weight from the self-test, a good model weighed from traffic', () => {
  const { index, semantic, rules, ask } = robot(0.5);
  assert.equal(fusionActive(semantic.calibration.model), false, 'no probe keeps its rule');
  assert.ok(semantic.calibration.current);
  const lexicalRight = rules.filter(
    (rule) =>
      index.match(rule.paraphrase, NOW, DEFAULT_MATCH_SETTINGS).candidates[0]?.ruleId ===
      rule.ruleId,
  ).length;
  // The traffic: each rule's repeated phrasing, answered BESTMATCH by the lexical channel.
  for (const rule of rules.slice(0, 40)) {
    const decision = ask(rule.repeat);
    assert.equal(decision.kind, 'bestmatch', rule.repeat);
  }
  assert.equal(semantic.traffic.size, 40);
  const { model } = semantic.calibration;
  assert.ok(fusionActive(model), `weighed from ${model.examples} examples (gain ${model.gain})`);
  assert.ok(model.examples >= WARM_UP);
  // Every self-test probe has its rule absent: the offset may rise while none is BESTMATCH.
  assert.ok(model.offset > 0, `offset ${model.offset}`);
  let fusedRight = 0;
  let bestmatchRight = 0;
  let bestmatchWrong = 0;
  for (const rule of rules) {
    const decision = ask(rule.paraphrase);
    const right = decision.candidates[0]?.ruleId === rule.ruleId;
    if (right) fusedRight += 1;
    if (decision.kind === 'bestmatch') {
      if (right) bestmatchRight += 1;
      else bestmatchWrong += 1;
    }
  }
  assert.ok(lexicalRight <= 2, `the paraphrases share no word: ${lexicalRight} right lexically`);
  assert.ok(fusedRight >= RULES * 0.9, `${fusedRight} of ${RULES} paraphrases right, fused`);
  assert.equal(bestmatchWrong, 0, `and ${bestmatchRight} right`);
});

test('a model of noise gets no weight from the traffic either', () => {
  const { semantic, rules, ask } = robot(0);
  for (const rule of rules) ask(rule.repeat);
  assert.ok(semantic.traffic.size >= WARM_UP);
  const { model } = semantic.calibration;
  assert.ok(model.examples >= WARM_UP, 'refitted with the examples');
  assert.equal(fusionActive(model), false, `gain ${model.gain}`);
});

test('the traffic keeps distinct questions, the most recent, and asks for refits as it doubles', () => {
  let due = 0;
  const traffic = new FusionTraffic(() => (due += 1), 100);
  const row = { ruleId: 'r', exact: false, lexical: 3, cosine: 0.5, gap: 0.2 };
  for (let i = 0; i < WARM_UP - 1; i += 1) traffic.record(`q${i}`, 'r', [row]);
  traffic.record('q0', 'r', [row]);
  assert.equal(due, 0, 'a question asked again is not a new example');
  assert.deepEqual(traffic.sample(), [], 'nothing used while warming up');
  traffic.record(`q${WARM_UP - 1}`, 'r', [row]);
  assert.equal(due, 1);
  assert.equal(traffic.sample().length, WARM_UP);
  for (let i = WARM_UP; i < 2 * WARM_UP; i += 1) traffic.record(`q${i}`, 'r', [row]);
  assert.equal(due, 2, 'doubled');
  for (let i = 2 * WARM_UP; i < 300; i += 1) traffic.record(`q${i}`, 'r', [row]);
  assert.equal(traffic.size, 100, 'bounded');
  // After 40: 80, then every 50 (half the limit): 130, 180, 230, 280.
  assert.equal(due, 7);
  assert.deepEqual(
    traffic.sample().map((example) => example.ruleId).length,
    100,
    'the most recent hundred',
  );
});

test('the fit spread over turns gives the fit made at once, in many steps', () => {
  const random = prng(9);
  const probe = (i: number) => {
    const rows = Array.from({ length: 8 }, (_, j) => ({
      ruleId: `r${(i * 7 + j) % 50}`,
      lexical: random() * 6 - 3,
      gap: random() - 0.5,
      cosine: random(),
      exact: false,
    }));
    const own = rows[0] as (typeof rows)[number];
    own.ruleId = `r${i % 50}`;
    own.cosine += 0.3;
    own.gap += 0.2;
    return { ruleId: `r${i % 50}`, rows };
  };
  const selfTest = Array.from({ length: 200 }, (_, i) => probe(i));
  const traffic = Array.from({ length: 100 }, (_, i) => probe(i + 1000));
  const decision = { bestmatchThreshold: 0.9, margin: 0.1 };
  const steps = fitFusionInSteps(selfTest, decision, traffic);
  let turns = 0;
  let next = steps.next();
  while (!next.done) {
    turns += 1;
    next = steps.next();
  }
  const atOnce = fitFusion(selfTest, decision, traffic);
  assert.deepEqual(next.value, atOnce);
  assert.ok(atOnce.cosine > 0, 'a model worth weighing');
  assert.ok(turns >= 3, `handed back ${turns} times`);
});
