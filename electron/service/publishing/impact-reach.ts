/**
 * Which logged questions an impact preview must replay: a question's answer can differ between
 * two targets only if a rule that differs between them (added, removed, its phrasings, answer,
 * validity or policy changed) can be a candidate for it, and the matcher makes a rule a
 * candidate only for a question sharing one of its terms (a word's stem, a Han character or
 * bigram: the shortlist's posting lists), for an unknown word of one of its spelling neighbours
 * (query-weights.ts), or for a question equal to one of its phrasings (same terms). So the
 * questions holding none of the changed rules' terms, old or new, nor a word within the
 * neighbours' edit distance of one, are left out, tokenised by the matcher's own `textTerms`
 * after the same synonym rewrite (decision 94).
 * @module
 */
import { boundedEditDistance } from '../matching/edit-distance';
import { textTerms, wordGrams } from '../matching/features';
import { SynonymTable } from '../matching/synonyms';
import type { StoredRule } from '../store/contract/records';

/** The terms a set of changed rules can be found by, and the test of a question against them. */
export class ReachableQuestions {
  private readonly words = new Set<string>();
  private readonly han = new Set<number>();
  /** The changed words by their character grams (where spelling neighbours are looked up). */
  private readonly byGram = new Map<string, string[]>();
  /** Question words already looked up (a log repeats its words). */
  private readonly known = new Map<string, boolean>();
  private readonly rewrite: (text: string) => string;
  /** The rules added, as given (what another thread rebuilds this filter from). */
  readonly rules: Pick<StoredRule, 'ruleName' | 'questions'>[] = [];

  /**
   * `synonyms`: the groups both targets' indexes use (the same on both sides, or the preview
   * replays everything).
   */
  constructor(readonly synonyms: readonly (readonly string[])[]) {
    const table = new SynonymTable(synonyms);
    this.rewrite = table.isEmpty ? (text) => text : (text) => table.rewrite(text);
  }

  /** Adds a changed rule's terms (its name is a phrasing too). */
  add(rule: Pick<StoredRule, 'ruleName' | 'questions'>): void {
    this.rules.push({ ruleName: rule.ruleName, questions: rule.questions });
    for (const text of [rule.ruleName, ...rule.questions]) {
      const { words, han } = textTerms(this.rewrite(text));
      for (const word of words) this.addWord(word);
      for (const key of han) this.han.add(key);
    }
  }

  private addWord(word: string): void {
    if (this.words.has(word)) return;
    this.words.add(word);
    this.known.clear();
    for (const gram of new Set(wordGrams(word))) {
      const holders = this.byGram.get(gram);
      if (holders) holders.push(word);
      else this.byGram.set(gram, [word]);
    }
  }

  /**
   * Whether a question's word is a changed word or may be taken for one: the matcher looks an
   * unknown word of 4 letters or more up among the known words sharing two of its grams within
   * 1 edit (2 past 5 letters); any changed word that close counts, known or not in either index.
   */
  private reachesWord(word: string): boolean {
    if (this.words.has(word)) return true;
    if (word.length < 4) return false;
    const cached = this.known.get(word);
    if (cached !== undefined) return cached;
    const limit = word.length <= 5 ? 1 : 2;
    const shared = new Map<string, number>();
    let found = false;
    for (const gram of wordGrams(word)) {
      for (const holder of this.byGram.get(gram) ?? []) {
        const count = (shared.get(holder) ?? 0) + 1;
        shared.set(holder, count);
        if (count === 2 && boundedEditDistance(word, holder, limit) <= limit) found = true;
      }
      if (found) break;
    }
    this.known.set(word, found);
    return found;
  }

  /**
   * Whether a changed rule can be a candidate for `question`. A question without any term (stop
   * words only) is reachable: only an equal phrasing, term-less too, can answer it.
   */
  reaches(question: string): boolean {
    const { words, han } = textTerms(this.rewrite(question));
    if (words.length === 0 && han.length === 0) return true;
    return han.some((key) => this.han.has(key)) || words.some((word) => this.reachesWord(word));
  }
}

/**
 * Whether a changed rule is found other than by its terms: a `contains` rule answers any
 * question holding its phrasing as a substring ("card" in "cardholder" shares no stem), so the
 * whole log is replayed.
 */
export const foundByText = (rule: StoredRule): boolean => rule.matchPolicy === 'contains';
