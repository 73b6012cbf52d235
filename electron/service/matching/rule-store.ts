/**
 * The mutable half of the index: rules, their phrasings, the forward lists of terms per phrasing,
 * posting lists and rule frequencies. Writes are incremental. Removing or replacing a rule
 * tombstones its phrasings (their postings are skipped from then on) and undoes its rule
 * frequencies at once, so no stale data affects scores; compaction later reclaims the space.
 * @module
 */
import { textTerms } from './features';
import { normalizeText } from './normalize';
import { ensureCapacity } from './typed-arrays';
import type { MatchableRule } from './types';
import { SlotValues } from './slot-values';
import { MAX_TERM_BYTES, TermCursor, writeTerm } from './term-bytes';
import { Vocabulary } from './vocabulary';
import { fnv1a } from '../text-hash';

/**
 * Naive Bayes additive smoothing (tuned on the development split: 0.03–0.3 all within 1 pt).
 * Lives here because posting weights are computed with it at indexing time.
 */
export const NB_ALPHA = 0.1;

/** `phrasingSource` value for the phrasing made from the rule's name. */
export const NAME_SOURCE = 255;
const DEAD = -1;
/** Joins a rule's questions in a saved index (rule-store-file.ts). */
export const QUESTION_SEPARATOR = '\u0000';

/**
 * Phrasings per bucket of the exact-text table, on average: one an exact lookup walks through
 * comparing stored hashes (a question costs one lookup), a quarter of the table's 4 bytes a
 * phrasing (4 MB at 100k benchmark rules for a table of one bucket a phrasing).
 */
const EXACT_CHAIN = 4;

// Compaction rewrites everything live, so it waits until tombstones are a real share of the data.
const COMPACT_MIN_DEAD = 4096;
const COMPACT_DEAD_SHARE = 0.3;

/**
 * Questions as the store keeps them: joined when the separator can split them back into the
 * same list (no question holds it, and not the one empty question, which would read as none).
 */
function joinQuestions(questions: readonly string[]): string | readonly string[] {
  if (questions.length === 1 && questions[0] === '') return questions;
  for (const question of questions) {
    if (question.includes(QUESTION_SEPARATOR)) return questions;
  }
  return questions.join(QUESTION_SEPARATOR);
}

/** The `n`th question of a joined string, without splitting all of them. */
function joinedQuestion(joined: string, n: number): string {
  let from = 0;
  for (let i = 0; i < n; i += 1) {
    const at = joined.indexOf(QUESTION_SEPARATOR, from);
    if (at < 0) return '';
    from = at + 1;
  }
  const to = joined.indexOf(QUESTION_SEPARATOR, from);
  return joined.slice(from, to < 0 ? joined.length : to);
}

// FNV-1a: fast, and collisions are resolved by comparing the normalised text.
const hashKey = fnv1a;

/**
 * Rules and their phrasings as typed arrays. The arrays are public for the scorer, which reads
 * them in its hot loops, and for rule-store-file.ts, which saves and opens them; only the
 * store's own methods (and opening a saved store) write them.
 */
export class RuleStore {
  /**
   * @param rewrite applied to every text before indexing (the synonym table); questions keep
   * their original wording for display.
   */
  constructor(
    private readonly rewrite: (text: string) => string = (text) => text,
    readonly vocab: Vocabulary = new Vocabulary(),
  ) {}

  /** Slot of each rule id; built on first need after opening a saved index. */
  private slotsById: Map<string, number> | null = new Map();
  freeSlots: number[] = [];
  /** Slots ever used (live or free). */
  slotCount = 0;
  /** 1 for a slot holding a rule. */
  ruleLive = new Uint8Array(64);
  ruleIds = new SlotValues<string>('');
  ruleNames = new SlotValues<string>('');
  /**
   * A rule's questions joined by QUESTION_SEPARATOR (one string per rule rather than an array of
   * strings: ~20 MB less at 100k rules), or the array when a question holds the separator.
   */
  ruleQuestions = new SlotValues<readonly string[]>([]);
  ruleActive = new Uint8Array(64);
  /** Effective window; NaN means open on that side. */
  ruleBegin = new Float64Array(64);
  ruleEnd = new Float64Array(64);
  ruleFirstPhrasing = new Int32Array(64);
  rulePhrasingCount = new Uint8Array(64);
  /** Naive Bayes mass of the rule: Σ over phrasings of √(terms) (words) and √(grams). */
  ruleMassWords = new Float64Array(64);
  ruleMassGrams = new Float64Array(64);
  liveRules = 0;
  /** Σ of the rule masses, for the score of an average rule that matches nothing. */
  totalMassWords = 0;
  totalMassGrams = 0;

