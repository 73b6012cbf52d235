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
import type { TextTerms } from './han-terms';
import { IdfTable } from './idf';
import { QueryWeigher } from './query-weights';
import type { WeightedTerms } from './query-weights';
import type { WeightCodes } from './posting-lists';
import { NB_ALPHA } from './rule-store';
import type { RuleStore } from './rule-store';
import { RuleNorms } from './rule-norms';
import { TermCursor } from './term-bytes';
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
  /** The question as `normalizeText` gives it (the explanation's fuzzy score reads it). */
  key: string;
}

/**
 * Per-index scratch space, reused across questions: a match allocates little beyond its
 * result (the scored rules). Every number is computed by the same operations in the same order
 * as the straightforward code it replaced (tests/bench/ranking-digest.ts compares every score
 * part of every answer between builds): the rankings, down to the order of tied rules, must not
 * move.
 */
export class Scorer {
  private readonly weigher: QueryWeigher;
  // Stage 1.
  private order = new Int32Array(16);
  /** Reads the forward lists (no loop that uses it calls another that does). */
  private readonly cursor = new TermCursor();
  private bound = new Float64Array(16);
  private rest = new Float64Array(17);
  /**
   * Per slot: log(rule word mass + α·V) when the rule is eligible at `logMassNow`, NaN when not
   * (decision 164): stage 1 reads it once per touched rule, so eligibility costs no reads of
   * the rules' flags and windows. Valid for the store's generation it was filled at and, within
   * it, while no rule's window opens or closes (`logMassAfter` < now < `logMassBefore`).
   */
  private ruleLogMass = new Float64Array(0);
  private logMassGeneration = -1;
  private logMassNow = Number.NaN;
  private logMassAfter = 0;
  private logMassBefore = 0;
  /** The least of `ruleLogMass` (+Infinity when no rule is eligible): bounds every score. */
  private leastLogMass = Number.POSITIVE_INFINITY;
  private unreadShare = new Float64Array(16);
  private where = new Int32Array(0);
  private touched = new Int32Array(0);
  private touchedScore = new Float64Array(0);
  private readonly heap = new TopK(COMPLETED);
  private readonly completed = new TopK(SHORTLIST);
  /** The shortlist of the question being scored (then its exact phrasings' rules). */
  private listed = new Int32Array(SHORTLIST + 4);
  // Stage 2: per-question-term evidence of the rule being rescored.
  private nbWords = new Float64Array(16);
  private nbGrams = new Float64Array(16);
  /** Per-question-term weight in the rule's centroid (for `coreReverse`). */
  private centroidWords = new Float64Array(16);
  /**
   * Per term id met while rescoring this question: the positions, in the question's gram
   * vector, of the term's grams that the question has (in the term's gram order), kept in
   * `matchedGrams` from `matchedFrom` to `matchedTo`. A phrasing term's grams are then read
   * once per question, not once per phrasing.
   */
  private matchedStamp = new Int32Array(0);
  private matchedFrom = new Int32Array(0);
  private matchedTo = new Int32Array(0);
  private matchedGrams = new Int32Array(256);
  private matchedLength = 0;
  private questionStamp = 0;
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
    this.weigher = new QueryWeigher(store);
  }

  /**
   * Scores the rules worth considering; exact phrasings come first with `exact` set.
   * `baseline` is the ranking score of an average rule that shares nothing with the question:
   * the lead of a lone candidate is measured against it rather than being unbounded.
   * `leaveOut` (a phrasing id) scores as if that phrasing were not in its rule: the self-test
   * asks each phrasing against the rest of the knowledge base (self-test.ts). Rule frequencies
   * still count it, a close enough approximation for calibration.
   */
  score(question: string | TextTerms, nowMs: number, leaveOut = -1): ScoredQuestion {
    const store = this.store;
    const vocab = store.vocab;
    // Its terms, when the caller has them already (read once for an exact lookup and here).
    const terms = typeof question === 'string' ? textTerms(question) : question;
    const { key, words: questionWords, han } = terms;
    const weigher = this.weigher;
    weigher.weigh(questionWords, han);
    const words = weigher.words;
    const grams = weigher.grams;

    const { exactSlots, exactPhrasings } = this.exactOf(key, nowMs, leaveOut);
    let count = this.shortlist(words, nowMs);
    for (const slot of exactSlots) {
      if (this.listed.subarray(0, count).includes(slot)) continue;
      this.listed = ensureCapacity(this.listed, count + 1);
      this.listed[count] = slot;
      count += 1;
    }
    this.questionStamp += 1;
    this.matchedLength = 0;
    const scored: ScoredRule[] = [];
    for (let i = 0; i < count; i += 1) {
      const slot = this.listed[i] as number;
      const rule = this.rescore(slot, words, grams, leaveOut);
      const exact = exactSlots.indexOf(slot);
      if (exact >= 0) {
        rule.exact = true;
        rule.phrasing = exactPhrasings[exact] as number;
      }
      // A rule left without phrasings by `leaveOut` is not a candidate.
      if (rule.raw !== -Infinity) scored.push(rule);
    }
    weigher.clear();
    scored.sort((a, b) => Number(b.exact) - Number(a.exact) || b.raw - a.raw);
    const rules = Math.max(store.size, 1);
    const baseline =
      -words.total * Math.log(store.totalMassWords / rules + NB_ALPHA * vocab.liveTerms) -
      GRAM_WEIGHT *
        grams.total *
        Math.log(store.totalMassGrams / rules + NB_ALPHA * Math.max(vocab.liveGrams, 1));
    const termCount = distinctCount(questionWords) + distinctCount(han);
    return { rules: scored, baseline, termCount, unknownContent: words.unknownContent, key };
  }

  /**
   * Stage 2 alone, for the rules in `slots` that are eligible at `nowMs` (the others are left
   * out): each scored exactly as `score` scores it when it is listed, with the question's
   * `baseline`, `termCount` and `unknownContent` as `score` gives them. `exact` marks a rule with
   * an eligible phrasing equal to the question. `exactRules`: the eligible rules of the whole
   * index with such a phrasing; `listedAtMost`: the most rules `score` lists before them.
   * `wordless` false: a rule sharing no word with the question (none of `rescore`'s word
   * parts found: its `reverse` and `coreReverse` are 0) is left out, unscored. For a
   * bound on what the rules could score (the impact preview's, decision 116); additive, the
   * ranking path does not use it.
   */
  scoreSlots(
    question: string,
    slots: readonly number[],
    nowMs: number,
    wordless = true,
  ): ScoredQuestion & { exactRules: number; listedAtMost: number } {
    const store = this.store;
    const { key, words: questionWords, han } = textTerms(question);
    const weigher = this.weigher;
    weigher.weigh(questionWords, han);
    const words = weigher.words;
    const grams = weigher.grams;
    const { exactSlots, exactPhrasings } = this.exactOf(key, nowMs);
    this.questionStamp += 1;
    this.matchedLength = 0;
    const scored: ScoredRule[] = [];
    for (const slot of slots) {
      if (!store.isLive(slot) || !store.isEligible(slot, nowMs)) continue;
      const exact = exactSlots.indexOf(slot);
      if (!wordless && exact < 0 && !this.sharesWord(slot)) continue;
      const rule = this.rescore(slot, words, grams, -1);
      if (exact >= 0) {
        rule.exact = true;
        rule.phrasing = exactPhrasings[exact] as number;
      }
      scored.push(rule);
    }
    const rules = Math.max(store.size, 1);
    const baseline =
      -words.total * Math.log(store.totalMassWords / rules + NB_ALPHA * store.vocab.liveTerms) -
      GRAM_WEIGHT *
        grams.total *
        Math.log(store.totalMassGrams / rules + NB_ALPHA * Math.max(store.vocab.liveGrams, 1));
    const unknownContent = words.unknownContent;
    weigher.clear();
    const termCount = distinctCount(questionWords) + distinctCount(han);
    return {
      rules: scored,
      baseline,
      termCount,
      unknownContent,
      key,
      exactRules: exactSlots.length,
      listedAtMost: SHORTLIST,
    };
  }

  /** Whether a phrasing of the rule in `slot` holds a word of the question being weighed. */
  private sharesWord(slot: number): boolean {
    const store = this.store;
    const termPos = this.weigher.termPos;
    const first = store.ruleFirstPhrasing[slot] ?? 0;
    const from = store.phrasingStart[first] as number;
    const to = store.phrasingStart[first + (store.rulePhrasingCount[slot] ?? 0)] as number;
    const cursor = this.cursor;
    cursor.reset(store.forward, from);
    while (cursor.at < to) {
      if ((termPos[cursor.next()] as number) > 0) return true;
    }
    return false;
  }

  /**
   * The first live, eligible phrasing equal to the question (by its `key`), per rule, in chain
   * order, `leaveOut` skipped: the rules a question names exactly.
   */
  private exactOf(
    key: string,
    nowMs: number,
    leaveOut = -1,
  ): { exactSlots: number[]; exactPhrasings: number[] } {
    const store = this.store;
    const exactSlots: number[] = [];
    const exactPhrasings: number[] = [];
    for (const phrasing of store.exactPhrasings(key)) {
      if (phrasing === leaveOut) continue;
      const slot = store.phrasingRule[phrasing] ?? -1;
      if (slot >= 0 && store.isEligible(slot, nowMs) && !exactSlots.includes(slot)) {
        exactSlots.push(slot);
        exactPhrasings.push(phrasing);
      }
    }
    return { exactSlots, exactPhrasings };
  }

  /**
   * Stage 1: the SHORTLIST eligible rules with the best Naive Bayes score over words, written
   * to `listed`; returns how many.
   *
   * Term-at-a-time with early termination (Moffat & Zobel's "continue" strategy with MaxScore
   * bounds): terms are read in decreasing order of the most they can add to a rule. Reading
   * stops once the rules already seen hold SHORTLIST scores that no unseen rule can reach even
   * with every remaining term, or once POSTINGS_BUDGET postings were read (only very common
   * terms are then left). The unread terms' share is added exactly, from the forward lists, to
   * the COMPLETED best rules so far. The shortlist is therefore close to, not always equal to,
   * the one reading every list would give (on the medical development sets, reading every list
   * would change a few P@1 and R@3 answers: the budget and the completion are part of the
   * ranking); stage 2 then scores every term of it exactly. At 100k rules this reads a few
   * thousand postings per question instead of tens of thousands.
   */
  private shortlist(words: WeightedTerms, nowMs: number): number {
    const store = this.store;
    const vocab = store.vocab;
    const lists = vocab.postings;
    const slots = store.slotCount;
    this.where = ensureCapacity(this.where, slots);
    this.touched = ensureCapacity(this.touched, slots);
    this.touchedScore = ensureCapacity(this.touchedScore, slots);
    this.refreshLogMass(nowMs);
    const where = this.where;
    const touched = this.touched;
    const touchedScore = this.touchedScore;
    const logMass = this.ruleLogMass;
    const leastLogMass = this.leastLogMass;
    const total = words.total;
    const termCount = words.length;
    const ids = words.ids;
    const weights = words.weights;
    this.bound = ensureCapacity(this.bound, termCount);
    this.order = ensureCapacity(this.order, termCount);
    this.rest = ensureCapacity(this.rest, termCount + 1);
    const bound = this.bound;
    const order = this.order;
    const rest = this.rest;
    const max = lists.max;
    for (let i = 0; i < termCount; i += 1) {
      bound[i] = (weights[i] as number) * (max[ids[i] as number] as number);
      // Decreasing bound, ties in question order (a stable insertion sort).
      let j = i;
      while (j > 0 && (bound[order[j - 1] as number] as number) < (bound[i] as number)) {
        order[j] = order[j - 1] as number;
        j -= 1;
      }
      order[j] = i;
    }
    // What the terms from position j on can add to any rule, at most.
    rest[termCount] = 0;
    for (let j = termCount - 1; j >= 0; j -= 1) {
      rest[j] = (rest[j + 1] as number) + (bound[order[j] as number] as number);
    }
    const slotChunks = lists.slotChunks;
    const weightChunks = lists.weightChunks;
    const weightTable = lists.weightTable;
    // Rules touched, in the order first met, with their partial scores beside them: `where`
    // maps a slot to its place (valid when that place holds the slot: no clearing between
    // questions), and the passes over the touched rules below read memory in order.
    let touchedCount = 0;
    let best = 0;
    let read = termCount;
    let postingsRead = 0;
    for (let j = 0; j < termCount; j += 1) {
      const i = order[j] as number;
      const term = ids[i] as number;
      const weight = weights[i] as number;
      const length = lists.length[term] as number;
      if (!this.exhaustive && postingsRead > 0 && postingsRead + length > POSTINGS_BUDGET) {
        read = j;
        break;
      }
      postingsRead += length;
      if (length > 0) {
        const chunk = lists.chunk[term] as number;
        const list = slotChunks[chunk] as Int32Array;
        const codes = weightChunks[chunk] as WeightCodes;
        const from = lists.start[term] as number;
        const to = from + length;
        for (let k = from; k < to; k += 1) {
          const slot = list[k] as number;
          if (slot < 0) continue;
          let value = weight * (weightTable[codes[k] as number] as number);
          const at = where[slot] as number;
          if (at < touchedCount && touched[at] === slot) {
            value += touchedScore[at] as number;
            touchedScore[at] = value;
          } else {
            where[slot] = touchedCount;
            touched[touchedCount] = slot;
            touchedScore[touchedCount] = value;
            touchedCount += 1;
          }
          if (value > best) best = value;
        }
      }
      // Rules' length terms differ little, so an unseen rule can be ruled out only when the best
      // sum so far already exceeds what the rest could add: test that before the costlier check.
      const restBound = rest[j + 1] as number;
      if (!this.exhaustive && j + 1 < termCount && touchedCount >= SHORTLIST && best > restBound) {
        const floor = total * Math.log(NB_ALPHA * Math.max(vocab.liveTerms, 1));
        // No unseen rule can enter once SHORTLIST seen ones score at least this (the SHORTLIST-th
        // best score reaches it exactly when that many scores do).
        const needed = restBound - floor;
        let reaching = 0;
        for (let t = 0; t < touchedCount; t += 1) {
          // A rule's length term is read only when its score could reach: most touched rules
          // share one common term, and that read is a cache miss (decision 164).
          if (!((touchedScore[t] as number) - total * leastLogMass >= needed)) continue;
          const value =
            (touchedScore[t] as number) - total * (logMass[touched[t] as number] as number);
          // NaN (a rule not eligible now) is never >= needed.
          if (value >= needed) {
            reaching += 1;
            if (reaching >= SHORTLIST) break;
          }
        }
        if (reaching >= SHORTLIST) {
          read = j + 1;
          break;
        }
      }
    }
    const heap = this.heap;
    heap.reset(read === termCount ? SHORTLIST : COMPLETED);
    for (let t = 0; t < touchedCount; t += 1) {
      // At most its score with the least length term: a rule that could not enter even so is
      // not looked up (a push that would change nothing).
      if (!heap.wouldTake((touchedScore[t] as number) - total * leastLogMass)) continue;
      const slot = touched[t] as number;
      const value = (touchedScore[t] as number) - total * (logMass[slot] as number);
      // value === value: not NaN, the rule is eligible now.
      if (value === value && heap.wouldTake(value)) heap.push(slot, value);
    }
    if (read === termCount) return this.list(heap);
    // The unread terms (by position in the question) complete the best partial scores.
    const completed = this.completed;
    completed.reset(SHORTLIST);
    this.unreadShare = ensureCapacity(this.unreadShare, termCount);
    let filter = 0;
    for (let j = read; j < termCount; j += 1)
      filter |= 1 << ((ids[order[j] as number] as number) & 31);
    // What the unread terms add to any rule, at most: their bounds are the largest weights
    // ever posted (float32, within 2^-24 of the exact evidence), widened by a millionth. A rule
    // whose partial score plus that cannot beat the heap's least is not computed: its push
    // would change nothing.
    const unreadBound = (rest[read] as number) * (1 + 1e-6);
    for (let h = 0; h < heap.size; h += 1) {
      const slot = heap.slotAt(h);
      const at = where[slot] as number;
      const partial = (touchedScore[at] as number) - total * (logMass[slot] as number);
      if (completed.size >= SHORTLIST && partial + unreadBound <= completed.min) continue;
      completed.push(slot, partial + this.unreadEvidence(slot, words, read, filter));
    }
    return this.list(completed);
  }

  /** Copies a heap's slots (in heap order) to `listed`; returns how many. */
  private list(heap: TopK): number {
    this.listed = ensureCapacity(this.listed, heap.size);
    for (let h = 0; h < heap.size; h += 1) this.listed[h] = heap.slotAt(h);
    return heap.size;
  }

  /**
   * What the question terms at positions `order[read..]` (the unread ones) add to a rule's
   * stage-1 score, exactly. `filter` has bit (id & 31) set for every unread term id: most
   * forward entries are ruled out by it without reading the position table.
   */
  private unreadEvidence(slot: number, words: WeightedTerms, read: number, filter: number): number {
    const store = this.store;
    const termPos = this.weigher.termPos;
    const order = this.order;
    const termCount = words.length;
    const shares = this.unreadShare;
    const first = store.ruleFirstPhrasing[slot] as number;
    const end = first + (store.rulePhrasingCount[slot] as number);
    for (let j = read; j < termCount; j += 1) shares[order[j] as number] = 0;
    const cursor = this.cursor;
    const forward = store.forward;
    const phrasingStart = store.phrasingStart;
    const phrasingTermCount = store.phrasingTermCount;
    for (let p = first; p < end; p += 1) {
      const weight = 1 / Math.sqrt(phrasingTermCount[p] || 1);
      const to = phrasingStart[p + 1] as number;
      cursor.reset(forward, phrasingStart[p] as number);
      while (cursor.at < to) {
        const term = cursor.next();
        if (((filter >>> (term & 31)) & 1) === 0) continue;
        // Read terms add to their own (unused) shares, as before: only unread ones are summed.
        const pos = (termPos[term] as number) - 1;
        if (pos >= 0) shares[pos] = (shares[pos] as number) + weight;
      }
    }
    let value = 0;
    // Words of one phrasing only (a template's) have equal shares: as in `rescore`, an equal
    // share reuses the last logarithm.
    let lastShare = 0;
    let lastLog = 0;
    const weights = words.weights;
    for (let j = read; j < termCount; j += 1) {
      const i = order[j] as number;
      const share = shares[i] as number;
      if (share > 0) {
        if (share !== lastShare) {
          lastShare = share;
          lastLog = Math.log1p(share / NB_ALPHA);
        }
        value += (weights[i] as number) * lastLog;
      }
    }
    return value;
  }

  /**
   * log(rule word mass + α·V), the Naive Bayes length term of every rule, NaN for a rule not
   * eligible at `nowMs`. V (the live vocabulary) changes with every write, so the table is
   * recomputed on the first question after a write (one pass over the rules), and after one
   * that comes once a rule's window opened or closed.
   */
  private refreshLogMass(nowMs: number): void {
    const store = this.store;
    const slots = store.slotCount;
    if (
      this.logMassGeneration === store.generation &&
      this.ruleLogMass.length >= slots &&
      (nowMs === this.logMassNow || (this.logMassAfter < nowMs && nowMs < this.logMassBefore))
    ) {
      return;
    }
    this.ruleLogMass = ensureCapacity(this.ruleLogMass, slots);
    const smoothing = NB_ALPHA * Math.max(store.vocab.liveTerms, 1);
    const mass = store.ruleMassWords;
    const active = store.ruleActive;
    const begin = store.ruleBegin;
    const end = store.ruleEnd;
    let least = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < slots; slot += 1) {
      const eligible =
        active[slot] === 1 &&
        !(nowMs < (begin[slot] as number)) &&
        !(nowMs > (end[slot] as number));
      const value = eligible ? Math.log((mass[slot] ?? 0) + smoothing) : Number.NaN;
      this.ruleLogMass[slot] = value;
      if (value < least) least = value;
    }
    this.leastLogMass = least;
    const window = store.eligibilityWindow(nowMs);
    this.logMassGeneration = store.generation;
    this.logMassNow = nowMs;
    this.logMassAfter = window.after;
    this.logMassBefore = window.before;
  }

  /** The length term of the rule in `slot`, eligible or not (the same number as the table's). */
  private logMass(slot: number): number {
    const smoothing = NB_ALPHA * Math.max(this.store.vocab.liveTerms, 1);
    return Math.log((this.store.ruleMassWords[slot] ?? 0) + smoothing);
  }

  /**
   * The positions in the question's gram vector of the grams of `term` that the question has,
   * in the term's gram order, as a range of `matchedGrams` (set in `matchedFrom`/`matchedTo`).
   */
  private matchTermGrams(term: number, gramPos: Int32Array): void {
    if (this.matchedStamp[term] === this.questionStamp) return;
    const vocab = this.store.vocab;
    const gramTable = vocab.gramTable;
    const offsets = vocab.gramTableOffsets;
    const from = this.matchedLength;
    const gramTo = offsets[term + 1] as number;
    let at = from;
    for (let g = offsets[term] as number; g < gramTo; g += 1) {
      const gp = (gramPos[gramTable[g] as number] as number) - 1;
      if (gp < 0) continue;
      this.matchedGrams = ensureCapacity(this.matchedGrams, at + 1);
      this.matchedGrams[at] = gp;
      at += 1;
    }
    this.matchedLength = at;
    this.matchedStamp[term] = this.questionStamp;
    this.matchedFrom[term] = from;
    this.matchedTo[term] = at;
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
    const norms = this.norms;
    norms.ensure(slot);
    const termPos = this.weigher.termPos;
    const gramPos = this.weigher.gramPos;
    const termCount = vocab.termCount;
    if (this.matchedStamp.length < termCount) {
      this.matchedStamp = ensureCapacity(this.matchedStamp, termCount);
      this.matchedFrom = ensureCapacity(this.matchedFrom, termCount);
      this.matchedTo = ensureCapacity(this.matchedTo, termCount);
    }
    const wordCount = words.length;
    if (this.nbWords.length < wordCount) this.nbWords = new Float64Array(wordCount);
    if (this.nbGrams.length < grams.length) this.nbGrams = new Float64Array(grams.length);
    const nbWords = this.nbWords.fill(0, 0, wordCount);
    const nbGrams = this.nbGrams.fill(0, 0, grams.length);
    if (this.centroidWords.length < wordCount) this.centroidWords = new Float64Array(wordCount);
    const centroidWords = this.centroidWords.fill(0, 0, wordCount);
    const wordWeights = words.weights;
    const wordIdf = words.idf;
    const gramWeights = grams.weights;
    const gramIdf = grams.idf;
    const cursor = this.cursor;
    const forward = store.forward;
    const phrasingStart = store.phrasingStart;
    const phrasingWordNorm = norms.phrasingWordNorm;
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
      const from = phrasingStart[p] as number;
      const to = phrasingStart[p + 1] as number;
      const termShare = 1 / Math.sqrt(store.phrasingTermCount[p] || 1);
      const unitShare = 1 / (phrasingWordNorm[p] || 1);
      const gramShare = 1 / Math.sqrt(store.phrasingGramCount[p] || 1);
      let wordDot = 0;
      let gramDot = 0;
      let explained = 0;
      cursor.reset(forward, from);
      while (cursor.at < to) {
        const term = cursor.next();
        const pos = (termPos[term] as number) - 1;
        if (pos >= 0) {
          const termIdf = wordIdf[pos] as number;
          wordDot += (wordWeights[pos] as number) * termIdf;
          explained += termIdf * termIdf;
          centroidWords[pos] = (centroidWords[pos] as number) + termIdf * unitShare;
          nbWords[pos] = (nbWords[pos] as number) + termShare;
        }
        this.matchTermGrams(term, gramPos);
        const matchedGrams = this.matchedGrams;
        const matchedTo = this.matchedTo[term] as number;
        for (let m = this.matchedFrom[term] as number; m < matchedTo; m += 1) {
          const gp = matchedGrams[m] as number;
          gramDot += (gramWeights[gp] as number) * (gramIdf[gp] as number);
          nbGrams[gp] = (nbGrams[gp] as number) + gramShare;
        }
      }
      const wordCos = wordDot / (phrasingWordNorm[p] || 1);
      const gramCos = gramDot / (norms.phrasingGramNorm[p] || 1);
      centroidWordDot += wordCos;
      centroidGramDot += gramCos;
      const combined = wordCos + GRAM_WEIGHT * gramCos;
      if (combined > bestCos) {
        bestCos = combined;
        best = p;
        bestWordCos = wordCos;
        bestGramCos = gramCos;
        bestReverse = explained / (phrasingWordNorm[p] || 1) ** 2;
      }
    }
    let wordNorm = norms.ruleCentroidWordNorm[slot] ?? 0;
    let gramNorm = norms.ruleCentroidGramNorm[slot] ?? 0;
    if (leavingOut) [wordNorm, gramNorm] = norms.centroidNorms(slot, leaveOut);
    const wordCentroidCos = wordNorm > 0 ? centroidWordDot / wordNorm : 0;
    let centroidExplained = 0;
    for (let i = 0; i < wordCount; i += 1) centroidExplained += (centroidWords[i] as number) ** 2;
    const gramCentroidCos = gramNorm > 0 ? centroidGramDot / gramNorm : 0;

    let nb = 0;
    let covered = 0;
    let content = words.unknownContent;
    let contentCovered = 0;
    let contentTerms = 0;
    // Neighbouring question terms found in the same phrasings have equal sums: the last
    // logarithm is reused for an equal sum (as for the grams below).
    let lastShare = 0;
    let lastLog = 0;
    for (let i = 0; i < wordCount; i += 1) {
      const w = wordWeights[i] as number;
      const a = nbWords[i] as number;
      // log1p(0) is 0 and adding 0 leaves a sum as it is: absent terms cost no logarithm.
      if (a > 0) {
        if (a !== lastShare) {
          lastShare = a;
          lastLog = Math.log1p(a / NB_ALPHA);
        }
        nb += w * lastLog;
        covered += w * w;
      }
      if (words.frame[i] !== 1) {
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
    // The grams of one question word mostly sit in the same phrasings of the rule, so runs of
    // equal sums follow each other (~4.7 grams a logarithm at 10k generated rules): the last
    // logarithm is reused for an equal sum, the same number Math.log1p would give again.
    lastShare = 0;
    lastLog = 0;
    for (let i = 0; i < grams.length; i += 1) {
      const a = nbGrams[i] as number;
      if (a > 0) {
        if (a !== lastShare) {
          lastShare = a;
          lastLog = Math.log1p(a / NB_ALPHA);
        }
        nbG += (gramWeights[i] as number) * lastLog;
      }
    }
    nbG -= grams.total * Math.log(gramMass + NB_ALPHA * Math.max(vocab.liveGrams, 1));
    const naiveBayes = nb + GRAM_WEIGHT * nbG;
    const cosine =
      (1 - CENTROID_SHARE) * bestWordCos +
      CENTROID_SHARE * wordCentroidCos +
      GRAM_WEIGHT * ((1 - CENTROID_SHARE) * bestGramCos + CENTROID_SHARE * gramCentroidCos);
    const closestDenominator = (wordCount > 0 ? 1 : 0) + (grams.length > 0 ? GRAM_WEIGHT : 0);
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

/** How many distinct values a short list holds (a question's words or Han terms). */
function distinctCount<T>(values: readonly T[]): number {
  let count = 0;
  for (let i = 0; i < values.length; i += 1) {
    if (values.indexOf(values[i] as T) === i) count += 1;
  }
  return count;
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
