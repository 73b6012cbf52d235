/**
 * The one-pass scanner must give exactly the terms of the general path (normalisation, then
 * tokenisation) for every text it accepts, and must decline what it cannot handle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textTermsOfAnyText } from '../../../electron/service/matching/features';
import { scanSimpleText } from '../../../electron/service/matching/scan';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = [
  'How',
  'do',
  'I',
  'RESET',
  'my',
  'password',
  'not',
  'top-up',
  '2nd',
  '12345',
  'a',
  'the',
  '怎么',
  '办理',
  '退款',
  '的',
  '了',
  '银行卡',
  '为什么',
  '不能',
  '营业时间',
  '吗',
  '资料库',
  '資料庫',
  '營業時間',
  '怎麼',
  ' ',
  '  ',
  ',',
  '.',
  '?',
  '!',
  '-',
  '_',
  '/',
  '(',
  ')',
  '"',
  '#',
  '@',
  '，',
  '。',
  '？',
  '！',
  '、',
  '：',
  '；',
  '（',
  '）',
  '《',
  '》',
  '【',
  '】',
  '「',
  '」',
  '…',
  '—',
  '“',
  '”',
  '\u3000',
  '～',
  "can't",
  '’',
  'Ｃａｆé',
  '😀',
  'naïve',
  'ｶﾀｶﾅ',
  'かな',
  '〇',
  '々',
];

test('the scanner agrees with the general path on every text it accepts', () => {
  const random = seeded(5);
  let accepted = 0;
  for (let n = 0; n < 20_000; n += 1) {
    const count = 1 + Math.floor(random() * 9);
    const text = Array.from(
      { length: count },
      () => PIECES[Math.floor(random() * PIECES.length)] ?? '',
    ).join(random() < 0.5 ? '' : ' ');
    const fast = scanSimpleText(text);
    if (fast === null) continue;
    accepted += 1;
    assert.deepEqual(fast, textTermsOfAnyText(text), JSON.stringify(text));
  }
  assert.ok(accepted > 5_000, `only ${accepted} texts took the fast path`);
});

test('the scanner declines what needs the general path', () => {
  for (const text of ["can't", '資料庫', 'Ｃａｆé', 'naïve', 'ｶﾀｶﾅ', 'かな', '😀', 'it’s']) {
    assert.equal(scanSimpleText(text), null, text);
  }
  assert.deepEqual(scanSimpleText('  '), { key: '', words: [], han: [] });
});