  /** Rule slot of each phrasing, DEAD once the phrasing was removed or replaced. */
  phrasingRule = new Int32Array(1024);
  phrasingSource = new Uint8Array(1024);
  phrasingTermCount = new Uint16Array(1024);
  phrasingGramCount = new Uint16Array(1024);
  phrasingStart = new Int32Array(1024);
  phrasingHash = new Int32Array(1024);
  nextSameHash = new Int32Array(1024);
  /**
   * Chains of phrasings by normalised-text hash: bucket (hash & mask) → the latest phrasing,
   * then `nextSameHash`. A typed table rather than a Map so it is saved and opened as bytes.
   */
  exactBuckets = new Int32Array(1024).fill(DEAD);
  phrasingTotal = 0;
  deadPhrasings = 0;

  /**
   * Forward lists: the term ids of every phrasing, back to back, as varints (term-bytes.ts);
   * `phrasingStart` gives byte positions. A quarter of the room of one Int32 a term.
   */
  forward = new Uint8Array(4096);
  forwardLength = 0;
  private readonly cursor = new TermCursor();

  // Generation stamps make "distinct grams of this rule" O(grams) without clearing a set.
  private gramStamp = new Int32Array(1024);
  private stamp = 0;

  /** Bumped by every write: caches derived from document frequencies check it. */
  generation = 0;
  /** Sorted effective-window boundaries of the rules, as of `boundariesGeneration`. */
  private boundaries = new Float64Array(0);
  private boundariesGeneration = -1;
  // Scratch space for one rule's per-term Naive Bayes shares while its postings are written.
  private termShare = new Float64Array(1024);
  /** The distinct terms of the rule being indexed, in first-occurrence order (scratch). */
  private ruleTerms = new Int32Array(256);

  get size(): number {
    return this.liveRules;
  }

  /** Phrasings held by live rules (names included). */
  get livePhrasings(): number {
    return this.phrasingTotal - this.deadPhrasings;
  }

  /** After opening a saved store: ids are mapped to slots on first need, caches start anew. */
  markOpened(): void {
    this.slotsById = null;
    this.generation = 1;
  }

  private slotIndex(): Map<string, number> {
    if (this.slotsById === null) {
      const index = new Map<string, number>();
      for (let slot = 0; slot < this.slotCount; slot += 1) {
        if (this.ruleLive[slot] === 1) index.set(this.ruleIds.get(slot) as string, slot);
      }
      this.slotsById = index;
    }
    return this.slotsById;
  }

  /** The slot of a live rule, or undefined. */
  slotOf(ruleId: string): number | undefined {
    return this.slotIndex().get(ruleId);
  }

  isLive(slot: number): boolean {
    return this.ruleLive[slot] === 1;
  }

  /** The id of the rule in a slot (undefined for a free slot). */
  ruleIdAt(slot: number): string | undefined {
    return this.ruleLive[slot] === 1 ? (this.ruleIds.get(slot) as string) : undefined;
  }

  isEligible(slot: number, nowMs: number): boolean {
    if (this.ruleActive[slot] !== 1) return false;
    const begin = this.ruleBegin[slot] ?? Number.NaN;
    const end = this.ruleEnd[slot] ?? Number.NaN;
    return !(nowMs < begin) && !(nowMs > end);
  }

