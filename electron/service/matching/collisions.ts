/**
 * The collision report for editors. Every phrasing is asked twice: as it is, with the decision
 * ask makes (the same scoring, policies and robot settings), and against the knowledge base
 * without it (the self-test's leave-one-out probe). What the first finds are facts: the phrasing
 * gets another rule's answer, or no rule's. What the second finds are risks, said as such: the
 * phrasing reads more like another rule than like its own rule's other phrasings (other wordings
 * of it may go there), or two rules are probably the same question. A claim about what asking
 * gives is made only when asking gives it.
 *
 * Rules whose phrasings differ only by the word that tells them apart (slot-variants.ts: a
 * product, a city, a plan) are not in conflict: the question names the one it means. Such a pair
 * is reported only when the question without that word gets one of the two outright (BESTMATCH)
 * instead of a choice between them, which is checked by asking it.
 *
 * Similarity scores are those of the offline calibration (no robot offset): how alike two texts
 * read, whatever the knowledge base.
 * @module
 */
import { normalizeText } from './normalize';
import type { ProbeTarget } from './self-test';
import { decidingWords } from './slot-variants';
import type {
  CollisionCause,
  CollisionReport,
  MatchDecision,
  MatchSettings,
  RuleCollision,
} from './types';

/** A phrasing reads like another rule when that rule comes first with at least this score. */
export const CONFLICT_MIN_SCORE = 0.3;
/**
 * The same when the own rule is not a candidate at all without the phrasing (chosen on the
 * development sets: no wrong answer predicted is lost, docs/matching.md).
 */
export const MISPLACED_MIN_SCORE = 0.7;
/** Two rules are near duplicates when one's phrasing gives the other at least this score. */
export const DUPLICATE_MIN_SCORE = 0.9;

/** The order of the report: facts first, then risks. */
const CAUSE_ORDER: readonly CollisionCause[] = [
  'asked-elsewhere',
  'asked-unanswered',
  'slot-unnamed',
  'reads-like-other',
  'near-duplicate',
];

/** What a collision run needs from the index. */
export interface CollisionTarget extends ProbeTarget {
  /**
   * The decision ask makes for `question` (scoring, policies, settings), without the recent-
   * question table: the report's checks must not crowd real questions out of it.
   */
  decide(question: string, nowMs: number, settings: MatchSettings): MatchDecision;
  /** Whether the rule's negative keywords keep it from answering `question`. */
  refuses(ruleId: string, question: string): boolean;
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** The answer's rule (BESTMATCH), else the first candidate's. */
function askedOf(question: string, decision: MatchDecision) {
  const first = decision.kind === 'bestmatch' ? decision.top : decision.candidates[0];
  return { question, decision: decision.kind, ruleId: first?.ruleId ?? null };
}

/**
 * A collision report made in steps (`step` runs for a time budget), so that a large knowledge
 * base is checked between questions instead of blocking them.
 */
export class CollisionRun {
  private next = 0;
  private probed = 0;
  /** Facts found by asking the phrasings, each once (a phrasing two rules share: once). */
  private readonly asked = new Map<string, RuleCollision>();
  /** Slot pairs whose question without the word is answered outright: once per pair. */
  private readonly slots = new Map<string, RuleCollision>();
  private readonly readsLike: RuleCollision[] = [];
  /** Once per pair, the most alike. */
  private readonly duplicates = new Map<string, RuleCollision>();
  /** The phrasings of every rule (names included), by rule id: made when first needed. */
  private phrasingsOf: Map<string, number[]> | null = null;
  /** Questions without their slot word, asked once each. */
  private readonly frames = new Map<string, MatchDecision>();

  constructor(
    private readonly target: CollisionTarget,
    private readonly phrasings: readonly number[],
    private readonly nowMs: number,
    private readonly settings: MatchSettings,
  ) {}

  get done(): boolean {
    return this.next >= this.phrasings.length;
  }

  /** Checks phrasings for about `budgetMs` (at least one); returns whether the run is complete. */
  step(budgetMs = Infinity): boolean {
    const start = performance.now();
    while (!this.done) {
      this.check(this.phrasings[this.next] as number);
      this.next += 1;
      if (performance.now() - start >= budgetMs) break;
    }
    return this.done;
  }

