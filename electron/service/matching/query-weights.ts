/**
 * Query weighting: the question's words (Han terms included) and character grams as
 * L2-normalised tf·idf vectors over the index's vocabulary. Unknown words are looked up among
 * their spelling neighbours; what stays unknown still lowers cosine and coverage.
 *
 * The vectors are written into scratch space owned by the scorer (`WeightedTerms`, typed
 * arrays reused from one question to the next), and while a question is scored each term's
 * position in its vector stays marked in a table indexed by term id (`QueryWeigher.termPos`):
 * scoring reads positions with one array access instead of a map.
 * @module
 */
import { boundedEditDistance } from './edit-distance';
import { wordGrams } from './features';
import { isFrameHanKey, isFrameWord } from './frame-words';
import { idf } from './idf';
import type { RuleStore } from './rule-store';
import { ensureCapacity } from './typed-arrays';

/** A spelling neighbour counts for less than the word itself. */
const TYPO_FACTOR = 0.7;
/** Grams shared by more words than this are useless for finding spelling neighbours. */
const NEIGHBOUR_GRAM_LIMIT = 3000;

/** A weighted query vector (scratch space: valid until the next question is weighed). */
export class WeightedTerms {
  ids = new Int32Array(16);
  weights = new Float64Array(16);
  /** Per term: it only frames the question (frame-words.ts). */
  frame = new Uint8Array(16);
  /** Per term: the idf of the term among the rules (the weight its rules' vectors give it). */
  idf = new Float64Array(16);
  length = 0;
  /**
   * Squared weight of question terms no rule contains. They cannot rank rules, but they must
   * lower cosine and coverage: a question of mostly unknown words is not a match.
   */
  unknown = 0;
  /** Σ of the L2-normalised weights (the Naive Bayes length term). */
  total = 0;
  /** The part of `unknown` from content (not frame) terms, normalised like the weights. */
  unknownContent = 0;

  reset(): void {
    this.length = 0;
    this.unknown = 0;
    this.total = 0;
    this.unknownContent = 0;
  }

  push(id: number, weight: number, frame: boolean): void {
    const at = this.length;
    if (at >= this.ids.length) {
      this.ids = ensureCapacity(this.ids, at + 1);
      this.weights = ensureCapacity(this.weights, at + 1);
      this.frame = ensureCapacity(this.frame, at + 1);
      this.idf = ensureCapacity(this.idf, at + 1);
    }
    this.ids[at] = id;
    this.weights[at] = weight;
    this.frame[at] = frame ? 1 : 0;
    this.length = at + 1;
  }

  normalise(): void {
    let norm = this.unknown;
    const weights = this.weights;
    for (let i = 0; i < this.length; i += 1) {
      const w = weights[i] as number;
      norm += w * w;
    }
    if (norm > 0) this.unknownContent /= norm;
    norm = Math.sqrt(norm);
    if (norm === 0) return;
    this.total = 0;
    for (let i = 0; i < this.length; i += 1) {
      const w = (weights[i] as number) / norm;
      weights[i] = w;
      this.total += w;
    }
  }
}

/**
 * Weighs questions against one store. Counting goes through position tables indexed by term
 * and gram id (first occurrence order, as a map's insertion order would give), which stay set
 * for the question being scored until `clear`.
 */
export class QueryWeigher {
  /** Position + 1 of each term id in the question's word vector (0: not in the question). */
  termPos = new Int32Array(0);
  /** The same for gram ids in the gram vector. */
  gramPos = new Int32Array(0);
  readonly words = new WeightedTerms();
  readonly grams = new WeightedTerms();
  private counts = new Float64Array(16);
  private countIds = new Int32Array(16);
  private countFrame = new Uint8Array(16);
  private distinct = 0;
  private neighbourShared = new Int32Array(0);
  private neighbourStamp = new Int32Array(0);
  private stamp = 0;

  constructor(private readonly store: RuleStore) {}

  /** Weighs a question's words and grams; positions stay marked until `clear`. */
  weigh(questionWords: readonly string[], han: readonly number[]): void {
    const vocab = this.store.vocab;
    this.termPos = ensureCapacity(this.termPos, vocab.termCount);
    this.gramPos = ensureCapacity(this.gramPos, vocab.gramCount);
    this.weighTerms(questionWords, han);
    this.weighGrams(questionWords);
  }

  /** Unmarks the positions of the last question. */
  clear(): void {
    const { words, grams, termPos, gramPos } = this;
    for (let i = 0; i < words.length; i += 1) termPos[words.ids[i] as number] = 0;
    for (let i = 0; i < grams.length; i += 1) gramPos[grams.ids[i] as number] = 0;
  }

  /**
   * Adds `amount` to the count of `id` (appended when first seen), positions kept in `pos`;
   * returns its position.
   */
  private count(pos: Int32Array, id: number, amount: number): number {
    const at = (pos[id] as number) - 1;
    if (at >= 0) {
      this.counts[at] = (this.counts[at] as number) + amount;
      return at;
    }
    const next = this.distinct;
    if (next >= this.counts.length) {
      this.counts = ensureCapacity(this.counts, next + 1);
      this.countIds = ensureCapacity(this.countIds, next + 1);
      this.countFrame = ensureCapacity(this.countFrame, next + 1);
    }
    this.counts[next] = amount;
    this.countIds[next] = id;
    this.countFrame[next] = 0;
    pos[id] = next + 1;
    this.distinct = next + 1;
    return next;
  }

