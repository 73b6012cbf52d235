/**
 * Scores rules for one question in two stages.
 *
 * Stage 1 walks the posting lists of the question's terms (rarest first, stopping before
 * very common terms blow the budget) and ranks every touched rule with a multinomial Naive
 * Bayes score over words. Stage 2 rescores only the best few dozen rules from their forward
 * lists, exactly: Naive Bayes over words and over character n-grams, plus Rocchio cosine
 * similarities (to the rule's centroid and to its closest phrasing). On the development split,
 * Naive Bayes beat every cosine variant by 2–3 points of P@1 and the cosine terms add ~0.5 point
 * on top; see docs/matching.md.
 * @module
 */
import { boundedEditDistance } from './edit-distance';
import { isHanTerm, textTerms, wordGrams } from './features';
import type { RuleStore } from './rule-store';
import { ensureCapacity } from './typed-arrays';

/** Naive Bayes additive smoothing (tuned on the development split: 0.03–0.3 all within 1 pt). */
const ALPHA = 0.1;
/** Weight of the character n-gram namespace next to the word namespace. */
const GRAM_WEIGHT = 0.5;
/** Weight of the Rocchio cosine part next to the Naive Bayes log-likelihoods. */
const COSINE_WEIGHT = 6;
/** Share of the centroid (vs the closest phrasing) in a rule's cosine similarity. */
const CENTROID_SHARE = 0.7;
/** Rules taken from stage 1 into stage 2. */
const SHORTLIST = 40;
/** Stage 1 stops adding terms once this many postings were read (terms go rarest first). */
const POSTINGS_BUDGET = 150_000;
/** A spelling neighbour counts for less than the word itself. */
const TYPO_FACTOR = 0.7;
/** Grams shared by more words than this are useless for finding spelling neighbours. */
const NEIGHBOUR_GRAM_LIMIT = 3000;

export interface ScoredRule {
  slot: number;
  /** Phrasing closest to the question (by cosine), or the one equal to it. */
  phrasing: number;
  exact: boolean;
  /** Ranking score: Naive Bayes log-likelihood plus weighted cosine; only differences matter. */
  raw: number;
  naiveBayes: number;
  cosine: number;
  /** Cosine of the question with the closest phrasing (words and grams), 0..1. */
  closest: number;
  /** Share of the question's term weight found in the rule, 0..1. */
  coverage: number;
}

interface WeightedTerms {
  ids: number[];
  weights: number[];
  /** Σ of the L2-normalised weights (the Naive Bayes length term). */
  total: number;
}

function idf(ruleCount: number, ruleDf: number): number {
  return Math.log((ruleCount + 1) / (ruleDf + 1)) + 1;
}

function normaliseWeights(terms: WeightedTerms): void {
  let norm = 0;
  for (const w of terms.weights) norm += w * w;
  norm = Math.sqrt(norm);
  if (norm === 0) return;
  terms.total = 0;
  for (let i = 0; i < terms.weights.length; i += 1) {
    const w = (terms.weights[i] ?? 0) / norm;
    terms.weights[i] = w;
    terms.total += w;
  }
}

/** Per-index scratch space, reused across questions so a match allocates almost nothing. */
export class Scorer {
  private termPos = new Int32Array(0);
  private gramPos = new Int32Array(0);
  private ruleAcc = new Float64Array(0);
  private ruleScore = new Float64Array(0);
  private ruleSeen = new Uint8Array(0);
  private termCentroid = new Float64Array(0);
  private gramCentroid = new Float64Array(0);

  constructor(private readonly store: RuleStore) {}

  /** Scores the rules worth considering; exact phrasings come first with `exact` set. */
  score(question: string, nowMs: number): ScoredRule[] {
    const store = this.store;
    const vocab = store.vocab;
    const { key, terms } = textTerms(question);
    this.termPos = ensureCapacity(this.termPos, vocab.termCount);
    this.gramPos = ensureCapacity(this.gramPos, vocab.gramCount);
    const words = this.queryTerms(terms);
    const grams = this.queryGrams(terms);
    // Positions are stored plus one so that the zero-filled arrays mean "not in the question".
    words.ids.forEach((id, i) => (this.termPos[id] = i + 1));
    grams.ids.forEach((id, i) => (this.gramPos[id] = i + 1));

    const exactSlots = new Map<number, number>();
    for (const phrasing of store.exactPhrasings(key)) {
      const slot = store.phrasingRule[phrasing] ?? -1;
      if (slot >= 0 && store.isEligible(slot, nowMs) && !exactSlots.has(slot)) {
        exactSlots.set(slot, phrasing);
      }
    }
    const shortlist = this.shortlist(words, nowMs);
    for (const slot of exactSlots.keys()) if (!shortlist.includes(slot)) shortlist.push(slot);
    const scored = shortlist.map((slot) => {
      const rule = this.rescore(slot, words, grams);
      const exactPhrasing = exactSlots.get(slot);
      if (exactPhrasing !== undefined) {
        rule.exact = true;
        rule.phrasing = exactPhrasing;
      }
      return rule;
    });
    for (const id of words.ids) this.termPos[id] = 0;
    for (const id of grams.ids) this.gramPos[id] = 0;
    scored.sort((a, b) => Number(b.exact) - Number(a.exact) || b.raw - a.raw);
    return scored;
  }