  private check(phrasing: number): void {
    const store = this.target.ruleStore;
    const slot = store.phrasingRule[phrasing] ?? -1;
    const ruleId = store.ruleIdAt(slot);
    // A rule switched off, outside its window or matched only by its policy is not scored: its
    // phrasings are nobody's question to lose.
    if (ruleId === undefined || !store.isEligible(slot, this.nowMs)) return;
    const question = store.phrasingText(phrasing);
    if (normalizeText(question) === '') return;
    this.probed += 1;
    const decision = this.target.decide(question, this.nowMs, this.settings);
    if (decision.kind !== 'bestmatch' || decision.top.ruleId !== ruleId) {
      this.askedFinding(ruleId, question, decision);
      return;
    }
    // Asked against the rules without it (the self-test's probe); a rule whose negative
    // keyword the phrasing holds could never answer it, whatever its score.
    const candidates = this.target.probe(phrasing, this.nowMs);
    const ownRank = candidates.findIndex((candidate) => candidate.ruleId === ruleId);
    const rivalRank = candidates.findIndex(
      (candidate) =>
        candidate.ruleId !== ruleId && !this.target.refuses(candidate.ruleId, question),
    );
    const rival = candidates[rivalRank];
    if (rival === undefined) return;
    const hasOthers = (store.rulePhrasingCount[slot] ?? 0) > 1;
    // Reads like the other rule: without it, the phrasing goes to the other rule while its own
    // is still a candidate (the two compete for what it asks). When the own rule is not a
    // candidate at all, the phrasing is its only one of the kind and its probe a near miss, as
    // for a rule with one phrasing: reported only when the other rule takes it clearly (the
    // phrasing may be in the wrong rule).
    const readsLike =
      rival.score >= CONFLICT_MIN_SCORE &&
      (ownRank > rivalRank || (ownRank < 0 && hasOthers && rival.score >= MISPLACED_MIN_SCORE));
    const duplicate = rival.score >= DUPLICATE_MIN_SCORE;
    if (!readsLike && !duplicate) return;
    const finding = {
      ruleId,
      question,
      otherRuleId: rival.ruleId,
      otherQuestion: rival.question,
      score: rival.score,
    };
    const slotWords = decidingWords(
      question,
      rival.question,
      this.textsOf(ruleId),
      this.textsOf(rival.ruleId),
    );
    if (slotWords) {
      // Told apart by a word: no conflict, unless customers who do not say it get no choice.
      if (slotWords.named) this.slotFinding(finding, slotWords.words, slotWords.frame);
      return;
    }
    const pair = pairKey(ruleId, rival.ruleId);
    if (duplicate && (this.duplicates.get(pair)?.score ?? -1) < rival.score) {
      this.duplicates.set(pair, { cause: 'near-duplicate', ...finding });
    }
    if (readsLike) this.readsLike.push({ cause: 'reads-like-other', ...finding });
  }

  /**
   * The phrasing asked as it is does not get its own rule: a fact, with the rule that answers it
   * or is offered first instead (the rule itself when none is: its own negative keyword leaves
   * the phrasing unanswered, which concerns no other rule).
   */
  private askedFinding(ruleId: string, question: string, decision: MatchDecision): void {
    const keyword = decision.excluded?.find((e) => e.ruleId === ruleId)?.keyword;
    const other =
      decision.kind === 'bestmatch'
        ? decision.top
        : decision.kind === 'recommend'
          ? decision.items.find((item) => item.ruleId !== ruleId)
          : undefined;
    if (other === undefined && keyword === undefined) return;
    const cause = decision.kind === 'bestmatch' ? 'asked-elsewhere' : 'asked-unanswered';
    // A phrasing two rules share is found from both sides: one finding.
    const shared = other !== undefined && normalizeText(other.question) === normalizeText(question);
    const key = shared
      ? `${pairKey(ruleId, other.ruleId)}\u0000${normalizeText(question)}`
      : `${ruleId}\u0000${question}`;
    if (this.asked.has(key)) return;
    this.asked.set(key, {
      cause,
      ruleId,
      question,
      otherRuleId: other?.ruleId ?? ruleId,
      otherQuestion: other?.question ?? question,
      score: other?.score ?? decision.candidates[0]?.score ?? 0,
      asked: askedOf(question, decision),
      ...(keyword !== undefined ? { keyword } : {}),
    });
  }

  /**
   * Two rules told apart by a word: in conflict only when the question without it is answered
   * outright by one of them (customers who do not say which get no choice).
   */
  private slotFinding(
    finding: Omit<RuleCollision, 'cause'>,
    words: [string, string],
    frame: string,
  ): void {
    const pair = pairKey(finding.ruleId, finding.otherRuleId);
    if (frame === '' || this.slots.has(pair)) return;
    let decision = this.frames.get(frame);
    if (decision === undefined) {
      decision = this.target.decide(frame, this.nowMs, this.settings);
      this.frames.set(frame, decision);
    }
    if (decision.kind !== 'bestmatch') return;
    const answered = decision.top.ruleId;
    if (answered !== finding.ruleId && answered !== finding.otherRuleId) return;
    this.slots.set(pair, {
      ...finding,
      cause: 'slot-unnamed',
      score: decision.top.score,
      asked: askedOf(frame, decision),
      words,
    });
  }

  /** The texts of a rule (phrasings and name), as written. */
  private textsOf(ruleId: string): string[] {
    const store = this.target.ruleStore;
    if (this.phrasingsOf === null) {
      const byRule = new Map<string, number[]>();
      for (let p = 0; p < store.phrasingTotal; p += 1) {
        const id = store.ruleIdAt(store.phrasingRule[p] ?? -1);
        if (id === undefined) continue;
        const list = byRule.get(id);
        if (list) list.push(p);
        else byRule.set(id, [p]);
      }
      this.phrasingsOf = byRule;
    }
    return (this.phrasingsOf.get(ruleId) ?? []).map((p) => store.phrasingText(p));
  }

  report(complete: boolean): CollisionReport {
    const duplicatePairs = new Set(this.duplicates.keys());
    const findings = [
      ...this.asked.values(),
      ...this.slots.values(),
      // A pair of near duplicates is said once, as that.
      ...this.readsLike.filter((f) => !duplicatePairs.has(pairKey(f.ruleId, f.otherRuleId))),
      ...this.duplicates.values(),
    ];
    findings.sort(
      (a, b) =>
        CAUSE_ORDER.indexOf(a.cause) - CAUSE_ORDER.indexOf(b.cause) ||
        b.score - a.score ||
        a.ruleId.localeCompare(b.ruleId) ||
        a.question.localeCompare(b.question),
    );
    return { probed: this.probed, complete, findings };
  }
}
