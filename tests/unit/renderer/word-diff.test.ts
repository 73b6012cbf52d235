/**
 * The diff of two versions marks the words that changed (issue 29: "7天 → 15天" showed two whole
 * answers), in Chinese and in English.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordDiff } from '../../../renderer/features/publishing/word-diff';
import type { DiffPart } from '../../../renderer/features/publishing/word-diff';

const marked = (parts: DiffPart[]) => parts.filter((p) => p.kind !== 'same').map((p) => p.text);
const whole = (parts: DiffPart[]) => parts.map((p) => p.text).join('');

test('a number changed in a Chinese answer: only it is marked, each side reads whole', () => {
  const from = '服装支持7天无理由退货，运费由买家承担。';
  const to = '服装支持15天无理由退货，运费由卖家承担。';
  const diff = wordDiff(from, to, 'zh-CN');
  assert.equal(whole(diff.from), from);
  assert.equal(whole(diff.to), to);
  assert.deepEqual(marked(diff.from), ['7', '买']);
  assert.deepEqual(marked(diff.to), ['15', '卖']);
  assert.ok(diff.to.some((p) => p.kind === 'same' && p.text.includes('无理由退货')));
});

test('English words, not letters, are marked', () => {
  const diff = wordDiff('Returns within 7 days.', 'Returns within 15 days, free.', 'en');
  assert.deepEqual(marked(diff.from), ['7']);
  assert.deepEqual(marked(diff.to), ['15', ', free']);
});

test('the same text has nothing marked', () => {
  const diff = wordDiff('七天无理由退货', '七天无理由退货', 'zh-CN');
  assert.deepEqual([marked(diff.from), marked(diff.to)], [[], []]);
});
