/**
 * Scoring stops reading long posting lists early (MaxScore bounds and a postings budget). That
 * must not change what the matcher answers: against the exhaustive reference, over a knowledge
 * base with a skewed vocabulary, edits and removals, the best rule is the same.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleStore } from '../../../electron/service/matching/rule-store';
import { Scorer } from '../../../electron/service/matching/scorer';

const NOW = Date.UTC(2026, 10, 23);

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A Zipf-like vocabulary: a few words in most rules, many words in few. */
function makeWords(random: () => number): () => string {
  const english = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
  const chinese = Array.from({ length: 800 }, (_, i) => String.fromCodePoint(0x4e00 + i * 7));
  return () => {
    const rank = Math.floor(Math.exp(random() * Math.log(3000)));
    return random() < 0.7 ? (english[rank - 1] ?? 'w') : (chinese[rank % 800] ?? '中');
  };
}

test('early termination ranks the same best rule as reading every posting list', () => {
  const random = seeded(11);
  const word = makeWords(random);
  const phrase = (n: number) => Array.from({ length: n }, word).join(' ');
  const store = new RuleStore();
  for (let i = 0; i < 3000; i += 1) {
    store.upsert({
      ruleId: `r${i}`,
      ruleName: phrase(2),
      questions: Array.from({ length: 1 + (i % 6) }, () => phrase(3 + (i % 5))),
      active: i % 17 !== 0,
      effectBeginMs: null,
      effectEndMs: null,
    });
  }
  for (let i = 0; i < 3000; i += 7) store.remove(`r${i}`);
  for (let i = 3; i < 3000; i += 11) {
    store.upsert({
      ruleId: `r${i}`,
      ruleName: phrase(2),
      questions: [phrase(4), phrase(6)],
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  }
  const fast = new Scorer(store);
  const reference = new Scorer(store, true);
  let same = 0;
  const questions = 400;
  for (let q = 0; q < questions; q += 1) {
    const question = phrase(2 + (q % 6));
    const a = fast.score(question, NOW).rules[0];
    const b = reference.score(question, NOW).rules[0];
    if (a?.slot === b?.slot) same += 1;
    for (const rule of fast.score(question, NOW).rules) {
      assert.ok(store.isEligible(rule.slot, NOW), 'only eligible rules are scored');
      assert.ok(store.isLive(rule.slot), 'removed rules never come back');
    }
  }
  // Exact agreement is not promised (see Scorer.shortlist); a disagreement is a near tie.
  assert.ok(same >= questions * 0.98, `same best rule for ${same} of ${questions} questions`);
});
