/**
 * Character-level fuzzy similarity from fuse.js (Bitap), used only on the phrasings of the few
 * best rules: it is too slow to run over a whole knowledge base, and keeping a Fuse instance per
 * rule would cost memory for nothing.
 * @module
 */
import Fuse from 'fuse.js';

const OPTIONS = {
  includeScore: true,
  ignoreLocation: true,
  // Weak matches are a feature too, down to the noise floor of calibrate.ts (similarity 0.3):
  // a looser threshold only makes Bitap try more error counts for nothing.
  threshold: 0.7,
  isCaseSensitive: true,
  shouldSort: false,
} as const;

/**
 * For each of `texts` (already normalised), a similarity to `query` in 0..1 (1 = identical,
 * 0 = no fuzzy match at all).
 */
export function fuzzySimilarities(query: string, texts: readonly string[]): number[] {
  const similarities = texts.map(() => 0);
  if (query.length === 0 || texts.length === 0) return similarities;
  const fuse = new Fuse(texts, OPTIONS);
  for (const result of fuse.search(query)) {
    similarities[result.refIndex] = 1 - (result.score ?? 1);
  }
  return similarities;
}
