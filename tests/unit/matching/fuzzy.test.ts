/**
 * The fuzzy similarity is fuse.js's Bitap score, ported to scratch arrays (fuzzy.ts): it must
 * give fuse.js's numbers exactly, since the calibration was fitted on them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fuse from 'fuse.js';
import { fuzzySimilarities } from '../../../electron/service/matching/fuzzy';

/** What fuzzy.ts computed with fuse.js itself before the port. */
function fuseSimilarities(query: string, texts: readonly string[]): number[] {
  const similarities = texts.map(() => 0);
  if (query.length === 0 || texts.length === 0) return similarities;
  const fuse = new Fuse(texts, {
    includeScore: true,
    ignoreLocation: true,
    threshold: 0.7,
    isCaseSensitive: true,
    shouldSort: false,
  });
  for (const result of fuse.search(query)) {
    similarities[result.refIndex] = 1 - (result.score ?? 1);
  }
  return similarities;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = (
  'how do i transfer money card refund top up my account why is the fee not working ' +
  '怎么 转账 银行卡 退款 密码 重置 余额 手续费 为什么 不能 需要 多久 a b ab ba aa 12 123 4'
).split(' ');

test('fuzzy similarities equal fuse.js on thousands of pairs, short and long, Latin and Han', () => {
  const random = seeded(7);
  const phrase = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)] ?? '')
      .join(random() < 0.2 ? '' : ' ')
      .trim();
  const mutate = (text: string) => {
    const chars = [...text];
    for (let k = Math.floor(random() * 4); k > 0; k -= 1) {
      const at = Math.floor(random() * (chars.length + 1));
      const op = random();
      if (op < 0.33) chars.splice(at, 1);
      else if (op < 0.66)
        chars.splice(at, 0, WORDS[Math.floor(random() * WORDS.length)]?.[0] ?? 'x');
      else if (at + 1 < chars.length)
        [chars[at], chars[at + 1]] = [chars[at + 1] ?? '', chars[at] ?? ''];
    }
    return chars.join('');
  };
  let compared = 0;
  let matched = 0;
  for (let n = 0; n < 4000; n += 1) {
    const text = phrase(1 + Math.floor(random() * 14));
    const query = random() < 0.5 ? mutate(text) : phrase(1 + Math.floor(random() * 14));
    const texts = [text, mutate(text), phrase(2 + (n % 9)), query];
    const expected = fuseSimilarities(query, texts);
    assert.deepEqual(fuzzySimilarities(query, texts), expected, `query ${JSON.stringify(query)}`);
    compared += texts.length;
    matched += expected.filter((s) => s > 0 && s < 1).length;
  }
  // The pairs reach every branch: partial matches, long patterns (chunks of 32), no match.
  assert.ok(matched > compared / 4, `${matched} partial matches of ${compared}`);
});

test('edge cases: empty and blank texts, identical texts, a pattern of exactly 32 and 33 units', () => {
  const cases: [string, string[]][] = [
    ['', ['abc']],
    ['abc', []],
    ['   ', ['abc', ' ']],
    ['abc', ['abc', '', '  ', 'abd', 'xyz']],
    ['a'.repeat(32), ['a'.repeat(32), 'a'.repeat(31), 'b'.repeat(32)]],
    ['ab'.repeat(17), ['ab'.repeat(17), 'ab'.repeat(16), 'ba'.repeat(20)]],
    ['how do i transfer money to my friend abroad today', ['transfer money abroad', 'how do i']],
  ];
  for (const [query, texts] of cases) {
    assert.deepEqual(fuzzySimilarities(query, texts), fuseSimilarities(query, texts), query);
  }
});
