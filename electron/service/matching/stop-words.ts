/**
 * Deliberately short stop lists: only words whose presence says nothing about which rule is
 * meant. Negations (not, no, never, 没, 不, 别 …), pronouns and question words (how, why, my …)
 * are kept: on the development set, dropping a classic English stop list cost 1–3 points of P@1,
 * because "why do I have to verify" and "how do I verify" are different rules. Rule-frequency
 * weighting already discounts common words, and the matcher skips huge posting lists at query
 * time, so the list does not have to protect performance.
 * @module
 */

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'please',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'just',
  'really',
  'very',
]);

/** Particles and modal fillers; 不, 没, 无, 别, 未, 非 stay as they negate. */
export const CHINESE_STOP_CHARS: ReadonlySet<string> = new Set([
  '的',
  '了',
  '吗',
  '呢',
  '吧',
  '啊',
  '呀',
  '哦',
  '嘛',
  '么',
  '哈',
  '啦',
  '嗯',
  '哎',
  '呗',
  '地',
  '得',
  '着',
]);
