/**
 * The idf-weighted norms the cosine parts of rescoring divide by: each phrasing's (words and
 * grams) and each rule centroid's (the sum of its unit-length phrasing vectors). They depend on
 * document frequencies, so they are recomputed after a write, on a rule's first use.
 * @module
 */
import type { IdfTable } from './idf';
import type { RuleStore } from './rule-store';
import { TermCursor } from './term-bytes';
import { ensureCapacity } from './typed-arrays';

export class RuleNorms {
  private termCentroid = new Float64Array(0);
  private gramCentroid = new Float64Array(0);
  // Valid while ruleNormStamp[slot] equals the store's generation.
  private ruleNormStamp = new Int32Array(0);
  ruleCentroidWordNorm = new Float64Array(0);
  ruleCentroidGramNorm = new Float64Array(0);
  phrasingWordNorm = new Float64Array(0);
  phrasingGramNorm = new Float64Array(0);
  private readonly cursor = new TermCursor();

  constructor(
    private readonly store: RuleStore,
    private readonly idf: IdfTable,
  ) {}

  /** Makes the norms of the rule in `slot` and of its phrasings current. */
  ensure(slot: number): void {
    this.grow();
    this.compute(slot);
  }

  private compute(slot: number): void {
    const store = this.store;
    const vocab = store.vocab;
    if (this.ruleNormStamp[slot] === store.generation) return;
    const ruleCount = Math.max(store.size, 1);
    const cursor = this.cursor;
    const gramTable = vocab.gramTable;
    const gramOffsets = vocab.gramTableOffsets;
    const first = store.ruleFirstPhrasing[slot] ?? 0;
    const end = first + (store.rulePhrasingCount[slot] ?? 0);
    for (let p = first; p < end; p += 1) {
      const to = store.phrasingStart[p + 1] ?? 0;
      let wordNorm = 0;
      let gramNorm = 0;
      cursor.reset(store.forward, store.phrasingStart[p] ?? 0);
      while (cursor.at < to) {
        const term = cursor.next();
        const w = this.idf.get(ruleCount, vocab.ruleDf[term] ?? 0);
        wordNorm += w * w;
        const gramTo = gramOffsets[term + 1] as number;
        for (let g = gramOffsets[term] as number; g < gramTo; g += 1) {
          const gw = this.idf.get(ruleCount, vocab.gramRuleDf[gramTable[g] as number] ?? 0);
          gramNorm += gw * gw;
        }
      }
      this.phrasingWordNorm[p] = Math.sqrt(wordNorm) || 1;
      this.phrasingGramNorm[p] = Math.sqrt(gramNorm) || 1;
    }
    const [wordNorm, gramNorm] = this.centroidNorms(slot);
    this.ruleCentroidWordNorm[slot] = wordNorm;
    this.ruleCentroidGramNorm[slot] = gramNorm;
    this.ruleNormStamp[slot] = store.generation;
  }

  /**
   * The norms (words, grams) of the rule's centroid, the sum of its unit-length phrasing
   * vectors, without phrasing `leftOut` (the self-test's leave-one-out) if given; the phrasing
   * norms must be current.
   */
  centroidNorms(slot: number, leftOut = -1): [number, number] {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    this.termCentroid = ensureCapacity(this.termCentroid, vocab.termCount);
    this.gramCentroid = ensureCapacity(this.gramCentroid, vocab.gramCount);
    const termCentroid = this.termCentroid;
    const gramCentroid = this.gramCentroid;
    const touchedTerms: number[] = [];
    const touchedGrams: number[] = [];
    const cursor = this.cursor;
    const gramTable = vocab.gramTable;
    const gramOffsets = vocab.gramTableOffsets;
    const first = store.ruleFirstPhrasing[slot] ?? 0;
    const end = first + (store.rulePhrasingCount[slot] ?? 0);
    for (let p = first; p < end; p += 1) {
      if (p === leftOut) continue;
      const wordNorm = this.phrasingWordNorm[p] || 1;
      const gramNorm = this.phrasingGramNorm[p] || 1;
      const to = store.phrasingStart[p + 1] ?? 0;
      cursor.reset(store.forward, store.phrasingStart[p] ?? 0);
      while (cursor.at < to) {
        const term = cursor.next();
        if (termCentroid[term] === 0) touchedTerms.push(term);
        termCentroid[term] =
          (termCentroid[term] ?? 0) + this.idf.get(ruleCount, vocab.ruleDf[term] ?? 0) / wordNorm;
        const gramTo = gramOffsets[term + 1] as number;
        for (let g = gramOffsets[term] as number; g < gramTo; g += 1) {
          const gram = gramTable[g] as number;
          if (gramCentroid[gram] === 0) touchedGrams.push(gram);
          gramCentroid[gram] =
            (gramCentroid[gram] ?? 0) +
            this.idf.get(ruleCount, vocab.gramRuleDf[gram] ?? 0) / gramNorm;
        }
      }
    }
    return [drainNorm(termCentroid, touchedTerms), drainNorm(gramCentroid, touchedGrams)];
  }

  private grow(): void {
    const store = this.store;
    const slots = store.slotCount;
    this.ruleNormStamp = ensureCapacity(this.ruleNormStamp, slots);
    this.ruleCentroidWordNorm = ensureCapacity(this.ruleCentroidWordNorm, slots);
    this.ruleCentroidGramNorm = ensureCapacity(this.ruleCentroidGramNorm, slots);
    this.phrasingWordNorm = ensureCapacity(this.phrasingWordNorm, store.phrasingTotal);
    this.phrasingGramNorm = ensureCapacity(this.phrasingGramNorm, store.phrasingTotal);
  }
}

/** The Euclidean norm of the entries of `vector` at `touched`; clears them. */
function drainNorm(vector: Float64Array, touched: number[]): number {
  let norm = 0;
  for (const id of touched) {
    const value = vector[id] ?? 0;
    norm += value * value;
    vector[id] = 0;
  }
  return Math.sqrt(norm);
}
