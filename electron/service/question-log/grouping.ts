/**
 * Groups similar missed questions as they arrive: the same text once normalised as the matcher
 * reads it is one question; a new question joins the group whose first question shares enough of
 * its terms (stemmed words, Han bigrams), else starts a group of its own. A group's id is the
 * normalised text of the question that started it, and a question keeps its group: ids are
 * stable, so that a fix or a dismissal applies to the group the editor saw.
 * @module
 */
import { isHanStopCode, tokenize } from '../matching/tokenize';

/** Share of shared terms (Jaccard) from which two questions are one group. */
const SIMILAR = 0.5;
/** A question is compared with at most this many groups sharing its rarest terms. */
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

interface Group {
  key: string;
  terms: ReadonlySet<string>;
}

/** The groups of one log's questions: which group each question is in, and where a new one goes. */
export class GroupIndex {
  private readonly groupOf = new Map<string, string>();
  private readonly groups: Group[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly postings = new Map<string, number[]>();

  get size(): number {
    return this.groupOf.size;
  }

  /** Takes the groups as they stand (a question → its group), e.g. as a store kept them. */
  load(groups: ReadonlyMap<string, string>): void {
    for (const [key, group] of groups) {
      this.groupOf.set(key, group);
      if (!this.byKey.has(group)) this.addGroup(group);
    }
  }

  private addGroup(key: string): number {
    const index = this.groups.length;
    const terms = termsOf(key);
    this.groups.push({ key, terms: new Set(terms) });
    this.byKey.set(key, index);
    for (const term of terms) {
      const posting = this.postings.get(term);
      if (posting) posting.push(index);
      else this.postings.set(term, [index]);
    }
    return index;
  }

  /** The group of a normalised question, found (or started) the first time it is seen. */
  groupOfKey(key: string): string {
    const known = this.groupOf.get(key);
    if (known !== undefined) return known;
    const group = this.similarGroup(key) ?? this.groups[this.addGroup(key)]?.key ?? key;
    this.groupOf.set(key, group);
    return group;
  }

  private similarGroup(key: string): string | undefined {
    if (this.byKey.has(key)) return key;
    const terms = termsOf(key);
    if (terms.length === 0) return undefined;
    let best: Group | undefined;
    let bestScore = 0;
    const seen = new Set<number>();
    // Rarest terms first: the few groups sharing them are the likeliest matches.
    const ordered = [...terms].sort(
      (a, b) => (this.postings.get(a)?.length ?? 0) - (this.postings.get(b)?.length ?? 0),
    );
    // Prefix filter: a group sharing at least SIMILAR of the union shares at least
    // ceil(SIMILAR × terms) of these terms, so it holds one of the rarest `prefix` of them; the
    // groups met only through commoner terms could never reach SIMILAR (same result, less work).
    const prefix = terms.length - Math.ceil(SIMILAR * terms.length) + 1;
    for (const term of ordered.slice(0, prefix)) {
      for (const g of this.postings.get(term) ?? []) {
        if (seen.size >= CANDIDATES_MAX) break;
        if (seen.has(g)) continue;
        seen.add(g);
        const group = this.groups[g];
        if (!group) continue;
        let shared = 0;
        for (const t of terms) if (group.terms.has(t)) shared += 1;
        const score = shared / (terms.length + group.terms.size - shared);
        // Ties go to the older group: the same questions group alike whatever came after.
        if (score > bestScore) {
          bestScore = score;
          best = group;
        }
      }
    }
    return best !== undefined && bestScore >= SIMILAR ? best.key : undefined;
  }
}
