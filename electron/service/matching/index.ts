/**
 * The matching engine: an incremental per-robot index that answers questions with BESTMATCH,
 * RECOMMEND or NONE. See docs/matching.md for the design and the evaluation behind the defaults.
 * @module
 */
import { SnapshotReader, SnapshotWriter } from './binary-snapshot';
import { calibrate } from './calibrate';
import { CandidateCache } from './candidate-cache';
import { decide } from './decide';
import { fuzzySimilarities } from './fuzzy';
import { textTerms } from './features';
import { hanTermText } from './han-terms';
import type { TextTerms } from './han-terms';
import { normalizeText } from './normalize';
import { PolicyTable } from './rule-policies';
import type { PolicyEntry } from './rule-policies';
import { RuleStore } from './rule-store';
import { loadRuleStore, saveRuleStore } from './rule-store-file';
import type { ScoredQuestion, ScoredRule } from './scorer';
import { Scorer } from './scorer';
import { CollisionRun } from './collisions';
import { calibrationOffset } from './self-calibration';
import type { Probe } from './self-test';
import { SelfTestRun, probedPhrasings } from './self-test';
import { SelfTestScheduler } from './self-test-scheduler';
import { SynonymTable } from './synonyms';
import { nextTurn } from '../time-slices';
import type {
  CalibrationState,
  Candidate,
  CollisionOptions,
  CandidateChannel,
  CollisionReport,
  DecidedKind,
  MatchDecision,
  MatchSettings,
  MatchableRule,
  ProbeSource,
  RobotIndex,
  RuleObserver,
} from './types';

export type {
  CalibrationState,
  Candidate,
  CandidateChannel,
  ProbeSource,
  RuleObserver,
  CollisionReport,
  Exclusion,
  MatchPolicy,
  MatchDecision,
  MatchSettings,
  MatchableRule,
  RobotIndex,
} from './types';
export { normalizeText } from './normalize';

/**
 * Defaults chosen on the development split (banking77-faq-full) and leave-one-out runs; see
 * docs/matching.md, "How the defaults were chosen".
 */
export const DEFAULT_MATCH_SETTINGS: MatchSettings = {
  bestmatchThreshold: 0.94,
  recommendThreshold: 0.1,
  margin: 0.1,
  maxRecommend: 5,
};

/** Leading rules whose closest phrasing gets the (slow) fuse.js comparison. */
const FUZZY_RULES = 2;
/** Length of the explanation list returned with every answer. */
const EXPLAIN_COUNT = 10;
/** Share of a question's weight in content never seen that makes a frame-only match unrelated. */
const UNKNOWN_CONTENT_MIN = 0.4;
/** Score of a rule that explains too little of the question (below any RECOMMEND list). */
const UNRELATED_SCORE = 0.04;
/** Highest score of an inexact match to a one-term question. */
const FRAGMENT_SCORE = 0.5;
/**
 * A match explains too little of its rule when the question covers less than this share of
 * the rule's centroid (the weight of what its phrasings say, together) ... (both chosen on the
 * development sets, docs/matching.md)
 */
const PARTIAL_CORE = 0.18;
/** ... and less than this share of its closest phrasing. */
const PARTIAL_PHRASING = 0.6;
/** Highest score of such a partial match: a "did you mean", never BESTMATCH. */
const PARTIAL_SCORE = 0.5;
/** Phrasings the calibration's self-test asks (an even sample beyond). */
const CALIBRATION_PROBES = 1000;
/** Phrasings the collision report asks by default (an even sample beyond). */
const COLLISION_PROBES = 10_000;

export interface RobotIndexOptions {
  /** Groups of interchangeable words or phrases, e.g. [["top up", "topup", "recharge"]]. */
  synonyms?: readonly (readonly string[])[];
  /**
   * False: no self-calibration (offset 0, no background self-test) and no limit on partial
   * matches: an index of a fixed pack of near-paraphrases (the small talk), not a knowledge base
   * whose own probes say how wary to be, nor whose rules' longer phrasings carry their intent.
   */
  selfCalibration?: boolean;
}

