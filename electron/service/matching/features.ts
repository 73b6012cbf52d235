/**
 * Turns one text into the terms the index stores. Terms are of two kinds sharing one id space:
 * stemmed words (spaced scripts) and Han character uni/bigrams. Words additionally carry
 * character n-grams, which give partial credit for morphology and typos ("transfered",
 * "top-ups") without needing posting lists of their own.
 * @module
 */
import { normalizeText } from './normalize';
import { isHanStopChar, tokenize } from './tokenize';

export interface TextTerms {
  /** `normalizeText` output; equality of keys is what "the same question" means. */
  key: string;
  /** Index terms in text order, repeated when repeated in the text. */
  terms: string[];
}

/** Whether a term is a Han uni/bigram rather than a word (Han terms get no character n-grams). */
export function isHanTerm(term: string): boolean {
  const code = term.charCodeAt(0);
  return code >= 0x2e80;
}

export function textTerms(text: string): TextTerms {
  const key = normalizeText(text);
  const { words, hanRuns } = tokenize(key);
  const terms = words;
  for (const run of hanRuns) {
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i += 1) {
      const char = chars[i] ?? '';
      // A particle alone is noise, but inside a bigram it still tells phrases apart (天气的/的天气).
      if (!isHanStopChar(char)) terms.push(char);
      const next = chars[i + 1];
      if (next !== undefined) terms.push(char + next);
    }
  }
  return { key, terms };
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