  private queryTerms(terms: string[]): WeightedTerms {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    const counts = new Map<number, number>();
    for (const term of terms) {
      const id = vocab.termId(term);
      if (id !== undefined && (vocab.ruleDf[id] ?? 0) > 0) {
        counts.set(id, (counts.get(id) ?? 0) + 1);
      } else if (!isHanTerm(term) && term.length >= 4) {
        for (const neighbour of this.spellingNeighbours(term)) {
          counts.set(neighbour, (counts.get(neighbour) ?? 0) + TYPO_FACTOR);
        }
      }
    }
    const result: WeightedTerms = { ids: [], weights: [], total: 0 };
    for (const [id, count] of counts) {
      result.ids.push(id);
      const tf = count >= 1 ? 1 + Math.log(count) : count;
      result.weights.push(tf * idf(ruleCount, vocab.ruleDf[id] ?? 0));
    }
    normaliseWeights(result);
    return result;
  }

  /** Known words within one edit (two for long words) of an unknown query word. */
  private spellingNeighbours(word: string): number[] {
    const vocab = this.store.vocab;
    const limit = word.length <= 5 ? 1 : 2;
    const shared = new Map<number, number>();
    for (const gram of wordGrams(word)) {
      const gramId = vocab.gramId(gram);
      if (gramId === undefined) continue;
      const holders = vocab.wordsWithGram(gramId);
      if (holders.length > NEIGHBOUR_GRAM_LIMIT) continue;
      for (const id of holders) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
    const found: { id: number; distance: number; df: number }[] = [];
    for (const [id, count] of shared) {
      if (count < 2 || (vocab.ruleDf[id] ?? 0) === 0) continue;
      const distance = boundedEditDistance(word, vocab.term(id), limit);
      if (distance <= limit) found.push({ id, distance, df: vocab.ruleDf[id] ?? 0 });
    }
    found.sort((a, b) => a.distance - b.distance || b.df - a.df);
    return found.slice(0, 3).map((entry) => entry.id);
  }

  private queryGrams(terms: string[]): WeightedTerms {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    const counts = new Map<number, number>();
    for (const term of terms) {
      if (isHanTerm(term)) continue;
      // Unknown words still contribute their grams: that is what tolerates typos.
      const id = vocab.termId(term);
      const gramIds = id === undefined ? null : vocab.grams(id);
      if (gramIds !== null) {
        for (const gram of gramIds) counts.set(gram, (counts.get(gram) ?? 0) + 1);
      } else {
        for (const gram of wordGrams(term)) {
          const gramId = vocab.gramId(gram);
          if (gramId !== undefined) counts.set(gramId, (counts.get(gramId) ?? 0) + 1);
        }
      }
    }
    const result: WeightedTerms = { ids: [], weights: [], total: 0 };
    for (const [id, count] of counts) {
      const df = vocab.gramRuleDf[id] ?? 0;
      if (df === 0) continue;
      result.ids.push(id);
      result.weights.push((1 + Math.log(count)) * idf(ruleCount, df));
    }
    normaliseWeights(result);
    return result;
  }

  /** Stage 1: Naive Bayes over words from the posting lists; returns eligible rule slots. */
  private shortlist(words: WeightedTerms, nowMs: number): number[] {
    const store = this.store;
    const vocab = store.vocab;
    const slots = store.ruleIds.length;
    this.ruleAcc = ensureCapacity(this.ruleAcc, slots);
    this.ruleScore = ensureCapacity(this.ruleScore, slots);
    this.ruleSeen = ensureCapacity(this.ruleSeen, slots);
    const acc = this.ruleAcc;
    const score = this.ruleScore;
    const seen = this.ruleSeen;
    const touched: number[] = [];
    const order = words.ids.map((_, i) => i);
    order.sort(
      (a, b) =>
        (vocab.postingLength[words.ids[a] ?? 0] ?? 0) -
        (vocab.postingLength[words.ids[b] ?? 0] ?? 0),
    );
    let read = 0;
    const termTouched: number[] = [];
    for (const i of order) {
      const term = words.ids[i] ?? 0;
      const weight = words.weights[i] ?? 0;
      const length = vocab.postingLength[term] ?? 0;
      if (read > 0 && read + length > POSTINGS_BUDGET) break;
      read += length;
      const list = vocab.postings[term];
      if (list === undefined) continue;
      termTouched.length = 0;
      for (let k = 0; k < length; k += 1) {
        const phrasing = list[k] ?? 0;
        const slot = store.phrasingRule[phrasing] ?? -1;
        if (slot < 0) continue;
        if (acc[slot] === 0) termTouched.push(slot);
        acc[slot] = (acc[slot] ?? 0) + 1 / Math.sqrt(store.phrasingTermCount[phrasing] || 1);
      }
      for (const slot of termTouched) {
        if (seen[slot] === 0) {
          seen[slot] = 1;
          score[slot] = 0;
          touched.push(slot);
        }
        score[slot] = (score[slot] ?? 0) + weight * Math.log1p((acc[slot] ?? 0) / ALPHA);
        acc[slot] = 0;
      }
    }
    const smoothing = ALPHA * Math.max(vocab.liveTerms, 1);
    const heap = new TopK(SHORTLIST);
    for (const slot of touched) {
      seen[slot] = 0;
      if (!store.isEligible(slot, nowMs)) continue;
      const value =
        (score[slot] ?? 0) - words.total * Math.log((store.ruleMassWords[slot] ?? 0) + smoothing);
      heap.push(slot, value);
    }
    return heap.items();
  }

  /** Stage 2: exact Naive Bayes and cosine parts for one rule, from its forward lists. */
  private rescore(slot: number, words: WeightedTerms, grams: WeightedTerms): ScoredRule {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    this.termCentroid = ensureCapacity(this.termCentroid, vocab.termCount);
    this.gramCentroid = ensureCapacity(this.gramCentroid, vocab.gramCount);
    const termCentroid = this.termCentroid;
    const gramCentroid = this.gramCentroid;
    const termPos = this.termPos;
    const gramPos = this.gramPos;
    const nbWords = new Float64Array(words.ids.length);
    const nbGrams = new Float64Array(grams.ids.length);
    const touchedTerms: number[] = [];
    const touchedGrams: number[] = [];
    const forward = store.forward;
    const first = store.ruleFirstPhrasing[slot] ?? 0;
    const end = first + (store.rulePhrasingCount[slot] ?? 0);
    let best = first;
    let bestCos = -1;
    let bestWordCos = 0;
    let bestGramCos = 0;
    for (let p = first; p < end; p += 1) {
      const from = store.phrasingStart[p] ?? 0;
      const to = store.phrasingStart[p + 1] ?? 0;
      const termShare = 1 / Math.sqrt(store.phrasingTermCount[p] || 1);
      const gramShare = 1 / Math.sqrt(store.phrasingGramCount[p] || 1);
      let wordNorm = 0;
      let wordDot = 0;
      let gramNorm = 0;
      let gramDot = 0;
      for (let i = from; i < to; i += 1) {
        const term = forward[i] ?? 0;
        const w = idf(ruleCount, vocab.ruleDf[term] ?? 0);
        wordNorm += w * w;
        const pos = (termPos[term] ?? 0) - 1;
        if (pos >= 0) {
          wordDot += (words.weights[pos] ?? 0) * w;
          nbWords[pos] = (nbWords[pos] ?? 0) + termShare;
        }
        const gramIds = vocab.grams(term);
        for (let g = 0; g < gramIds.length; g += 1) {
          const gram = gramIds[g] ?? 0;
          const gw = idf(ruleCount, vocab.gramRuleDf[gram] ?? 0);
          gramNorm += gw * gw;
          const gp = (gramPos[gram] ?? 0) - 1;
          if (gp >= 0) {
            gramDot += (grams.weights[gp] ?? 0) * gw;
            nbGrams[gp] = (nbGrams[gp] ?? 0) + gramShare;
          }
        }
      }
      wordNorm = Math.sqrt(wordNorm) || 1;
      gramNorm = Math.sqrt(gramNorm) || 1;
      // Second pass: add the unit-length phrasing vectors to the rule's centroid.
      for (let i = from; i < to; i += 1) {
        const term = forward[i] ?? 0;
        if (termCentroid[term] === 0) touchedTerms.push(term);
        termCentroid[term] =
          (termCentroid[term] ?? 0) + idf(ruleCount, vocab.ruleDf[term] ?? 0) / wordNorm;
        const gramIds = vocab.grams(term);
        for (let g = 0; g < gramIds.length; g += 1) {
          const gram = gramIds[g] ?? 0;
          if (gramCentroid[gram] === 0) touchedGrams.push(gram);
          gramCentroid[gram] =
            (gramCentroid[gram] ?? 0) + idf(ruleCount, vocab.gramRuleDf[gram] ?? 0) / gramNorm;
        }
      }
      const wordCos = wordDot / wordNorm;
      const gramCos = gramDot / gramNorm;
      const combined = wordCos + GRAM_WEIGHT * gramCos;
      if (combined > bestCos) {
        bestCos = combined;
        best = p;
        bestWordCos = wordCos;
        bestGramCos = gramCos;
      }
    }
    const wordCentroidCos = centroidCosine(termCentroid, touchedTerms, words, termPos);
    const gramCentroidCos = centroidCosine(gramCentroid, touchedGrams, grams, gramPos);

    let nb = 0;
    let covered = 0;
    words.weights.forEach((w, i) => {
      const a = nbWords[i] ?? 0;
      nb += w * Math.log1p(a / ALPHA);
      if (a > 0) covered += w * w;
    });
    nb -= words.total * Math.log((store.ruleMassWords[slot] ?? 0) + ALPHA * vocab.liveTerms);
    let nbG = 0;
    grams.weights.forEach((w, i) => (nbG += w * Math.log1p((nbGrams[i] ?? 0) / ALPHA)));
    nbG -= grams.total * Math.log((store.ruleMassGrams[slot] ?? 0) + ALPHA * vocab.liveGrams);
    const naiveBayes = nb + GRAM_WEIGHT * nbG;
    const cosine =
      (1 - CENTROID_SHARE) * bestWordCos +
      CENTROID_SHARE * wordCentroidCos +
      GRAM_WEIGHT * ((1 - CENTROID_SHARE) * bestGramCos + CENTROID_SHARE * gramCentroidCos);
    const closestDenominator =
      (words.ids.length > 0 ? 1 : 0) + (grams.ids.length > 0 ? GRAM_WEIGHT : 0);
    return {
      slot,
      phrasing: best,
      exact: false,
      raw: naiveBayes + COSINE_WEIGHT * cosine,
      naiveBayes,
      cosine,
      closest: closestDenominator > 0 ? Math.max(0, bestCos) / closestDenominator : 0,
      coverage: covered,
    };
  }
}

/** Cosine of the query with a centroid held in `centroid` at `touched`; clears them. */
function centroidCosine(
  centroid: Float64Array,
  touched: number[],
  query: WeightedTerms,
  pos: Int32Array,
): number {
  let norm = 0;
  let dot = 0;
  for (const id of touched) {
    const value = centroid[id] ?? 0;
    norm += value * value;
    const p = (pos[id] ?? 0) - 1;
    if (p >= 0) dot += (query.weights[p] ?? 0) * value;
    centroid[id] = 0;
  }
  touched.length = 0;
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

/** Keeps the k best (slot, value) pairs with a small binary min-heap. */
class TopK {
  private readonly slots: number[] = [];
  private readonly values: number[] = [];

  constructor(private readonly k: number) {}

  push(slot: number, value: number): void {
    if (this.slots.length < this.k) {
      this.slots.push(slot);
      this.values.push(value);
      this.siftUp(this.slots.length - 1);
    } else if (value > (this.values[0] ?? -Infinity)) {
      this.slots[0] = slot;
      this.values[0] = value;
      this.siftDown(0);
    }
  }

  items(): number[] {
    return [...this.slots];
  }

  private swap(a: number, b: number): void {
    [this.slots[a], this.slots[b]] = [this.slots[b] ?? 0, this.slots[a] ?? 0];
    [this.values[a], this.values[b]] = [this.values[b] ?? 0, this.values[a] ?? 0];
  }

  private siftUp(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.values[parent] ?? 0) <= (this.values[i] ?? 0)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(index: number): void {
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.slots.length && (this.values[left] ?? 0) < (this.values[smallest] ?? 0)) {
        smallest = left;
      }
      if (right < this.slots.length && (this.values[right] ?? 0) < (this.values[smallest] ?? 0)) {
        smallest = right;
      }
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
