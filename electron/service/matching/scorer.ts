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
import { textTerms } from './features';
import { IdfTable } from './idf';
import { weighQuestionGrams, weighQuestionTerms } from './query-weights';
import type { WeightedTerms } from './query-weights';
import { NB_ALPHA } from './rule-store';
import type { RuleStore } from './rule-store';
import { RuleNorms } from './rule-norms';
import { TopK } from './top-k';
import { ensureCapacity } from './typed-arrays';

/** Weight of the character n-gram namespace next to the word namespace. */
const GRAM_WEIGHT = 0.5;
/** Weight of the Rocchio cosine part next to the Naive Bayes log-likelihoods. */
const COSINE_WEIGHT = 6;
/** Share of the centroid (vs the closest phrasing) in a rule's cosine similarity. */
const CENTROID_SHARE = 0.7;
/** Rules taken from stage 1 into stage 2. */
const SHORTLIST = 16;
/** Stage 1 stops reading posting lists after this many postings (terms go by weight). */
const POSTINGS_BUDGET = 20_000;
/** Rules whose stage-1 score is completed for the terms left unread. */
const COMPLETED = 64;

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
  /** The same over the question's content terms (frame words left out; frame-words.ts). */
  contentCoverage: number;
  /**
   * Share of the closest phrasing's idf weight (words) that the question contains, 0..1: how
   * much of what the phrasing says the question explains.
   */
  reverse: number;
  /**
   * The same for the rule's centroid (the sum of its unit phrasing vectors): how much of what
   * the rule's phrasings say, together, the question explains. Words every phrasing repeats
   * weigh most, so a question without them explains little of the rule.
   */
  coreReverse: number;
  /** Distinct content terms of the question found in the rule, and their share of its weight. */
  contentTerms: number;
  contentFound: number;
}

export interface ScoredQuestion {
  /** Scored rules, exact phrasings first, then by ranking score. */
  rules: ScoredRule[];
  /** Ranking score of an average rule that shares nothing with the question. */
  baseline: number;
  /** Distinct terms of the question (words and Han characters and bigrams), known or not. */
  termCount: number;
  /** Share of the question's weight in content terms no rule contains. */
  unknownContent: number;
}

/** Per-index scratch space, reused across questions so a match allocates almost nothing. */
export class Scorer {
  private termPos = new Int32Array(0);
  private gramPos = new Int32Array(0);
  private ruleScore = new Float64Array(0);
  private ruleSeen = new Int32Array(0);
  private seenStamp = 0;
  private ruleLogMass = new Float64Array(0);
  private logMassGeneration = -1;
  private unreadShare = new Float64Array(16);
  private touched = new Int32Array(0);
  /** Per-question-term evidence of the rule being rescored (reused: rescoring runs per rule). */
  private nbWords = new Float64Array(16);
  private nbGrams = new Float64Array(16);
  /** Per-question-term weight in the rule's centroid (for `coreReverse`). */
  private centroidWords = new Float64Array(16);
  private readonly idf = new IdfTable();
  private readonly norms: RuleNorms;

  /**
   * @param exhaustive read every posting list to the end (the reference the early-terminating
   * path is tested against).
   */
  constructor(
    private readonly store: RuleStore,
    private readonly exhaustive = false,
  ) {
    this.norms = new RuleNorms(store, this.idf);
  }

