/**
 * Interned terms with their posting lists and rule frequencies, plus the character n-grams of
 * word terms. Everything is keyed by small integer ids so the hot loops touch typed arrays only.
 * @module
 */
import { hanTermText, wordGrams } from './features';
import { ensureCapacity } from './typed-arrays';

const EMPTY = new Int32Array(0);
const EMPTY_WEIGHTS = new Float32Array(0);

export class Vocabulary {
  private readonly termIds = new Map<string, number>();
  private readonly hanIds = new Map<number, number>();
  private readonly termStrings: string[] = [];
  /** Number of live rules whose phrasings (or name) contain the term. */
  ruleDf = new Int32Array(1024);
  /**
   * One posting per rule containing the term: the rule's first phrasing id (which identifies
   * that version of the rule; dead once the rule is replaced or removed) and the rule's Naive
   * Bayes weight for the term, which depends on the rule alone and so is computed once.
   */
  postings: Int32Array[] = [];
  postingWeights: Float32Array[] = [];
  postingLength = new Int32Array(1024);
  /** Terms with ruleDf > 0: the vocabulary size of the Naive Bayes smoothing. */
  liveTerms = 0;

  private readonly gramIds = new Map<string, number>();
  private termGramIds: Int32Array[] = [];
  gramRuleDf = new Int32Array(1024);
  liveGrams = 0;
  /** Word terms containing each gram: finds spelling neighbours of unknown query words. */
  private gramWords: number[][] = [];

  get termCount(): number {
    return this.termStrings.length;
  }

  wordId(word: string): number | undefined {
    return this.termIds.get(word);
  }

  hanId(code: number): number | undefined {
    return this.hanIds.get(code);
  }

  term(id: number): string {
    return this.termStrings[id] ?? '';
  }

  internWord(word: string): number {
    const known = this.termIds.get(word);
    if (known !== undefined) return known;
    const id = this.addTerm(word);
    this.termIds.set(word, id);
    this.termGramIds.push(this.internGrams(word, id));
    return id;
  }

  /** Han terms get no character n-grams: the bigrams already play that part. */
  internHan(code: number): number {
    const known = this.hanIds.get(code);
    if (known !== undefined) return known;
    const id = this.addTerm(hanTermText(code));
    this.hanIds.set(code, id);
    this.termGramIds.push(EMPTY);
    return id;
  }

  private addTerm(text: string): number {
    const id = this.termStrings.length;
    this.termStrings.push(text);
    this.ruleDf = ensureCapacity(this.ruleDf, id + 1);
    this.postingLength = ensureCapacity(this.postingLength, id + 1);
    this.postings.push(EMPTY);
    this.postingWeights.push(EMPTY_WEIGHTS);
    return id;
  }

  private internGrams(word: string, wordId: number): Int32Array {
    const grams = wordGrams(word);
    const ids = new Int32Array(grams.length);
    grams.forEach((gram, i) => {
      let id = this.gramIds.get(gram);
      if (id === undefined) {
        id = this.gramWords.length;
        this.gramIds.set(gram, id);
        this.gramWords.push([]);
        this.gramRuleDf = ensureCapacity(this.gramRuleDf, id + 1);
      }
      ids[i] = id;
      const words = this.gramWords[id];
      if (words !== undefined && words[words.length - 1] !== wordId) words.push(wordId);
    });
    return ids;
  }

  /** Gram ids of a word term (empty for Han terms). */
  grams(termId: number): Int32Array {
    return this.termGramIds[termId] ?? EMPTY;
  }

  gramId(gram: string): number | undefined {
    return this.gramIds.get(gram);
  }

  wordsWithGram(gramId: number): readonly number[] {
    return this.gramWords[gramId] ?? [];
  }

  get gramCount(): number {
    return this.gramWords.length;
  }

  addPosting(termId: number, firstPhrasing: number, weight: number): void {
    const length = this.postingLength[termId] ?? 0;
    let list = this.postings[termId] ?? EMPTY;
    let weights = this.postingWeights[termId] ?? EMPTY_WEIGHTS;
    if (length >= list.length) {
      const capacity = Math.max(4, list.length * 2);
      const grown = new Int32Array(capacity);
      grown.set(list);
      list = grown;
      this.postings[termId] = list;
      const grownWeights = new Float32Array(capacity);
      grownWeights.set(weights);
      weights = grownWeights;
      this.postingWeights[termId] = weights;
    }
    list[length] = firstPhrasing;
    weights[length] = weight;
    this.postingLength[termId] = length + 1;
  }

  changeRuleDf(termId: number, delta: number): void {
    const before = this.ruleDf[termId] ?? 0;
    const after = before + delta;
    this.ruleDf[termId] = after;
    if (before === 0 && after > 0) this.liveTerms += 1;
    else if (before > 0 && after === 0) this.liveTerms -= 1;
  }

  changeGramRuleDf(gramId: number, delta: number): void {
    const before = this.gramRuleDf[gramId] ?? 0;
    const after = before + delta;
    this.gramRuleDf[gramId] = after;
    if (before === 0 && after > 0) this.liveGrams += 1;
    else if (before > 0 && after === 0) this.liveGrams -= 1;
  }

  /** Drops every posting (used by compaction, which re-adds the live ones). */
  clearPostings(): void {
    this.postingLength.fill(0);
    this.postings = this.postings.map(() => EMPTY);
    this.postingWeights = this.postingWeights.map(() => EMPTY_WEIGHTS);
  }
}