  /** The question's word and Han terms, weighted. */
  private weighTerms(questionWords: readonly string[], han: readonly number[]): void {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    const pos = this.termPos;
    const result = this.words;
    result.reset();
    this.distinct = 0;
    let unknown = 0;
    let unknownContent = 0;
    for (const word of questionWords) {
      const id = vocab.wordId(word);
      if (id !== undefined && (vocab.ruleDf[id] ?? 0) > 0) {
        const at = this.count(pos, id, 1);
        if (isFrameWord(word)) this.countFrame[at] = 1;
      } else {
        const neighbours = word.length >= 4 ? this.spellingNeighbours(word) : [];
        for (const neighbour of neighbours) this.count(pos, neighbour, TYPO_FACTOR);
        if (neighbours.length === 0) {
          unknown += idf(ruleCount, 0) ** 2;
          if (!isFrameWord(word)) unknownContent += idf(ruleCount, 0) ** 2;
        }
      }
    }
    for (const code of han) {
      const id = vocab.hanId(code);
      const isFrame = isFrameHanKey(code);
      if (id !== undefined && (vocab.ruleDf[id] ?? 0) > 0) {
        const at = this.count(pos, id, 1);
        if (isFrame) this.countFrame[at] = 1;
      } else {
        unknown += idf(ruleCount, 0) ** 2;
        if (!isFrame) unknownContent += idf(ruleCount, 0) ** 2;
      }
    }
    result.unknown = unknown;
    result.unknownContent = unknownContent;
    // Every counted term is known: positions stay those of the counting.
    for (let i = 0; i < this.distinct; i += 1) {
      const id = this.countIds[i] as number;
      const count = this.counts[i] as number;
      const tf = count >= 1 ? 1 + Math.log(count) : count;
      const termIdf = idf(ruleCount, vocab.ruleDf[id] ?? 0);
      result.push(id, tf * termIdf, this.countFrame[i] === 1);
      result.idf[i] = termIdf;
    }
    result.normalise();
  }

  /** The character grams of the question's words, weighted. */
  private weighGrams(questionWords: readonly string[]): void {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    const pos = this.gramPos;
    const result = this.grams;
    result.reset();
    this.distinct = 0;
    for (const term of questionWords) {
      // Unknown words still contribute their grams: that is what tolerates typos.
      const id = vocab.wordId(term);
      if (id !== undefined) {
        const to = vocab.gramEnd(id);
        for (let g = vocab.gramStart(id); g < to; g += 1) {
          this.count(pos, vocab.gramAt(g), 1);
        }
      } else {
        for (const gram of wordGrams(term)) {
          const gramId = vocab.gramId(gram);
          if (gramId !== undefined) this.count(pos, gramId, 1);
          else result.unknown += idf(ruleCount, 0) ** 2;
        }
      }
    }
    // Grams no rule contains leave the vector: positions are given anew.
    for (let i = 0; i < this.distinct; i += 1) {
      const id = this.countIds[i] as number;
      const count = this.counts[i] as number;
      pos[id] = 0;
      const df = vocab.gramRuleDf[id] ?? 0;
      if (df === 0) {
        result.unknown += ((1 + Math.log(count)) * idf(ruleCount, 0)) ** 2;
        continue;
      }
      const gramIdf = idf(ruleCount, df);
      result.push(id, (1 + Math.log(count)) * gramIdf, false);
      result.idf[result.length - 1] = gramIdf;
      pos[id] = result.length;
    }
    result.normalise();
  }

  /** Known words within one edit (two for long words) of an unknown query word. */
  private spellingNeighbours(word: string): number[] {
    const vocab = this.store.vocab;
    const limit = word.length <= 5 ? 1 : 2;
    this.neighbourShared = ensureCapacity(this.neighbourShared, vocab.termCount);
    this.neighbourStamp = ensureCapacity(this.neighbourStamp, vocab.termCount);
    this.stamp += 1;
    const stamp = this.stamp;
    const shared = this.neighbourShared;
    const seen = this.neighbourStamp;
    // Word ids in the order first met (the order a map would keep): ties below keep it.
    const met: number[] = [];
    for (const gram of wordGrams(word)) {
      const gramId = vocab.gramId(gram);
      if (gramId === undefined) continue;
      const holders = vocab.wordsWithGram(gramId);
      if (holders.length > NEIGHBOUR_GRAM_LIMIT) continue;
      for (let h = 0; h < holders.length; h += 1) {
        const id = holders[h] as number;
        if (seen[id] !== stamp) {
          seen[id] = stamp;
          shared[id] = 1;
          met.push(id);
        } else {
          shared[id] = (shared[id] as number) + 1;
        }
      }
    }
    const found: { id: number; distance: number; df: number }[] = [];
    for (const id of met) {
      if ((shared[id] as number) < 2 || (vocab.ruleDf[id] ?? 0) === 0) continue;
      const distance = boundedEditDistance(word, vocab.term(id), limit);
      if (distance <= limit) found.push({ id, distance, df: vocab.ruleDf[id] ?? 0 });
    }
    found.sort((a, b) => a.distance - b.distance || b.df - a.df);
    return found.slice(0, 3).map((entry) => entry.id);
  }
}