  /**
   * Scores the rules worth considering; exact phrasings come first with `exact` set.
   * `baseline` is the ranking score of an average rule that shares nothing with the question:
   * the lead of a lone candidate is measured against it rather than being unbounded.
   * `leaveOut` (a phrasing id) scores as if that phrasing were not in its rule: the self-test
   * asks each phrasing against the rest of the knowledge base (self-test.ts). Rule frequencies
   * still count it, a close enough approximation for calibration.
   */
  score(question: string, nowMs: number, leaveOut = -1): ScoredQuestion {
    const store = this.store;
    const vocab = store.vocab;
    const { key, words: questionWords, han } = textTerms(question);
    this.termPos = ensureCapacity(this.termPos, vocab.termCount);
    this.gramPos = ensureCapacity(this.gramPos, vocab.gramCount);
    const words = weighQuestionTerms(store, questionWords, han);
    const grams = weighQuestionGrams(store, questionWords);
    // Positions are stored plus one so that the zero-filled arrays mean "not in the question".
    words.ids.forEach((id, i) => (this.termPos[id] = i + 1));
    grams.ids.forEach((id, i) => (this.gramPos[id] = i + 1));

    const exactSlots = new Map<number, number>();
    for (const phrasing of store.exactPhrasings(key)) {
      if (phrasing === leaveOut) continue;
      const slot = store.phrasingRule[phrasing] ?? -1;
      if (slot >= 0 && store.isEligible(slot, nowMs) && !exactSlots.has(slot)) {
        exactSlots.set(slot, phrasing);
      }
    }
    const shortlist = this.shortlist(words, nowMs);
    for (const slot of exactSlots.keys()) if (!shortlist.includes(slot)) shortlist.push(slot);
    const scored: ScoredRule[] = [];
    for (const slot of shortlist) {
      const rule = this.rescore(slot, words, grams, leaveOut);
      const exactPhrasing = exactSlots.get(slot);
      if (exactPhrasing !== undefined) {
        rule.exact = true;
        rule.phrasing = exactPhrasing;
      }
      // A rule left without phrasings by `leaveOut` is not a candidate.
      if (rule.raw !== -Infinity) scored.push(rule);
    }
    for (const id of words.ids) this.termPos[id] = 0;
    for (const id of grams.ids) this.gramPos[id] = 0;
    scored.sort((a, b) => Number(b.exact) - Number(a.exact) || b.raw - a.raw);
    const rules = Math.max(store.size, 1);
    const baseline =
      -words.total * Math.log(store.totalMassWords / rules + NB_ALPHA * vocab.liveTerms) -
      GRAM_WEIGHT *
        grams.total *
        Math.log(store.totalMassGrams / rules + NB_ALPHA * Math.max(vocab.liveGrams, 1));
    const termCount = new Set(questionWords).size + new Set(han).size;
    return { rules: scored, baseline, termCount, unknownContent: words.unknownContent };
  }