/** This engine's index: the optional parts of `RobotIndex` are all there. */
export interface SynonymAwareRobotIndex extends RobotIndex {
  /** Replaces the synonym table; rules already indexed are re-indexed with it. */
  setSynonyms(groups: readonly (readonly string[])[]): void;
  readonly calibration: CalibrationState;
  selfCalibrate(nowMs?: number): void;
  matchExact(question: string, nowMs: number): MatchDecision | undefined;
  collisions(options?: CollisionOptions): Promise<CollisionReport>;
  readonly version: number;
  eligibilityWindow(nowMs: number): { after: number; before: number };
  observe(observer: RuleObserver): () => void;
  /** The self-test's phrasings and how each is asked (for the fusion's calibration). */
  probeSource(limit: number): ProbeSource;
}

/**
 * Bump when what the index stores changes meaning (weights, term kinds) or encoding (5: forward
 * lists as varints; an older file is not opened, the caller re-indexes; 6: postings without
 * their keys, tombstones as ~key; 7: posting weights as codes into a table of the distinct
 * weights). Changes to normalisation or tokenisation are caught without a bump by
 * `behaviourFingerprint`.
 */
const SNAPSHOT_FORMAT = 7;
/**
 * Formats still opened: 5 differs only in its postings' keys, which opening folds in, 6 only in
 * its Float32 weights, which opening codes.
 */
const OPENED_FORMATS: readonly number[] = [5, 6, SNAPSHOT_FORMAT];
const FINGERPRINT_PROBES = [
  'How do I TRANSFER money to my friends’ accounts? I can’t!',
  '怎麼辦理開戶？资料库、天气的预报 😀',
  'Ｃａｆé top-ups, 2nd payments; naïve résumé',
];

/** A digest of how probe texts are tokenised: a saved index is only valid for the same. */
function behaviourFingerprint(): string {
  // Han keys are process-local numbers: the fingerprint holds their text.
  return JSON.stringify(
    FINGERPRINT_PROBES.map((probe) => {
      const { key, words, han } = textTerms(probe);
      return { key, words, han: han.map(hanTermText) };
    }),
  );
}

class MatchingIndex implements SynonymAwareRobotIndex {
  private synonymTable: SynonymTable;
  private store: RuleStore;
  private scorer: Scorer;
  private synonymGroups: readonly (readonly string[])[];
  private readonly recent = new CandidateCache();
  /** Rules with an exact or contains policy, or negative keywords (rule-policies.ts). */
  private readonly policies = new PolicyTable();
  /** The robot's own correction to the calibration's log-odds (see self-calibration.ts). */
  private calibrationOffset = 0;
  private calibrationProbes = 0;
  /** Bumped by every write; the calibration is current while it was fitted at this version. */
  version = 0;
  private calibratedVersion = -1;
  private readonly selfTests = new SelfTestScheduler(this, CALIBRATION_PROBES);

  private readonly selfCalibrating: boolean;
  /** Told of every rule change (the vectors of an embedding model follow the rules). */
  private readonly observers = new Set<RuleObserver>();

  constructor(options: RobotIndexOptions, store?: RuleStore) {
    this.selfCalibrating = options.selfCalibration !== false;
    this.synonymGroups = options.synonyms ?? [];
    this.synonymTable = new SynonymTable(this.synonymGroups);
    this.store = store ?? this.newStore();
    this.scorer = new Scorer(this.store);
  }

  /** The index, to be opened by `loadRobotIndex` instead of re-indexing. */
  snapshot(): SnapshotWriter {
    const writer = new SnapshotWriter();
    writer.value('format', SNAPSHOT_FORMAT);
    writer.value('fingerprint', behaviourFingerprint());
    writer.value('synonyms', this.synonymGroups);
    writer.value('calibration', {
      offset: this.calibrationOffset,
      probes: this.calibrationProbes,
      current: this.calibratedVersion === this.version,
    });
    writer.value('policies', this.policies.saved());
    saveRuleStore(this.store, writer);
    return writer;
  }

  static load(bytes: Uint8Array<ArrayBuffer>): MatchingIndex | null {
    const reader = new SnapshotReader(bytes);
    if (!OPENED_FORMATS.includes(reader.value<number>('format'))) return null;
    if (reader.value<string>('fingerprint') !== behaviourFingerprint()) return null;
    const groups = reader.value<string[][]>('synonyms');
    const synonyms = new SynonymTable(groups);
    const rewrite = synonyms.isEmpty ? undefined : (text: string) => synonyms.rewrite(text);
    const policies = reader.optionalValue<PolicyEntry[]>('policies');
    const index = new MatchingIndex({ synonyms: groups }, loadRuleStore(reader, rewrite));
    if (policies !== undefined) index.policies.restore(policies);
    const saved = reader.optionalValue<{ offset: number; probes: number; current: boolean }>(
      'calibration',
    );
    if (saved !== undefined) index.applyCalibration(saved.offset, saved.probes);
    // Opened without a calibration of these rules: the self-test runs in the background.
    if (saved?.current === true) index.calibratedVersion = index.version;
    else if (index.size > 0) index.selfTests.schedule();
    return index;
  }

