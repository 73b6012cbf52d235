/**
 * An ask through an embedding model works out its lexical candidates while the model embeds the
 * question (decision 127): the answer is the one `match` alone gives, and the wait for the model
 * neither loses a failure nor runs the work twice.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whileSent } from '../../../electron/service/embedding/while-sent';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import { fillIndex, generateRules, matchableRules } from '../../bench/generate-rules';
import { deriveQueries } from '../../bench/typed-questions';

const NOW = Date.UTC(2026, 10, 27, 12);

test('a question prepared ahead gets the decision match alone gives', () => {
  const rules = matchableRules(generateRules(600, 5));
  const prepared = createRobotIndex({ selfCalibration: false });
  const plain = createRobotIndex({ selfCalibration: false });
  fillIndex(prepared, rules);
  fillIndex(plain, rules);
  const questions = deriveQueries(generateRules(600, 5), 150);
  assert.ok(questions.length >= 100);
  for (const question of questions) {
    prepared.prepare(question, NOW);
    assert.deepEqual(
      prepared.match(question, NOW, DEFAULT_MATCH_SETTINGS),
      plain.match(question, NOW, DEFAULT_MATCH_SETTINGS),
      question,
    );
  }
});

test('a write between prepare and match is seen by match', () => {
  const rules = matchableRules(generateRules(50, 9));
  const index = createRobotIndex({ selfCalibration: false });
  fillIndex(index, rules);
  const target = rules[7];
  assert.ok(target);
  const question = target.questions[0] ?? '';
  index.prepare(question, NOW);
  index.remove(target.ruleId);
  const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
  const named =
    decision.kind === 'bestmatch'
      ? [decision.top.ruleId]
      : decision.kind === 'recommend'
        ? decision.items.map((item) => item.ruleId)
        : [];
  assert.ok(!named.includes(target.ruleId));
});

test('the work runs once, after a turn of the loop, while the call is still out', async () => {
  const order: string[] = [];
  let release: (value: number) => void = () => undefined;
  const call = new Promise<number>((resolve) => {
    release = resolve;
  });
  setImmediate(() => order.push('turn'));
  const result = whileSent(call, () => order.push('meanwhile'));
  assert.deepEqual(order, []);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(order, ['turn', 'meanwhile']);
  release(42);
  assert.equal(await result, 42);
  assert.deepEqual(order, ['turn', 'meanwhile']);
});

test('a call that fails before the work is done is reported to the caller, never unhandled', async () => {
  const unhandled: unknown[] = [];
  const note = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', note);
  try {
    const failing = Promise.reject(new Error('connection refused'));
    let ran = 0;
    await assert.rejects(
      whileSent(failing, () => {
        ran += 1;
      }),
      /connection refused/,
    );
    assert.equal(ran, 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', note);
  }
});

test('without work to do, the call is returned as it is', async () => {
  const call = Promise.resolve('vector');
  assert.equal(await whileSent(call, undefined), 'vector');
});