  /**
   * Stage 1: the SHORTLIST eligible rules with the best Naive Bayes score over words.
   *
   * Term-at-a-time with early termination (Moffat & Zobel's "continue" strategy with MaxScore
   * bounds): terms are read in decreasing order of the most they can add to a rule. Reading
   * stops once the rules already seen hold SHORTLIST scores that no unseen rule can reach even
   * with every remaining term, or once POSTINGS_BUDGET postings were read (only very common
   * terms are then left). The unread terms' share is added exactly, from the forward lists, to
   * the COMPLETED best rules so far. The shortlist is therefore close to, not always equal to,
   * the one reading every list would give; stage 2 then scores every term of it exactly.
   * At 100k rules this reads a few thousand postings per question instead of tens of thousands.
   */
  private shortlist(words: WeightedTerms, nowMs: number): number[] {
    const store = this.store;
    const vocab = store.vocab;
    const lists = vocab.postings;
    const slots = store.slotCount;
    this.ruleScore = ensureCapacity(this.ruleScore, slots);
    this.ruleSeen = ensureCapacity(this.ruleSeen, slots);
    this.touched = ensureCapacity(this.touched, slots);
    this.refreshLogMass();
    const score = this.ruleScore;
    const seen = this.ruleSeen;
    const logMass = this.ruleLogMass;
    const total = words.total;
    // A stamp per call instead of clearing `seen` for every touched rule afterwards.
    this.seenStamp += 1;
    const stamp = this.seenStamp;
    const termCount = words.ids.length;
    const bound = new Float64Array(termCount);
    for (let i = 0; i < termCount; i += 1) {
      bound[i] = (words.weights[i] ?? 0) * (lists.max[words.ids[i] ?? 0] ?? 0);
    }
    const order = Array.from({ length: termCount }, (_, i) => i);
    order.sort((a, b) => (bound[b] ?? 0) - (bound[a] ?? 0));
    // What the terms from position j on can add to any rule, at most.
    const rest = new Float64Array(termCount + 1);
    for (let j = termCount - 1; j >= 0; j -= 1) {
      rest[j] = (rest[j + 1] ?? 0) + (bound[order[j] ?? 0] ?? 0);
    }
    const touched = this.touched;
    let touchedCount = 0;
    let best = 0;
    let read = termCount;
    let postingsRead = 0;
    for (let j = 0; j < termCount; j += 1) {
      const i = order[j] ?? 0;
      const term = words.ids[i] ?? 0;
      const weight = words.weights[i] ?? 0;
      const length = lists.length[term] ?? 0;
      // An empty list's chunk may not exist; the loop below then reads nothing.
      const chunk = lists.chunk[term] ?? 0;
      const list = lists.slotChunks[chunk] as Int32Array;
      const evidence = lists.weightChunks[chunk] as Float32Array;
      const from = lists.start[term] ?? 0;
      if (!this.exhaustive && postingsRead > 0 && postingsRead + length > POSTINGS_BUDGET) {
        read = j;
        break;
      }
      postingsRead += length;
      for (let k = from; k < from + length; k += 1) {
        const slot = list[k] as number;
        if (slot < 0) continue;
        let value = weight * (evidence[k] as number);
        if (seen[slot] !== stamp) {
          seen[slot] = stamp;
          touched[touchedCount] = slot;
          touchedCount += 1;
        } else {
          value += score[slot] as number;
        }
        score[slot] = value;
        if (value > best) best = value;
      }
      // Rules' length terms differ little, so an unseen rule can be ruled out only when the best
      // sum so far already exceeds what the rest could add: test that before the costlier check.
      const restBound = rest[j + 1] ?? 0;
      if (!this.exhaustive && j + 1 < termCount && touchedCount >= SHORTLIST && best > restBound) {
        const floor = total * Math.log(NB_ALPHA * Math.max(vocab.liveTerms, 1));
        if (this.kthBest(touchedCount, nowMs, total) >= restBound - floor) {
          read = j + 1;
          break;
        }
      }
    }
    const heap = new TopK(read === termCount ? SHORTLIST : COMPLETED);
    for (let t = 0; t < touchedCount; t += 1) {
      const slot = touched[t] as number;
      const value = (score[slot] as number) - total * (logMass[slot] as number);
      if (heap.wouldTake(value) && store.isEligible(slot, nowMs)) heap.push(slot, value);
    }
    if (read === termCount) return heap.items();
    // The unread terms (by position in the question) complete the best partial scores.
    const unread = order.slice(read);
    const completed = new TopK(SHORTLIST);
    for (const slot of heap.items()) {
      const partial = (score[slot] as number) - total * (logMass[slot] as number);
      completed.push(slot, partial + this.unreadEvidence(slot, words, unread));
    }
    return completed.items();
  }

  /** The SHORTLIST-th best partial stage-1 score among eligible touched rules. */
  private kthBest(count: number, nowMs: number, total: number): number {
    const heap = new TopK(SHORTLIST);
    const score = this.ruleScore;
    const logMass = this.ruleLogMass;
    const touched = this.touched;
    for (let t = 0; t < count; t += 1) {
      const slot = touched[t] as number;
      const value = (score[slot] as number) - total * (logMass[slot] as number);
      if (heap.wouldTake(value) && this.store.isEligible(slot, nowMs)) heap.push(slot, value);
    }
    return heap.size < SHORTLIST ? -Infinity : heap.min;
  }

  /** What the question terms at positions `unread` add to a rule's stage-1 score, exactly. */
  private unreadEvidence(slot: number, words: WeightedTerms, unread: readonly number[]): number {
    const store = this.store;
    const termPos = this.termPos;
    this.unreadShare = ensureCapacity(this.unreadShare, words.ids.length);
    const shares = this.unreadShare;
    const first = store.ruleFirstPhrasing[slot] ?? 0;
    const end = first + (store.rulePhrasingCount[slot] ?? 0);
    for (const i of unread) shares[i] = 0;
    const forward = store.forward;
    for (let p = first; p < end; p += 1) {
      const weight = 1 / Math.sqrt(store.phrasingTermCount[p] || 1);
      const to = store.phrasingStart[p + 1] ?? 0;
      for (let f = store.phrasingStart[p] ?? 0; f < to; f += 1) {
        const pos = (termPos[forward[f] ?? 0] ?? 0) - 1;
        if (pos >= 0) shares[pos] = (shares[pos] ?? 0) + weight;
      }
    }
    let value = 0;
    for (const i of unread)
      value += (words.weights[i] ?? 0) * Math.log1p((shares[i] ?? 0) / NB_ALPHA);
    return value;
  }

