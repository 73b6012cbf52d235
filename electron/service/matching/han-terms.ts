/**
 * The terms of a text as the index stores them (`TextTerms`) and the numeric keys of Han terms.
 * Both the general path (features.ts) and the one-pass scanner (scan.ts) produce them; they sit
 * here, below both, so that neither imports the other for them.
 * @module
 */

export interface TextTerms {
  /** `normalizeText` output; equality of keys is what "the same question" means. */
  key: string;
  /** Stemmed words in text order, repeated when repeated in the text. */
  words: string[];
  /** Han uni- and bigrams as numeric keys (see `hanUnigramKey`), repeated when repeated. */
  han: number[];
}

/*
 * Han terms are numeric keys rather than strings: making and hashing a string per bigram
 * dominated indexing time. Each Han character seen gets a small dense index (process-wide), so
 * that a bigram key fits a small integer, which maps hash and store without boxing: unigrams are
 * −index, bigrams of the first 32,000 characters index pairs above 0. Rarer pairs take larger
 * (still exact) numbers.
 */
const HAN_LIMIT = 0x31350;
const DENSE = 32_000;
const SPARSE_BASE = 2 ** 31;
const hanIndexOf = new Int32Array(HAN_LIMIT);
const hanByIndex: number[] = [0];

function hanIndex(code: number): number {
  let index = code < HAN_LIMIT ? (hanIndexOf[code] ?? 0) : 0;
  if (index === 0) {
    index = hanByIndex.length;
    hanByIndex.push(code);
    if (code < HAN_LIMIT) hanIndexOf[code] = index;
  }
  return index;
}

export function hanUnigramKey(code: number): number {
  return -hanIndex(code);
}

export function hanBigramKey(first: number, second: number): number {
  const a = hanIndex(first);
  const b = hanIndex(second);
  return a <= DENSE && b <= DENSE ? 1 + (a - 1) * DENSE + (b - 1) : SPARSE_BASE + a * 2 ** 21 + b;
}

/** The first character of a Han term key, as a code point. */
export function hanKeyFirstCode(key: number): number {
  if (key < 0) return hanByIndex[-key] ?? 0;
  if (key < SPARSE_BASE) return hanByIndex[Math.floor((key - 1) / DENSE) + 1] ?? 0;
  const b = (key - SPARSE_BASE) % 2 ** 21;
  return hanByIndex[(key - SPARSE_BASE - b) / 2 ** 21] ?? 0;
}

/** The second character of a Han bigram key, as a code point (−1 for a unigram). */
export function hanKeySecondCode(key: number): number {
  if (key < 0) return -1;
  if (key < SPARSE_BASE) return hanByIndex[((key - 1) % DENSE) + 1] ?? 0;
  return hanByIndex[(key - SPARSE_BASE) % 2 ** 21] ?? 0;
}

/** The text of a Han term key. */
export function hanTermText(key: number): string {
  const first = String.fromCodePoint(hanKeyFirstCode(key));
  const second = hanKeySecondCode(key);
  return second < 0 ? first : first + String.fromCodePoint(second);
}

/** The key of a Han term's text (one or two characters). */
export function hanTermKey(text: string): number {
  const first = text.codePointAt(0) ?? 0;
  const width = first > 0xffff ? 2 : 1;
  return text.length > width
    ? hanBigramKey(first, text.codePointAt(width) ?? 0)
    : hanUnigramKey(first);
}
