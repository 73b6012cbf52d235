/**
 * One index's rules as vectors: each rule's phrasings (its name included, as the lexical index
 * counts it) as rows of the robot's vector space, and the exact search for the rules nearest a
 * question (the best phrasing per rule, by cosine). It follows the index's writes through
 * `RuleObserver` (an upsert or remove mirrors the lexical index's), so it knows the same rules,
 * switched on or off and in or out of their windows, as the lexical channel does.
 * @module
 */
import type { MatchableRule, RuleObserver } from './types';
import type { VectorSpace } from './vector-space';

interface RuleRows {
  ruleId: string;
  /** Rows of the rule's distinct texts (name and phrasings) in the space. */
  rows: number[];
  active: boolean;
  begin: number;
  end: number;
}

/** A rule near the question: its best phrasing and that phrasing's cosine. */
export interface VectorHit {
  ruleId: string;
  /** The phrasing (or name) nearest the question, as written. */
  question: string;
  cosine: number;
}

/** What a search found: the nearest rules, best first, and every eligible rule's best cosine. */
export interface VectorSearch {
  hits: VectorHit[];
  /** Best cosine of each eligible rule that has at least one vector. */
  cosines: Map<string, VectorHit>;
  /** Phrasings compared. */
  compared: number;
}

/** A phrasing left out of a search (the self-test's probe: its own text in its own rule). */
export interface LeftOut {
  ruleId: string;
  row: number;
}

const textsOf = (rule: MatchableRule): string[] => {
  const texts = new Set<string>();
  for (const text of [rule.ruleName, ...rule.questions]) {
    const trimmed = text.trim();
    if (trimmed !== '') texts.add(trimmed);
  }
  return [...texts];
};

export class RuleVectors implements RuleObserver {
  private readonly rules = new Map<string, RuleRows>();
  /** Rows compared in the current search: a text shared by rules is compared once. */
  private seen = new Int32Array(0);
  private seenCosine = new Float32Array(0);
  private stamp = 0;
  /** Bumped by every rule change. */
  version = 0;

  /** `changed`: told after every rule change (the embedder wakes up). */
  constructor(
    readonly space: VectorSpace,
    private readonly changed: () => void = () => undefined,
  ) {}

  get size(): number {
    return this.rules.size;
  }

  upsert(rule: MatchableRule): void {
    const rows = textsOf(rule).map((text) => this.space.hold(text));
    this.drop(rule.ruleId);
    this.rules.set(rule.ruleId, {
      ruleId: rule.ruleId,
      rows,
      active: rule.active,
      begin: rule.effectBeginMs ?? -Infinity,
      end: rule.effectEndMs ?? Infinity,
    });
    this.version += 1;
    this.changed();
  }

  remove(ruleId: string): void {
    if (!this.drop(ruleId)) return;
    this.version += 1;
    this.changed();
  }

  /** Lets go of every row (the index is no longer used). */
  clear(): void {
    for (const ruleId of [...this.rules.keys()]) this.drop(ruleId);
    this.version += 1;
  }

  private drop(ruleId: string): boolean {
    const old = this.rules.get(ruleId);
    if (!old) return false;
    for (const row of old.rows) this.space.release(row);
    this.rules.delete(ruleId);
    return true;
  }

  /** Whether the rule is held, switched on and in its window at `nowMs`. */
  isEligible(ruleId: string, nowMs: number): boolean {
    const rule = this.rules.get(ruleId);
    return rule !== undefined && rule.active && !(nowMs < rule.begin) && !(nowMs > rule.end);
  }

  /** Phrasings held and how many of them have their vector. */
  coverage(): { phrasings: number; embedded: number } {
    let phrasings = 0;
    let embedded = 0;
    for (const rule of this.rules.values()) {
      for (const row of rule.rows) {
        phrasings += 1;
        if (this.space.has(row)) embedded += 1;
      }
    }
    return { phrasings, embedded };
  }

  /** The rows (and rule) of each phrasing, for the self-test's probes. */
  phrasings(): { ruleId: string; row: number; others: number }[] {
    const out: { ruleId: string; row: number; others: number }[] = [];
    for (const rule of this.rules.values()) {
      for (const row of rule.rows)
        out.push({ ruleId: rule.ruleId, row, others: rule.rows.length - 1 });
    }
    return out;
  }

  /**
   * The `k` eligible rules nearest the unit vector `query` (exact: every phrasing compared), and
   * every eligible rule's best cosine. `leftOut`: a phrasing not to compare (leave-one-out).
   */
  search(query: Float32Array, k: number, nowMs: number, leftOut?: LeftOut): VectorSearch {
    const space = this.space;
    if (this.seen.length < space.size * 2 + 64) {
      const size = Math.max(space.size * 2 + 64, this.seen.length * 2);
      this.seen = new Int32Array(size);
      this.seenCosine = new Float32Array(size);
      this.stamp = 0;
    }
    this.stamp += 1;
    const stamp = this.stamp;
    const cosines = new Map<string, VectorHit>();
    const hits: VectorHit[] = [];
    let compared = 0;
    for (const rule of this.rules.values()) {
      if (!rule.active || nowMs < rule.begin || nowMs > rule.end) continue;
      let best = -Infinity;
      let bestRow = -1;
      const own = leftOut !== undefined && leftOut.ruleId === rule.ruleId;
      for (const row of rule.rows) {
        if ((own && row === leftOut.row) || !space.has(row)) continue;
        let cosine: number;
        if (row < this.seen.length && this.seen[row] === stamp) {
          cosine = this.seenCosine[row] as number;
        } else {
          cosine = space.cosine(query, row);
          compared += 1;
          if (row < this.seen.length) {
            this.seen[row] = stamp;
            this.seenCosine[row] = cosine;
          }
        }
        if (cosine > best) {
          best = cosine;
          bestRow = row;
        }
      }
      if (bestRow < 0) continue;
      const hit = { ruleId: rule.ruleId, question: space.textOf(bestRow), cosine: best };
      cosines.set(rule.ruleId, hit);
      // The k best so far, kept sorted (k is small).
      if (hits.length < k || best > (hits[hits.length - 1]?.cosine ?? -Infinity)) {
        let at = hits.length;
        while (at > 0 && (hits[at - 1]?.cosine ?? 0) < best) at -= 1;
        hits.splice(at, 0, hit);
        if (hits.length > k) hits.pop();
      }
    }
    return { hits, cosines, compared };
  }
}