  /**
   * The open interval around `nowMs` in which no rule enters or leaves its effective window, so
   * the eligible rules stay the same (empty when `nowMs` is itself a boundary).
   */
  eligibilityWindow(nowMs: number): { after: number; before: number } {
    if (this.boundariesGeneration !== this.generation) {
      const times: number[] = [];
      for (let slot = 0; slot < this.slotCount; slot += 1) {
        if (this.ruleLive[slot] !== 1) continue;
        const begin = this.ruleBegin[slot] ?? Number.NaN;
        const end = this.ruleEnd[slot] ?? Number.NaN;
        if (!Number.isNaN(begin)) times.push(begin);
        if (!Number.isNaN(end)) times.push(end);
      }
      this.boundaries = Float64Array.from(times).sort();
      this.boundariesGeneration = this.generation;
    }
    const times = this.boundaries;
    let low = 0;
    let high = times.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((times[mid] ?? 0) <= nowMs) low = mid + 1;
      else high = mid;
    }
    // times[low - 1] <= nowMs < times[low]
    const previous = low > 0 ? (times[low - 1] ?? -Infinity) : -Infinity;
    if (previous === nowMs) return { after: nowMs, before: nowMs };
    return { after: previous, before: low < times.length ? (times[low] ?? Infinity) : Infinity };
  }

  /** The text a phrasing was made from, as the rule's author wrote it. */
  phrasingText(phrasing: number): string {
    const slot = this.phrasingRule[phrasing] ?? DEAD;
    if (slot === DEAD) return '';
    const source = this.phrasingSource[phrasing] ?? 0;
    if (source === NAME_SOURCE) return this.ruleNames.get(slot) as string;
    const questions = this.ruleQuestions.get(slot);
    return typeof questions === 'string'
      ? joinedQuestion(questions, source)
      : (questions[source] ?? '');
  }

  /** Whether the store holds exactly this rule (as `upsert` would leave it). */
  holds(rule: MatchableRule): boolean {
    const slot = this.slotIndex().get(rule.ruleId);
    if (slot === undefined) return false;
    const questions = this.questionsOf(slot);
    const begin = this.ruleBegin[slot] ?? Number.NaN;
    const end = this.ruleEnd[slot] ?? Number.NaN;
    return (
      this.ruleNames.get(slot) === rule.ruleName &&
      (this.ruleActive[slot] === 1) === rule.active &&
      (Number.isNaN(begin) ? null : begin) === rule.effectBeginMs &&
      (Number.isNaN(end) ? null : end) === rule.effectEndMs &&
      questions.length === rule.questions.length &&
      questions.every((question, i) => question === rule.questions[i])
    );
  }

  upsert(rule: MatchableRule): void {
    this.generation += 1;
    const slots = this.slotIndex();
    let slot = slots.get(rule.ruleId);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.slotCount;
      this.slotCount = Math.max(this.slotCount, slot + 1);
      slots.set(rule.ruleId, slot);
      this.liveRules += 1;
      this.growRules(slot + 1);
      this.ruleLive[slot] = 1;
    } else {
      this.retire(slot);
    }
    this.ruleIds.set(slot, rule.ruleId);
    this.ruleNames.set(slot, rule.ruleName);
    this.ruleQuestions.set(slot, joinQuestions(rule.questions));
    this.ruleActive[slot] = rule.active ? 1 : 0;
    this.ruleBegin[slot] = rule.effectBeginMs ?? Number.NaN;
    this.ruleEnd[slot] = rule.effectEndMs ?? Number.NaN;
    this.addPhrasings(slot, rule);
    this.maybeCompact();
  }

  remove(ruleId: string): void {
    const slots = this.slotIndex();
    const slot = slots.get(ruleId);
    if (slot === undefined) return;
    this.generation += 1;
    this.retire(slot);
    slots.delete(ruleId);
    this.ruleLive[slot] = 0;
    this.ruleIds.set(slot, '');
    this.ruleNames.set(slot, '');
    this.ruleQuestions.set(slot, []);
    this.ruleActive[slot] = 0;
    this.freeSlots.push(slot);
    this.liveRules -= 1;
    this.maybeCompact();
  }

  /** The rules held, rebuilt from the store (used to re-index under a new synonym table). */
  rules(): MatchableRule[] {
    const rules: MatchableRule[] = [];
    for (let slot = 0; slot < this.slotCount; slot += 1) {
      if (this.ruleLive[slot] === 1) rules.push(this.ruleAt(slot));
    }
    return rules;
  }

  /** A live rule as held, or undefined (an embedding model's vectors follow it later). */
  rule(ruleId: string): MatchableRule | undefined {
    const slot = this.slotIndex().get(ruleId);
    return slot === undefined ? undefined : this.ruleAt(slot);
  }

  private ruleAt(slot: number): MatchableRule {
    const begin = this.ruleBegin[slot] ?? Number.NaN;
    const end = this.ruleEnd[slot] ?? Number.NaN;
    return {
      ruleId: this.ruleIds.get(slot) as string,
      ruleName: this.ruleNames.get(slot) as string,
      questions: this.questionsOf(slot),
      active: this.ruleActive[slot] === 1,
      effectBeginMs: Number.isNaN(begin) ? null : begin,
      effectEndMs: Number.isNaN(end) ? null : end,
    };
  }

  /** A rule's questions (split anew from the joined string: kept whole, it costs less). */
  private questionsOf(slot: number): readonly string[] {
    const questions = this.ruleQuestions.get(slot);
    if (typeof questions !== 'string') return questions;
    return questions.length === 0 ? [] : questions.split(QUESTION_SEPARATOR);
  }

  /** Live phrasings whose normalised text equals `key`. */
  exactPhrasings(key: string): number[] {
    const found: number[] = [];
    if (key.length === 0) return found;
    const hash = hashKey(key);
    let phrasing = this.exactBuckets[hash & (this.exactBuckets.length - 1)] ?? DEAD;
    while (phrasing !== DEAD) {
      if (
        this.phrasingRule[phrasing] !== DEAD &&
        this.phrasingHash[phrasing] === hash &&
        normalizeText(this.rewrite(this.phrasingText(phrasing))) === key
      ) {
        found.push(phrasing);
      }
      phrasing = this.nextSameHash[phrasing] ?? DEAD;
    }
    return found;
  }

  private growRules(needed: number): void {
    this.ruleLive = ensureCapacity(this.ruleLive, needed);
    this.ruleActive = ensureCapacity(this.ruleActive, needed);
    this.ruleBegin = ensureCapacity(this.ruleBegin, needed);
    this.ruleEnd = ensureCapacity(this.ruleEnd, needed);
    this.ruleFirstPhrasing = ensureCapacity(this.ruleFirstPhrasing, needed);
    this.rulePhrasingCount = ensureCapacity(this.rulePhrasingCount, needed);
    this.ruleMassWords = ensureCapacity(this.ruleMassWords, needed);
    this.ruleMassGrams = ensureCapacity(this.ruleMassGrams, needed);
  }

  private growPhrasings(needed: number): void {
    this.phrasingRule = ensureCapacity(this.phrasingRule, needed);
    this.phrasingSource = ensureCapacity(this.phrasingSource, needed);
    this.phrasingTermCount = ensureCapacity(this.phrasingTermCount, needed);
    this.phrasingGramCount = ensureCapacity(this.phrasingGramCount, needed);
    this.phrasingStart = ensureCapacity(this.phrasingStart, needed + 1);
    this.phrasingHash = ensureCapacity(this.phrasingHash, needed);
    this.nextSameHash = ensureCapacity(this.nextSameHash, needed);
  }

  private addPhrasings(slot: number, rule: MatchableRule): void {
    const vocab = this.vocab;
    const keys: string[] = [];
    const first = this.phrasingTotal;
    let massWords = 0;
    let massGrams = 0;
    const questions = rule.questions;
    this.growPhrasings(first + questions.length + 1);
    for (let source = 0; source <= questions.length; source += 1) {
      const text = source === questions.length ? rule.ruleName : (questions[source] ?? '');
      const { key, words, han } = textTerms(this.rewrite(text));
      // Repeated phrasings would only inflate the rule's counts; empty ones match nothing.
      if (key.length === 0 || keys.includes(key)) continue;
      keys.push(key);
      const phrasing = this.phrasingTotal;
      this.phrasingTotal += 1;
      const termCount = words.length + han.length;
      this.forward = ensureCapacity(this.forward, this.forwardLength + termCount * MAX_TERM_BYTES);
      const forward = this.forward;
      let at = this.forwardLength;
      this.phrasingStart[phrasing] = at;
      let grams = 0;
      for (const word of words) {
        const id = vocab.internWord(word);
        at = writeTerm(forward, at, id);
        grams += vocab.gramEnd(id) - vocab.gramStart(id);
      }
      for (const code of han) at = writeTerm(forward, at, vocab.internHan(code));
      this.forwardLength = at;
      this.phrasingStart[phrasing + 1] = at;
      this.phrasingRule[phrasing] = slot;
      this.phrasingSource[phrasing] = source === questions.length ? NAME_SOURCE : source;
      this.phrasingTermCount[phrasing] = Math.min(termCount, 0xffff);
      this.phrasingGramCount[phrasing] = Math.min(grams, 0xffff);
      massWords += Math.sqrt(termCount);
      massGrams += Math.sqrt(grams);
      this.phrasingHash[phrasing] = hashKey(key);
      this.chainExact(phrasing);
    }
    this.ruleFirstPhrasing[slot] = first;
    this.rulePhrasingCount[slot] = this.phrasingTotal - first;
    this.ruleMassWords[slot] = massWords;
    this.ruleMassGrams[slot] = massGrams;
    this.totalMassWords += massWords;
    this.totalMassGrams += massGrams;
    this.indexRule(slot, 'add');
  }

  /**
   * Puts a phrasing at the head of its bucket's chain, doubling the table when chains reach
   * EXACT_CHAIN phrasings on average. A chain keeps its phrasings in decreasing order whatever
   * the table's size, so the size changes no answer; a table opened from an older file (one
   * bucket a phrasing) is used as it is.
   */
  private chainExact(phrasing: number): void {
    if (phrasing >= this.exactBuckets.length * EXACT_CHAIN) {
      this.exactBuckets = new Int32Array(this.exactBuckets.length * 2).fill(DEAD);
      for (let p = 0; p < phrasing; p += 1) this.linkExact(p);
    }
    this.linkExact(phrasing);
  }

  private linkExact(phrasing: number): void {
    const bucket = (this.phrasingHash[phrasing] ?? 0) & (this.exactBuckets.length - 1);
    this.nextSameHash[phrasing] = this.exactBuckets[bucket] ?? DEAD;
    this.exactBuckets[bucket] = phrasing;
  }

  /**
   * Adds or withdraws a rule: its distinct terms and grams in the rule frequencies, and its
   * postings ('repost' writes the postings alone, after compaction dropped them). A posting is weighted log(1 + share / α), where share sums 1/√(terms of the
   * phrasing) over the term's occurrences: the rule's Naive Bayes evidence for the term, so that
   * stage 1 of scoring is one multiply-add per posting.
   */
  private indexRule(slot: number, change: 'add' | 'remove' | 'repost'): void {
    const vocab = this.vocab;
    this.termShare = ensureCapacity(this.termShare, vocab.termCount);
    this.gramStamp = ensureCapacity(this.gramStamp, vocab.gramCount);
    this.stamp += 1;
    const stamp = this.stamp;
    const share = this.termShare;
    const gramStamp = this.gramStamp;
    const cursor = this.cursor;
    const first = this.ruleFirstPhrasing[slot] ?? 0;
    const end = first + (this.rulePhrasingCount[slot] ?? 0);
    let touched = this.ruleTerms;
    let touchedCount = 0;
    for (let p = first; p < end; p += 1) {
      const weight = 1 / Math.sqrt(this.phrasingTermCount[p] || 1);
      const to = this.phrasingStart[p + 1] ?? 0;
      cursor.reset(this.forward, this.phrasingStart[p] ?? 0);
      while (cursor.at < to) {
        const term = cursor.next();
        if (share[term] === 0) {
          if (touchedCount === touched.length) {
            this.ruleTerms = ensureCapacity(touched, touchedCount + 1);
            touched = this.ruleTerms;
          }
          touched[touchedCount] = term;
          touchedCount += 1;
        }
        share[term] = (share[term] ?? 0) + weight;
      }
    }
    const delta = change === 'add' ? 1 : -1;
    for (let t = 0; t < touchedCount; t += 1) {
      const term = touched[t] as number;
      if (change === 'remove') vocab.removePosting(term, first, this.ruleFirstPhrasing);
      else vocab.addPosting(term, slot, Math.log1p((share[term] ?? 0) / NB_ALPHA));
      share[term] = 0;
      if (change === 'repost') continue;
      vocab.changeRuleDf(term, delta);
      const gramTo = vocab.gramEnd(term);
      for (let g = vocab.gramStart(term); g < gramTo; g += 1) {
        const gram = vocab.gramAt(g);
        if (gramStamp[gram] === stamp) continue;
        gramStamp[gram] = stamp;
        vocab.changeGramRuleDf(gram, delta);
      }
    }
  }

  /** Takes a rule's phrasings out of play; the slot itself stays assigned. */
  private retire(slot: number): void {
    this.indexRule(slot, 'remove');
    const first = this.ruleFirstPhrasing[slot] ?? 0;
    const count = this.rulePhrasingCount[slot] ?? 0;
    for (let p = first; p < first + count; p += 1) this.phrasingRule[p] = DEAD;
    this.deadPhrasings += count;
    this.rulePhrasingCount[slot] = 0;
    this.totalMassWords -= this.ruleMassWords[slot] ?? 0;
    this.totalMassGrams -= this.ruleMassGrams[slot] ?? 0;
    this.ruleMassWords[slot] = 0;
    this.ruleMassGrams[slot] = 0;
  }

  private maybeCompact(): void {
    if (this.deadPhrasings < COMPACT_MIN_DEAD) return;
    if (this.deadPhrasings < this.phrasingTotal * COMPACT_DEAD_SHARE) return;
    this.compact();
  }

  /** Renumbers live phrasings densely and rebuilds postings and the exact-text chains. */
  compact(): void {
    this.generation += 1;
    const oldRule = this.phrasingRule;
    const oldSource = this.phrasingSource;
    const oldTerms = this.phrasingTermCount;
    const oldGrams = this.phrasingGramCount;
    const oldStart = this.phrasingStart;
    const oldHash = this.phrasingHash;
    const oldForward = this.forward;
    const live = this.phrasingTotal - this.deadPhrasings;
    const capacity = Math.max(1024, live);
    this.phrasingRule = new Int32Array(capacity);
    this.phrasingSource = new Uint8Array(capacity);
    this.phrasingTermCount = new Uint16Array(capacity);
    this.phrasingGramCount = new Uint16Array(capacity);
    this.phrasingStart = new Int32Array(capacity + 1);
    this.phrasingHash = new Int32Array(capacity);
    this.nextSameHash = new Int32Array(capacity);
    this.forward = new Uint8Array(Math.max(4096, this.forwardLength));
    this.exactBuckets = new Int32Array(this.exactBuckets.length).fill(DEAD);
    this.vocab.clearPostings();
    let phrasing = 0;
    let forwardLength = 0;
    for (let slot = 0; slot < this.slotCount; slot += 1) {
      if (this.ruleLive[slot] !== 1) continue;
      const first = this.ruleFirstPhrasing[slot] ?? 0;
      const count = this.rulePhrasingCount[slot] ?? 0;
      this.ruleFirstPhrasing[slot] = phrasing;
      for (let old = first; old < first + count; old += 1) {
        if (oldRule[old] !== slot) continue;
        this.phrasingRule[phrasing] = slot;
        this.phrasingSource[phrasing] = oldSource[old] ?? 0;
        this.phrasingTermCount[phrasing] = oldTerms[old] ?? 0;
        this.phrasingGramCount[phrasing] = oldGrams[old] ?? 0;
        this.phrasingStart[phrasing] = forwardLength;
        const from = oldStart[old] ?? 0;
        const to = oldStart[old + 1] ?? 0;
        this.forward.set(oldForward.subarray(from, to), forwardLength);
        forwardLength += to - from;
        this.phrasingHash[phrasing] = oldHash[old] ?? 0;
        this.chainExact(phrasing);
        phrasing += 1;
      }
      this.phrasingStart[phrasing] = forwardLength;
    }
    this.phrasingTotal = phrasing;
    this.forwardLength = forwardLength;
    this.deadPhrasings = 0;
    for (let slot = 0; slot < this.slotCount; slot += 1) {
      if (this.ruleLive[slot] === 1) this.indexRule(slot, 'repost');
    }
  }
}
