/**
 * The robot's self-test: each phrasing (a sample of them in large knowledge bases) is asked as
 * a question against the knowledge base without it (leave-one-out). What comes back says how
 * this robot's rules behave: how often a phrasing still finds its own rule, and how high a wrong
 * rule scores when the right one is weak or absent (a rule with one phrasing leaves nothing
 * behind, so its probe is a near miss: a question this knowledge base does not answer). The
 * calibration (self-calibration.ts) and the collision report (collisions.ts) are read from it.
 * @module
 */
import { calibrationLogit } from './calibrate';
import type { RuleStore } from './rule-store';
import type { Candidate } from './types';

/** A logit for "as sure as can be" (an exact phrasing of another rule). */
export const CERTAIN_LOGIT = 8;

/** One phrasing asked against the rest of the knowledge base. */
export interface Probe {
  ruleId: string;
  /** The phrasing as the author wrote it (or the rule's name). */
  question: string;
  /** The rule has other phrasings left to be found by. */
  ruleHasOthers: boolean;
  /** The best rule and its score before the robot's calibration (offset 0). */
  topRuleId: string | null;
  topScore: number;
  /** Log-odds of the best rule under the offline model (CERTAIN_LOGIT for an exact phrasing). */
  topLogit: number;
  /** The same for the second best rule (−CERTAIN_LOGIT when there is none). */
  secondLogit: number;
  /** The own rule's score and its rank (0 first, −1 not among the candidates). */
  ownScore: number;
  ownRank: number;
  /** The best other rule: its id, closest phrasing and score. */
  rival: { ruleId: string; question: string; score: number } | null;
}

/** What a probe needs from the index. */
export interface ProbeTarget {
  readonly ruleStore: RuleStore;
  /** The candidates for phrasing `phrasing` asked without it, scored with offset 0. */
  probe(phrasing: number, nowMs: number): Candidate[];
}

/** The logit of a candidate from its parts (the inputs the calibration was given). */
export function candidateLogit(candidate: Candidate): number {
  if (candidate.score >= 1) return CERTAIN_LOGIT;
  const parts = candidate.parts;
  return calibrationLogit({
    margin: parts.lead ?? 0,
    closest: parts.closest ?? 0,
    coverage: parts.coverage ?? 0,
    fuzzy: parts.fuzzy ?? 0,
    posterior: parts.posterior ?? 0,
  });
}

/**
 * The phrasings to probe, in a fixed order: all of them up to `limit`, else an even spread
 * (every k-th live phrasing), so that two runs over the same rules probe the same phrasings.
 */
export function probedPhrasings(store: RuleStore, limit: number): number[] {
  const rules = store.phrasingRule;
  const total = store.phrasingTotal;
  // Counted first, then picked in a second pass: at 100k rules the live phrasings are ~600k,
  // and a test restarts after every write that ends a quiet second (an import's batches).
  let live = 0;
  for (let p = 0; p < total; p += 1) if ((rules[p] ?? -1) >= 0) live += 1;
  const count = Math.min(live, limit);
  const picked: number[] = [];
  if (count === 0) return picked;
  const stride = live / limit;
  // The (i·stride)-th live phrasing for i = 0…count−1 (every one when they are few).
  let rank = 0;
  let wanted = 0;
  for (let p = 0; p < total && picked.length < count; p += 1) {
    if ((rules[p] ?? -1) < 0) continue;
    if (rank === wanted) {
      picked.push(p);
      wanted = live <= limit ? picked.length : Math.floor(picked.length * stride);
    }
    rank += 1;
  }
  return picked;
}

/** Asks one phrasing against the rest of the knowledge base. */
export function runProbe(target: ProbeTarget, phrasing: number, nowMs: number): Probe | null {
  const store = target.ruleStore;
  const slot = store.phrasingRule[phrasing] ?? -1;
  const ruleId = store.ruleIdAt(slot);
  if (ruleId === undefined) return null;
  const candidates = target.probe(phrasing, nowMs);
  const top = candidates[0];
  const ownRank = candidates.findIndex((candidate) => candidate.ruleId === ruleId);
  const rival = candidates.find((candidate) => candidate.ruleId !== ruleId);
  return {
    ruleId,
    question: store.phrasingText(phrasing),
    ruleHasOthers: (store.rulePhrasingCount[slot] ?? 0) > 1,
    topRuleId: top?.ruleId ?? null,
    topScore: top?.score ?? 0,
    topLogit: top === undefined ? -CERTAIN_LOGIT : candidateLogit(top),
    secondLogit: candidates[1] === undefined ? -CERTAIN_LOGIT : candidateLogit(candidates[1]),
    ownScore: ownRank >= 0 ? (candidates[ownRank]?.score ?? 0) : 0,
    ownRank,
    rival: rival ? { ruleId: rival.ruleId, question: rival.question, score: rival.score } : null,
  };
}

/**
 * A self-test spread over time: `step` runs probes until its time budget is spent, so that a
 * large knowledge base is tested between questions instead of blocking them.
 */
export class SelfTestRun {
  readonly probes: Probe[] = [];
  private next = 0;

  constructor(
    private readonly target: ProbeTarget,
    private readonly phrasings: readonly number[],
    private readonly nowMs: number,
  ) {}

  get done(): boolean {
    return this.next >= this.phrasings.length;
  }

  /** Runs probes for about `budgetMs` (at least one); returns whether the run is complete. */
  step(budgetMs = Infinity): boolean {
    const start = performance.now();
    while (!this.done) {
      const probe = runProbe(this.target, this.phrasings[this.next] as number, this.nowMs);
      this.next += 1;
      if (probe) this.probes.push(probe);
      if (performance.now() - start >= budgetMs) break;
    }
    return this.done;
  }
}
