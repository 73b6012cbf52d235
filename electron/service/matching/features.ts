/**
 * Turns one text into the terms the index stores. Terms are of two kinds sharing one id space:
 * stemmed words (spaced scripts) and Han character uni/bigrams. Words additionally carry
 * character n-grams, which give partial credit for morphology and typos ("transfered",
 * "top-ups") without needing posting lists of their own.
 * @module
 */
import { normalizeText } from './normalize';
import { isHanStopCode, tokenize } from './tokenize';

export interface TextTerms {
  /** `normalizeText` output; equality of keys is what "the same question" means. */
  key: string;
  /** Stemmed words in text order, repeated when repeated in the text. */
  words: string[];
  /** Han uni- and bigrams as numbers (see `hanBigramCode`), repeated when repeated. */
  han: number[];
}

/**
 * Numeric key of a Han bigram. Han terms are numbers rather than strings because making and
 * hashing a string per bigram dominated indexing time; a unigram's key is its code point,
 * which is always below the smallest bigram key.
 */
export function hanBigramCode(first: number, second: number): number {
  return first * 0x110000 + second;
}

/** The text of a Han term key. */
export function hanTermText(code: number): string {
  if (code < 0x110000) return String.fromCodePoint(code);
  const second = code % 0x110000;
  return String.fromCodePoint((code - second) / 0x110000, second);
}

export function textTerms(text: string): TextTerms {
  const key = normalizeText(text);
  const { words, hanRuns } = tokenize(key);
  const han: number[] = [];
  for (const run of hanRuns) {
    let previous = -1;
    for (let i = 0; i < run.length; i += 1) {
      const code = run.codePointAt(i) ?? 0;
      if (code > 0xffff) i += 1;
      // A particle alone is noise, but inside a bigram it still tells phrases apart (天气的/的天气).
      if (!isHanStopCode(code)) han.push(code);
      if (previous >= 0) han.push(hanBigramCode(previous, code));
      previous = code;
    }
  }
  return { key, words, han };
}

/** Character 3- and 4-grams of a word with boundary marks ("<card>" → "<ca", "car", …). */
export function wordGrams(word: string): string[] {
  const marked = `<${word}>`;
  const grams: string[] = [];
  for (let n = 3; n <= 4; n += 1) {
    for (let i = 0; i + n <= marked.length; i += 1) grams.push(marked.slice(i, i + n));
  }
  return grams;
}