  /**
   * log(rule word mass + α·V), the Naive Bayes length term of every rule. V (the live
   * vocabulary) changes with every write, so the table is recomputed on the first question after
   * a write (one pass over the rules).
   */
  private refreshLogMass(): void {
    const store = this.store;
    const slots = store.slotCount;
    if (this.logMassGeneration === store.generation && this.ruleLogMass.length >= slots) return;
    this.ruleLogMass = ensureCapacity(this.ruleLogMass, slots);
    const smoothing = NB_ALPHA * Math.max(store.vocab.liveTerms, 1);
    const mass = store.ruleMassWords;
    for (let slot = 0; slot < slots; slot += 1) {
      this.ruleLogMass[slot] = Math.log((mass[slot] ?? 0) + smoothing);
    }
    this.logMassGeneration = store.generation;
  }

  private logMass(slot: number): number {
    this.refreshLogMass();
    return this.ruleLogMass[slot] ?? 0;
  }

  /**
   * Stage 2: exact Naive Bayes and cosine parts for one rule, from its forward lists. A centroid
   * is a sum of unit phrasing vectors, so its dot product with the question is the sum of the
   * phrasings' normalised dot products: no centroid is built per question.
   */
  private rescore(
    slot: number,
    words: WeightedTerms,
    grams: WeightedTerms,
    leaveOut: number,
  ): ScoredRule {
    const store = this.store;
    const vocab = store.vocab;
    const ruleCount = Math.max(store.size, 1);
    const norms = this.norms;
    norms.ensure(slot);
    const termPos = this.termPos;
    const gramPos = this.gramPos;
    if (this.nbWords.length < words.ids.length) this.nbWords = new Float64Array(words.ids.length);
    if (this.nbGrams.length < grams.ids.length) this.nbGrams = new Float64Array(grams.ids.length);
    const nbWords = this.nbWords.fill(0, 0, words.ids.length);
    const nbGrams = this.nbGrams.fill(0, 0, grams.ids.length);
    if (this.centroidWords.length < words.ids.length)
      this.centroidWords = new Float64Array(words.ids.length);
    const centroidWords = this.centroidWords.fill(0, 0, words.ids.length);
    const forward = store.forward;
    const first = store.ruleFirstPhrasing[slot] ?? 0;
    const end = first + (store.rulePhrasingCount[slot] ?? 0);
    let best = first;
    let bestCos = -1;
    let bestWordCos = 0;
    let bestGramCos = 0;
    let bestReverse = 0;
    let centroidWordDot = 0;
    let centroidGramDot = 0;
    const leavingOut = leaveOut >= first && leaveOut < end;
    if (leavingOut && end - first === 1) return emptyRule(slot);
    for (let p = first; p < end; p += 1) {
      if (p === leaveOut) continue;
      const from = store.phrasingStart[p] ?? 0;
      const to = store.phrasingStart[p + 1] ?? 0;
      const termShare = 1 / Math.sqrt(store.phrasingTermCount[p] || 1);
      const unitShare = 1 / (norms.phrasingWordNorm[p] || 1);
      const gramShare = 1 / Math.sqrt(store.phrasingGramCount[p] || 1);
      let wordDot = 0;
      let gramDot = 0;
      let explained = 0;
      for (let i = from; i < to; i += 1) {
        const term = forward[i] ?? 0;
        const pos = (termPos[term] ?? 0) - 1;
        if (pos >= 0) {
          const termIdf = this.idf.get(ruleCount, vocab.ruleDf[term] ?? 0);
          wordDot += (words.weights[pos] ?? 0) * termIdf;
          explained += termIdf * termIdf;
          centroidWords[pos] = (centroidWords[pos] ?? 0) + termIdf * unitShare;
          nbWords[pos] = (nbWords[pos] ?? 0) + termShare;
        }
        const gramIds = vocab.grams(term);
        for (let g = 0; g < gramIds.length; g += 1) {
          const gram = gramIds[g] ?? 0;
          const gp = (gramPos[gram] ?? 0) - 1;
          if (gp >= 0) {
            gramDot +=
              (grams.weights[gp] ?? 0) * this.idf.get(ruleCount, vocab.gramRuleDf[gram] ?? 0);
            nbGrams[gp] = (nbGrams[gp] ?? 0) + gramShare;
          }
        }
      }
      const wordCos = wordDot / (norms.phrasingWordNorm[p] || 1);
      const gramCos = gramDot / (norms.phrasingGramNorm[p] || 1);
      centroidWordDot += wordCos;
      centroidGramDot += gramCos;
      const combined = wordCos + GRAM_WEIGHT * gramCos;
      if (combined > bestCos) {
        bestCos = combined;
        best = p;
        bestWordCos = wordCos;
        bestGramCos = gramCos;
        bestReverse = explained / (norms.phrasingWordNorm[p] || 1) ** 2;
      }
    }
    const [wordNorm, gramNorm] = leavingOut
      ? norms.centroidNorms(slot, leaveOut)
      : [norms.ruleCentroidWordNorm[slot] ?? 0, norms.ruleCentroidGramNorm[slot] ?? 0];
    const wordCentroidCos = wordNorm > 0 ? centroidWordDot / wordNorm : 0;
    let centroidExplained = 0;
    for (let i = 0; i < words.ids.length; i += 1) centroidExplained += (centroidWords[i] ?? 0) ** 2;
    const gramCentroidCos = gramNorm > 0 ? centroidGramDot / gramNorm : 0;

    let nb = 0;
    let covered = 0;
    let content = words.unknownContent;
    let contentCovered = 0;
    let contentTerms = 0;
    for (let i = 0; i < words.weights.length; i += 1) {
      const w = words.weights[i] ?? 0;
      const a = nbWords[i] ?? 0;
      nb += w * Math.log1p(a / NB_ALPHA);
      if (a > 0) covered += w * w;
      if (words.frame[i] !== true) {
        content += w * w;
        if (a > 0) {
          contentCovered += w * w;
          contentTerms += 1;
        }
      }
    }
    let gramMass = store.ruleMassGrams[slot] ?? 0;
    if (leavingOut) {
      const wordMass =
        (store.ruleMassWords[slot] ?? 0) - Math.sqrt(store.phrasingTermCount[leaveOut] ?? 0);
      nb -= words.total * Math.log(wordMass + NB_ALPHA * Math.max(vocab.liveTerms, 1));
      gramMass -= Math.sqrt(store.phrasingGramCount[leaveOut] ?? 0);
    } else {
      nb -= words.total * this.logMass(slot);
    }
    let nbG = 0;
    for (let i = 0; i < grams.weights.length; i += 1) {
      nbG += (grams.weights[i] ?? 0) * Math.log1p((nbGrams[i] ?? 0) / NB_ALPHA);
    }
    nbG -= grams.total * Math.log(gramMass + NB_ALPHA * Math.max(vocab.liveGrams, 1));
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
      // A question of frame words only ("how do I"): its coverage is all there is.
      contentCoverage: content > 0 ? contentCovered / content : covered,
      reverse: Math.min(1, bestReverse),
      coreReverse: wordNorm > 0 ? Math.min(1, centroidExplained / (wordNorm * wordNorm)) : 0,
      contentTerms,
      contentFound: contentCovered,
    };
  }
}

/** A rule with nothing left to match (its one phrasing left out). */
function emptyRule(slot: number): ScoredRule {
  return {
    slot,
    phrasing: -1,
    exact: false,
    raw: -Infinity,
    naiveBayes: -Infinity,
    cosine: 0,
    closest: 0,
    coverage: 0,
    contentCoverage: 0,
    reverse: 0,
    coreReverse: 0,
    contentTerms: 0,
    contentFound: 0,
  };
}
