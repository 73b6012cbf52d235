/**
 * Groups similar questions: the same text once normalised as the matcher reads it, then texts
 * whose terms (stemmed words, Han bigrams) overlap enough, most frequent first.
 * @module
 */
import { normalizeText } from '../matching/normalize';
import { isHanStopCode, tokenize } from '../matching/tokenize';

/** Share of shared terms (Jaccard) from which two questions are one group. */
const SIMILAR = 0.5;
/** A group is compared with at most this many other groups sharing its rarest terms. */
const CANDIDATES_MAX = 200;

/** The terms of a normalised question: stemmed words, and Han bigrams (single characters alone). */
export function termsOf(normalized: string): string[] {
  const { words, hanRuns } = tokenize(normalized);
  const terms = new Set(words);
  for (const run of hanRuns) {
    const chars = [...run].filter((char) => !isHanStopCode(char.codePointAt(0) ?? 0));
    if (chars.length === 1) terms.add(chars[0] as string);
    for (let i = 0; i + 1 < chars.length; i++) terms.add(`${chars[i]}${chars[i + 1]}`);
  }
  return [...terms];
}

export interface Grouped<T> {
  /** The normalised text of the group's most frequent question. */
  key: string;
  /** Items of the group, by normalised text, most frequent first. */
  texts: { key: string; items: T[] }[];
  count: number;
}

/**
 * Groups `items` by the similarity of `textOf(item)`. A text joins the group of the most frequent
 * text it is similar to (greedy, in frequency order), so groups are stable as the log grows.
 */
export function groupSimilar<T>(items: readonly T[], textOf: (item: T) => string): Grouped<T>[] {
  const byText = new Map<string, T[]>();
  // The same questions come back again and again: each distinct one is normalised once.
  const keys = new Map<string, string>();
  for (const item of items) {
    const text = textOf(item);
    let key = keys.get(text);
    if (key === undefined) {
      key = normalizeText(text);
      keys.set(text, key);
    }
    const list = byText.get(key);
    if (list) list.push(item);
    else byText.set(key, [item]);
  }
  const texts = [...byText].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const groups: (Grouped<T> & { terms: Set<string> })[] = [];
  const postings = new Map<string, number[]>();
  for (const [key, list] of texts) {
    const terms = termsOf(key);
    let best = -1;
    let bestScore = 0;
    if (terms.length > 0) {
      const seen = new Set<number>();
      // Rarest terms first: the few groups sharing them are the likeliest matches.
      const ordered = [...terms].sort(
        (a, b) => (postings.get(a)?.length ?? 0) - (postings.get(b)?.length ?? 0),
      );
      for (const term of ordered) {
        for (const g of postings.get(term) ?? []) {
          if (seen.size >= CANDIDATES_MAX) break;
          if (seen.has(g)) continue;
          seen.add(g);
          const group = groups[g] as Grouped<T> & { terms: Set<string> };
          let shared = 0;
          for (const t of terms) if (group.terms.has(t)) shared += 1;
          const score = shared / (terms.length + group.terms.size - shared);
          if (score > bestScore) {
            bestScore = score;
            best = g;
          }
        }
      }
    }
    if (best >= 0 && bestScore >= SIMILAR) {
      const group = groups[best] as Grouped<T>;
      group.texts.push({ key, items: list });
      group.count += list.length;
      continue;
    }
    const index = groups.length;
    groups.push({ key, texts: [{ key, items: list }], count: list.length, terms: new Set(terms) });
    for (const term of terms) {
      const posting = postings.get(term);
      if (posting) posting.push(index);
      else postings.set(term, [index]);
    }
  }
  return groups
    .map(({ key, texts: members, count }) => ({ key, texts: members, count }))
    .sort((a, b) => b.count - a.count);
}
