/**
 * The scorer keeps its per-question state in scratch arrays reused from one question to the
 * next (term and gram positions, touched rules, heaps, matched grams): nothing of a question may
 * leak into the next. A scorer that answered other questions first — including misspelled words
 * (spelling neighbours), unknown grams, leave-one-out probes and rules added in between — must score every question
 * exactly as a fresh scorer on the same store does, every part to the bit and in the same order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleStore } from '../../../electron/service/matching/rule-store';
import { Scorer } from '../../../electron/service/matching/scorer';

const NOW = Date.UTC(2026, 10, 27);

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = (
  'refund transfer account password reset balance card fee limit delivery order cancel ' +
  'invoice address change login verify 退款 转账 密码 重置 余额 银行卡 手续费 订单 取消 地址'
).split(' ');

test('a scorer reused across questions scores each exactly as a fresh one', () => {
  const random = seeded(5);
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'card';
  const phrase = (n: number) => Array.from({ length: n }, word).join(' ');
  const store = new RuleStore();
  for (let i = 0; i < 400; i += 1) {
    store.upsert({
      ruleId: `r${i}`,
      ruleName: `${phrase(2)} ${i}`,
      questions: Array.from({ length: 1 + (i % 4) }, () => phrase(2 + (i % 5))),
      active: i % 13 !== 0,
      effectBeginMs: null,
      effectEndMs: null,
    });
  }
  // Typos (spelling neighbours), unknown words, numbers, exact phrasings, empty questions.
  const typo = (text: string) => text.replace(/e/g, 'a').replace(/o/, 'oo');
  const questions = Array.from({ length: 300 }, (_, n) => {
    const text = phrase(1 + (n % 7));
    if (n % 5 === 1) return typo(text);
    if (n % 5 === 2) return `${text} zqxj ${n}`;
    if (n % 5 === 3) return store.phrasingText(n % store.phrasingTotal);
    return n % 50 === 4 ? '' : text;
  });
  const reused = new Scorer(store);
  let compared = 0;
  for (const [n, question] of questions.entries()) {
    // Midway, the vocabulary and the rules grow past the sizes the scratch arrays were made for.
    if (n === 150) {
      for (let i = 0; i < 300; i += 1) {
        store.upsert({
          ruleId: `n${i}`,
          ruleName: `${phrase(2)} novel${i} 新词${i}`,
          questions: [phrase(3), `${phrase(2)} novel${i}`],
          active: true,
          effectBeginMs: null,
          effectEndMs: null,
        });
      }
    }
    const leaveOut = n % 9 === 0 ? n % store.phrasingTotal : -1;
    const expected = new Scorer(store).score(question, NOW, leaveOut);
    const actual = reused.score(question, NOW, leaveOut);
    assert.deepEqual(actual, expected, `question ${n}: ${JSON.stringify(question)}`);
    compared += expected.rules.length;
  }
  assert.ok(compared > questions.length * 5, `${compared} scored rules compared`);
});

test('a reused scorer follows rules entering and leaving their windows with no write between', () => {
  const random = seeded(166);
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'card';
  const phrase = (n: number) => Array.from({ length: n }, word).join(' ');
  const store = new RuleStore();
  const hour = 3_600_000;
  for (let i = 0; i < 300; i += 1) {
    // A third always on; the others open or close at one of four hours after NOW.
    const at = NOW + (1 + (i % 4)) * hour;
    store.upsert({
      ruleId: `r${i}`,
      ruleName: `${phrase(2)} ${i}`,
      questions: [phrase(3), phrase(2 + (i % 4))],
      active: true,
      effectBeginMs: i % 3 === 1 ? at : null,
      effectEndMs: i % 3 === 2 ? at : null,
    });
  }
  const reused = new Scorer(store);
  // Before, at and after each boundary, forward then back: the same store generation throughout.
  const times = [0, 1, 2, 3, 4, 5, 4, 2, 0].flatMap((h) => [
    NOW + h * hour - 1,
    NOW + h * hour,
    NOW + h * hour + 1,
  ]);
  for (const [n, nowMs] of times.entries()) {
    const question = phrase(2 + (n % 4));
    assert.deepEqual(
      reused.score(question, nowMs),
      new Scorer(store).score(question, nowMs),
      `${question} at ${nowMs - NOW} ms`,
    );
  }
});
