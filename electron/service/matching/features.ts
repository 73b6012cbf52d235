/**
 * Turns one text into the terms the index stores. Terms are of two kinds sharing one id space:
 * stemmed words (spaced scripts) and Han character uni/bigrams. Words additionally carry
 * character n-grams, which give partial credit for morphology and typos ("transfered",
 * "top-ups") without needing posting lists of their own.
 * @module
 */
import { hanBigramKey, hanUnigramKey } from './han-terms';
import type { TextTerms } from './han-terms';
import { normalizeText } from './normalize';
import { scanSimpleText } from './scan';
import { isHanStopCode, tokenize } from './tokenize';

export function textTerms(text: string): TextTerms {
  return scanSimpleText(text) ?? textTermsOfAnyText(text);
}

/** The general path of `textTerms` (and the reference the scanner is tested against). */
export function textTermsOfAnyText(text: string): TextTerms {
  const key = normalizeText(text);
  const { words, hanRuns } = tokenize(key);
  const han: number[] = [];
  for (const run of hanRuns) {
    let previous = -1;
    for (let i = 0; i < run.length; i += 1) {
      const code = run.codePointAt(i) ?? 0;
      if (code > 0xffff) i += 1;
      // A particle alone is noise, but inside a bigram it still tells phrases apart (天气的/的天气).
      if (!isHanStopCode(code)) han.push(hanUnigramKey(code));
      if (previous >= 0) han.push(hanBigramKey(previous, code));
      previous = code;
    }
  }
  return { key, words, han };
}

const DIGITS = /^\d+$/;

/**
 * Character 3- and 4-grams of a word with boundary marks ("<card>" → "<ca", "car", …). Numbers
 * have none: 12345 and 12354 are different order numbers, not a typo of each other.
 */
export function wordGrams(word: string): string[] {
  if (DIGITS.test(word)) return [];
  const marked = `<${word}>`;
  const grams: string[] = [];
  for (let n = 3; n <= 4; n += 1) {
    for (let i = 0; i + n <= marked.length; i += 1) grams.push(marked.slice(i, i + n));
  }
  return grams;
}