  private newStore(): RuleStore {
    const synonyms = this.synonymTable;
    return synonyms.isEmpty ? new RuleStore() : new RuleStore((text) => synonyms.rewrite(text));
  }

  get size(): number {
    return this.store.size;
  }

  get synonyms(): readonly (readonly string[])[] {
    return this.synonymGroups;
  }

  upsert(rule: MatchableRule): void {
    // The same rule again (a team server's node following its own write) changes nothing: no
    // new version, so reports and the calibration computed at this one stay current.
    if (this.policies.holds(rule)) {
      const scored = (rule.matchPolicy ?? 'similarity') === 'similarity';
      if (this.store.holds(scored ? rule : { ...rule, active: false })) return;
    }
    // A rule matched only by its policy stays in the store (sizes, saved index) but is never
    // scored by similarity.
    const scored = this.policies.upsert(rule);
    const held = scored ? rule : { ...rule, active: false };
    this.store.upsert(held);
    for (const observer of this.observers) observer.upsert(held);
    this.changed();
  }

  remove(ruleId: string): void {
    this.policies.remove(ruleId);
    this.store.remove(ruleId);
    for (const observer of this.observers) observer.remove(ruleId);
    this.changed();
  }

  observe(observer: RuleObserver): () => void {
    for (const rule of this.store.rules()) observer.upsert(rule);
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  rule(ruleId: string): MatchableRule | undefined {
    return this.store.rule(ruleId);
  }

  probeSource(limit: number): ProbeSource {
    const store = this.store;
    return {
      phrasings: probedPhrasings(store, limit),
      ask: (phrasing, nowMs) => {
        const ruleId = store.ruleIdAt(store.phrasingRule[phrasing] ?? -1);
        if (ruleId === undefined) return null;
        const candidates = this.probe(phrasing, nowMs, this.calibrationOffset);
        return { ruleId, text: store.phrasingText(phrasing), candidates };
      },
    };
  }

  private changed(): void {
    this.version += 1;
    if (this.selfCalibrating) this.selfTests.schedule();
  }

  get calibration(): CalibrationState {
    return {
      offset: this.calibrationOffset,
      probes: this.calibrationProbes,
      current: this.calibratedVersion === this.version,
      pending: this.selfTests.pending,
    };
  }

  selfCalibrate(nowMs = Date.now()): void {
    this.selfTests.cancel();
    const run = new SelfTestRun(this, probedPhrasings(this.store, CALIBRATION_PROBES), nowMs);
    run.step();
    this.selfTestDone(run.probes, this.version);
  }

  close(): void {
    this.selfTests.cancel();
  }

  /** Receives a finished self-test (from `selfCalibrate` or the background scheduler). */
  selfTestDone(probes: Probe[], version: number): void {
    if (version !== this.version) return;
    this.applyCalibration(calibrationOffset(probes), probes.length);
    this.calibratedVersion = version;
  }

  private applyCalibration(offset: number, probes: number): void {
    if (offset !== this.calibrationOffset) this.recent.clear();
    this.calibrationOffset = offset;
    this.calibrationProbes = probes;
  }

  async collisions(options: CollisionOptions = {}): Promise<CollisionReport> {
    const limit = options.limit ?? COLLISION_PROBES;
    const settings = options.settings ?? DEFAULT_MATCH_SETTINGS;
    // Rules written during the run restart it (a probe's phrasing ids would be stale), a few
    // times at most: under a stream of writes the last run's findings are reported as incomplete.
    for (let attempt = 1; ; attempt += 1) {
      const version = this.version;
      const phrasings = probedPhrasings(this.store, limit);
      const run = new CollisionRun(this, phrasings, options.nowMs ?? Date.now(), settings);
      // Slices between turns of the event loop: questions keep being answered meanwhile.
      while (!run.step(SLICE_MS) && version === this.version) {
        await nextTurn();
      }
      const complete = version === this.version && phrasings.length >= this.store.livePhrasings;
      if (version === this.version || attempt >= COLLISION_ATTEMPTS) {
        return run.report(complete);
      }
    }
  }

  eligibilityWindow(nowMs: number): { after: number; before: number } {
    return this.store.eligibilityWindow(nowMs);
  }

  setSynonyms(groups: readonly (readonly string[])[]): void {
    const rules = this.store.rules();
    this.synonymGroups = groups;
    this.synonymTable = new SynonymTable(groups);
    // Synonyms change every rule's terms, so this is the one write that rebuilds.
    this.store = this.newStore();
    this.scorer = new Scorer(this.store);
    this.recent.clear();
    for (const rule of rules) this.store.upsert(rule);
    this.changed();
  }

  get generation(): number {
    return this.store.generation;
  }

  match(
    question: string,
    nowMs: number,
    settings: MatchSettings,
    channel?: CandidateChannel,
  ): MatchDecision {
    this.selfTests.noteAsk();
    let candidates = this.lexicalCandidates(question, nowMs);
    // The embedding model's evidence, after the lexical candidates (fusion.ts).
    if (channel) candidates = channel.fuse(candidates, nowMs);
    return this.decideFrom(question, candidates, nowMs, settings);
  }

  /**
   * Works out `question`'s lexical candidates ahead of `match` (kept in the recent-question
   * table, which `match` reads first): an ask calls it while the embedding model embeds the
   * question, so that once the vector comes only the vector search and the fusion remain.
   * Not counted as traffic; the table keeps only what `match` would have kept.
   */
  prepare(question: string, nowMs: number): void {
    this.lexicalCandidates(question, nowMs);
  }

  private lexicalCandidates(question: string, nowMs: number): Candidate[] {
    const generation = this.store.generation;
    let candidates = this.recent.get(question, generation, nowMs);
    if (candidates === undefined) {
      candidates = this.candidatesOf(question, nowMs);
      this.recent.set(question, candidates, generation, this.store.eligibilityWindow(nowMs));
    }
    return candidates;
  }

  /**
   * `match`'s decision without the recent-question table and without counting as traffic: the
   * collision report's checks (many questions nobody asked) must not crowd real ones out of it.
   */
  decide(question: string, nowMs: number, settings: MatchSettings): MatchDecision {
    // The question's terms are read once, for the exact lookup and the scorer both.
    const terms = this.policies.isEmpty ? this.questionTerms(question) : undefined;
    return (
      (terms && this.exactMatch(terms.key, nowMs)) ??
      this.decideFrom(question, this.candidatesOf(question, nowMs, terms), nowMs, settings)
    );
  }

  /**
   * `decide`'s kind and rule, for the impact preview's replay, where fuse.js's comparison of
   * the two leading rules costs ~15% of a decision: their similarities only raise their own
   * scores (calibrate.ts's fuzzy weight is positive; the gate and the ranking's non-increasing
   * cap keep that order), so BESTMATCH with the leader at 0 and the runner-up at 1 holds for any
   * similarities, and no BESTMATCH with the leader at 1 and the runner-up at 0 holds for none;
   * the RECOMMEND threshold reads the leader alone. Only between those is fuse.js run (decision
   * 192). A policy in the index decides as `decide` does.
   */
  decideKind(question: string, nowMs: number, settings: MatchSettings): DecidedKind {
    if (!this.policies.isEmpty) return kindOf(this.decide(question, nowMs, settings));
    const terms = this.questionTerms(question);
    const exact = this.exactMatch(terms.key, nowMs);
    if (exact !== undefined) return kindOf(exact);
    const [key, scored] = this.scoredQuestion(question, nowMs, terms);
    const sure = decide(this.explain(key, scored, this.calibrationOffset, [0, 1]), settings);
    if (sure.kind === 'bestmatch') return kindOf(sure);
    const hoped = decide(this.explain(key, scored, this.calibrationOffset, [1, 0]), settings);
    if (hoped.kind === 'none' || (hoped.kind === 'recommend' && sure.kind === 'recommend')) {
      return kindOf(hoped);
    }
    return kindOf(decide(this.explain(key, scored, this.calibrationOffset), settings));
  }

  /**
   * At least the highest score any rule of `ruleIds` can have as the top candidate for
   * `question` at `nowMs` (what `decide` compares with the BESTMATCH threshold): 1 when one has
   * an eligible phrasing equal to the question; 0 when none is eligible. Undefined when a policy
   * (exact, contains, negative keywords) may decide instead: ask `decide`. Each rule is scored
   * by the ranking's own stage 2, then calibrated with the parts a top candidate's score takes
   * from the other rules at their most favourable: its lead over the runner-up at most its lead
   * over the baseline, its share of the evidence at most what the rules the scorer cannot list
   * leave it, and fuse.js's similarity 1 unless that bound reaches `atLeast` (then computed, as
   * `explain` does for the top). Then the same gate. A result below `atLeast` only says that
   * none reaches `atLeast`. For the impact preview (decision 116).
   */
  scoreCeiling(
    question: string,
    ruleIds: readonly string[],
    nowMs: number,
    atLeast = 0,
  ): number | undefined {
    if (!this.policies.isEmpty) return undefined;
    const slots: number[] = [];
    for (const ruleId of ruleIds) {
      const slot = this.store.slotOf(ruleId);
      if (slot !== undefined) slots.push(slot);
    }
    if (slots.length === 0) return 0;
    const text = this.synonymTable.isEmpty ? question : this.synonymTable.rewrite(question);
    // A rule sharing no word with the question explains none of it: the gate keeps it at
    // PARTIAL_SCORE at most (with self-calibration), below any `atLeast` above that.
    const wordless = !(this.selfCalibrating && atLeast > PARTIAL_SCORE);
    const scored = this.scorer.scoreSlots(text, slots, nowMs, wordless);
    const { baseline, exactRules, listedAtMost } = scored;
    // Not a number nor finite: the parts' bounds above would not hold (see `explain`).
    if (!Number.isFinite(baseline)) return undefined;
    const unscored = Math.max(0, this.store.size - listedAtMost - exactRules);
    let ceiling = 0;
    for (const rule of scored.rules) {
      if (rule.exact) return 1;
      if (!Number.isFinite(rule.raw)) continue;
      const evidence = 1 + unscored * Math.exp(Math.min(0, baseline - rule.raw));
      const input = {
        margin: rule.raw - baseline,
        closest: rule.closest,
        coverage: rule.coverage,
        fuzzy: 1,
        posterior: 1 / evidence,
      };
      let score = this.gate(calibrate(input, this.calibrationOffset), rule, scored);
      if (score >= atLeast && score > ceiling) {
        const key = normalizeText(question);
        const phrasing = normalizeText(this.store.phrasingText(rule.phrasing));
        input.fuzzy = fuzzySimilarities(key, [phrasing])[0] ?? 0;
        score = this.gate(calibrate(input, this.calibrationOffset), rule, scored);
      }
      ceiling = Math.max(ceiling, score);
    }
    return ceiling;
  }

  /** Whether the rule's negative keywords keep it from answering `question`. */
  refuses(ruleId: string, question: string): boolean {
    return this.policies.refuses(ruleId, question);
  }

  private candidatesOf(question: string, nowMs: number, terms?: TextTerms): Candidate[] {
    const [key, scored] = this.scoredQuestion(question, nowMs, terms);
    return this.explain(key, scored, this.calibrationOffset);
  }

  /** The terms the scorer reads for `question` (after the synonyms' rewriting). */
  private questionTerms(question: string): TextTerms {
    return textTerms(this.synonymTable.isEmpty ? question : this.synonymTable.rewrite(question));
  }

  /**
   * `question` scored by the ranking, and its normalised text (what fuse.js compares).
   * `terms`: `questionTerms(question)`, passed when the caller has them already.
   */
  private scoredQuestion(
    question: string,
    nowMs: number,
    terms = this.questionTerms(question),
  ): [string, ScoredQuestion] {
    const scored = this.scorer.score(terms, nowMs);
    // Without synonyms the scorer normalised the question already (decision 164); with them it
    // saw the rewritten text, and fuse.js compares the question as asked.
    return [this.synonymTable.isEmpty ? scored.key : normalizeText(question), scored];
  }

  private decideFrom(
    question: string,
    candidates: Candidate[],
    nowMs: number,
    settings: MatchSettings,
  ): MatchDecision {
    if (!this.policies.isEmpty) return this.policies.decide(question, candidates, nowMs, settings);
    return decide(candidates, settings);
  }

  matchExact(question: string, nowMs: number): MatchDecision | undefined {
    // A policy (exact, contains, negative keywords) may take the question elsewhere.
    if (!this.policies.isEmpty) return undefined;
    return this.exactMatch(this.questionTerms(question).key, nowMs);
  }

  /** `matchExact` for the question's normalised (and rewritten) text, `key`; no policies. */
  private exactMatch(key: string, nowMs: number): MatchDecision | undefined {
    let found: { slot: number; phrasing: number } | undefined;
    // The same phrasings and eligibility the scorer marks `exact`, which `explain` scores 1
    // and `decide` answers BESTMATCH unless a second rule also has it.
    for (const phrasing of this.store.exactPhrasings(key)) {
      const slot = this.store.phrasingRule[phrasing] ?? -1;
      if (slot < 0 || !this.store.isEligible(slot, nowMs) || found?.slot === slot) continue;
      if (found) return undefined;
      found = { slot, phrasing };
    }
    if (!found) return undefined;
    const top: Candidate = {
      ruleId: this.store.ruleIdAt(found.slot) ?? '',
      question: this.store.phrasingText(found.phrasing),
      score: 1,
      parts: {},
    };
    return { kind: 'bestmatch', top, candidates: [top] };
  }

  /**
   * Limits no calibration may lift: a rule that explains too little of the question's content
   * is not a candidate (it shares the question's frame or one word: "Do you sell laptops?"
   * against "Do you sell gift cards?"); a one-term question ("退", "refund") is a fragment, a
   * guess at best; and so is a question of which the rule explains all but which explains
   * little of the rule ("杭州到上海" against "帮我订一张杭州到上海的机票", "你叫什么名字" against
   * "你叫什么名字翻译一下"): the words it lacks are what the rule is about.
   */
  private gate(score: number, rule: ScoredRule, question: ScoredQuestion): number {
    // Nothing of the content found (only the frame), or one content term against at least as
    // much content the knowledge base has never seen.
    const unknown = question.unknownContent;
    const unrelated =
      rule.contentTerms === 0
        ? unknown >= UNKNOWN_CONTENT_MIN
        : rule.contentTerms === 1 && unknown >= UNKNOWN_CONTENT_MIN && unknown >= rule.contentFound;
    if (unrelated) return Math.min(score, UNRELATED_SCORE);
    if (question.termCount <= 1) return Math.min(score, FRAGMENT_SCORE);
    const partial = rule.coreReverse < PARTIAL_CORE && rule.reverse < PARTIAL_PHRASING;
    if (partial && this.selfCalibrating) {
      return Math.min(score, PARTIAL_SCORE);
    }
    return score;
  }

  /**
   * One self-test question: the phrasing `phrasing` asked against the knowledge base without
   * it, scored by the offline model alone (offset 0).
   */
  probe(phrasing: number, nowMs: number, offset = 0): Candidate[] {
    const text = this.store.phrasingText(phrasing);
    if (this.synonymTable.isEmpty) {
      const scored = this.scorer.score(text, nowMs, phrasing);
      return this.explain(scored.key, scored, offset);
    }
    const rewritten = this.synonymTable.rewrite(text);
    return this.explain(normalizeText(text), this.scorer.score(rewritten, nowMs, phrasing), offset);
  }

  /** The live phrasings (names included) with their rule ids, for the self-test. */
  get ruleStore(): RuleStore {
    return this.store;
  }

  /**
   * Candidates in the scorer's ranking order, each with its calibrated score. Calibration reads
   * confidence, it does not re-rank: sorting by calibrated score cost 1–1.5 points of R@3 on
   * the development sets. Scores are made non-increasing along the ranking, so that "by
   * descending score" and "by rank" are the same list.
   */
  private explain(
    key: string,
    question: ScoredQuestion,
    offset: number,
    /** The two leading rules' similarities taken as these instead (`decideKind`'s bounds). */
    assumed?: readonly [number, number],
  ): Candidate[] {
    const { rules: scored, baseline } = question;
    // Bounds read the decision's kind, which only the two leading candidates decide.
    const ranked = scored.slice(0, assumed === undefined ? EXPLAIN_COUNT : FUZZY_RULES);
    const leader = ranked[0];
    // fuse.js (Bitap, ~0.1 ms per phrasing) on the closest phrasings of the two leading rules
    // only: a confidence signal for the answer about to be given, measured the same way for the
    // runner-up it must clearly beat.
    let fuzzy: number[];
    if (assumed === undefined) {
      const fuzzyRules = ranked.slice(0, FUZZY_RULES).filter((rule) => !rule.exact);
      const similarities = fuzzySimilarities(
        key,
        fuzzyRules.map((rule) => normalizeText(this.store.phrasingText(rule.phrasing))),
      );
      fuzzy = ranked.map((rule) => similarities[fuzzyRules.indexOf(rule)] ?? 0);
    } else {
      // An exact rule's score is 1 whatever its similarity: only the others read these.
      fuzzy = ranked.map((_, i) => (i < FUZZY_RULES ? (assumed[i] ?? 0) : 0));
    }
    const bestRaw = leader?.raw ?? 0;
    const secondRaw = Math.max(scored[1]?.raw ?? baseline, baseline);
    // The rules' share of the ranking evidence: a softmax over the ranking scores of every
    // eligible rule, those not scored counted at the baseline (they share nothing with the
    // question). In a large knowledge base a lead must be large to take the belief.
    const unscored = Math.max(0, this.store.size - scored.length);
    let evidence = unscored * Math.exp(Math.min(0, baseline - bestRaw));
    for (const rule of scored) evidence += Math.exp(rule.raw - bestRaw);
    let ceiling = 1;
    return ranked.map((rule, i): Candidate => {
      const lead = i === 0 ? bestRaw - secondRaw : rule.raw - bestRaw;
      const posterior = Number.isFinite(rule.raw) ? Math.exp(rule.raw - bestRaw) / evidence : 0;
      const fuzzySimilarity = fuzzy[i] ?? 0;
      const calibrated = rule.exact
        ? 1
        : calibrate(
            {
              margin: lead,
              closest: rule.closest,
              coverage: rule.coverage,
              fuzzy: fuzzySimilarity,
              posterior,
            },
            offset,
          );
      const score = Math.min(ceiling, rule.exact ? 1 : this.gate(calibrated, rule, question));
      ceiling = score;
      return {
        ruleId: this.store.ruleIdAt(rule.slot) ?? '',
        question: this.store.phrasingText(rule.phrasing),
        score,
        parts: {
          naiveBayes: rule.naiveBayes,
          cosine: rule.cosine,
          closest: rule.closest,
          coverage: rule.coverage,
          content: rule.contentCoverage,
          reverse: rule.reverse,
          coreReverse: rule.coreReverse,
          fuzzy: fuzzySimilarity,
          posterior,
          lead,
          offset,
        },
      };
    });
  }
}

const kindOf = (decision: MatchDecision): DecidedKind => ({
  kind: decision.kind,
  ruleId: decision.kind === 'bestmatch' ? decision.top.ruleId : null,
});

/** Longest slice of the collision report's probing between turns of the event loop. */
const SLICE_MS = 5;
/** Runs of the collision report restarted by writes before it reports what it has. */
const COLLISION_ATTEMPTS = 3;

/** Creates an empty index for one robot. */
export function createRobotIndex(options: RobotIndexOptions = {}): SynonymAwareRobotIndex {
  return new MatchingIndex(options);
}

function matchingIndex(index: RobotIndex): MatchingIndex {
  if (!(index instanceof MatchingIndex)) throw new Error('not an index of this engine');
  return index;
}

/** The bytes of an index made by `createRobotIndex` (for `loadRobotIndex`). */
export function saveRobotIndex(index: RobotIndex): Uint8Array {
  return matchingIndex(index).snapshot().toBytes();
}

/**
 * Streams the bytes `saveRobotIndex` would return to `sink`, piece by piece (mostly views on
 * the index's own arrays, valid only during the call): saving needs little extra memory.
 * Returns the length written.
 */
export function writeRobotIndex(index: RobotIndex, sink: (chunk: Uint8Array) => void): number {
  return matchingIndex(index).snapshot().write(sink);
}

/**
 * Opens saved index bytes. Returns null when they were written by an engine that tokenises or
 * weighs differently (the caller then re-indexes); throws when the bytes are damaged.
 */
export function loadRobotIndex(bytes: Uint8Array<ArrayBuffer>): SynonymAwareRobotIndex | null {
  return MatchingIndex.load(bytes);
}

/**
 * `writeRobotIndex` in slices of a few milliseconds, `pause` between them (the next turn of the
 * event loop): a 10k-rule index is written without holding the loop. The index must not change
 * until the promise settles (the caller checks its `version` and discards the bytes if it did).
 */
export function writeRobotIndexInSlices(
  index: RobotIndex,
  sink: (chunk: Uint8Array) => void,
  pause: () => Promise<void>,
): Promise<number> {
  return matchingIndex(index).snapshot().writeInSlices(sink, pause);
}
