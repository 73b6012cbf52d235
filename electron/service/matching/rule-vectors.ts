/**
 * One index's rules as vectors: each rule's phrasings (its name included, as the lexical index
 * counts it) as rows of the robot's vector space, and the exact search for the rules nearest a
 * question (the best phrasing per rule, by cosine). It follows the index's writes through
 * `RuleObserver` (an upsert or remove mirrors the lexical index's), so it knows the same rules,
 * switched on or off and in or out of their windows, as the lexical channel does.
 * @module
 */
import { TopK } from './top-k';
import type { MatchableRule, RuleObserver } from './types';
import type { QuantizedVector, Scan, VectorSpace } from './vector-space';

interface RuleRows {
  ruleId: string;
  /** Rows of the rule's distinct texts (name and phrasings) in the space. */
  rows: number[];
  active: boolean;
  begin: number;
  end: number;
  /** Written since these rows were made: they may be of texts the rule no longer has. */
  stale: boolean;
}

/** A rule near the question: its best phrasing and that phrasing's cosine. */
export interface VectorHit {
  ruleId: string;
  /** The phrasing (or name) nearest the question, as written. */
  question: string;
  cosine: number;
}

/** What a search found: the nearest rules, best first, and any rule's best cosine. */
export interface VectorSearch {
  hits: VectorHit[];
  /** The best phrasing of a rule held, eligible and with a vector (else undefined). */
  cosineOf(ruleId: string): VectorHit | undefined;
  /** Rows compared. */
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

/** Rows a search first takes per rule wanted (rules with many near phrasings take several). */
const ROWS_PER_RULE = 4;

export class RuleVectors implements RuleObserver {
  private readonly rules = new Map<string, RuleRows>();
  /** The rule holding each row, by row, or the rules when a text is in several. */
  private readonly holders: (RuleRows | RuleRows[] | undefined)[] = [];
  private readonly top = new TopK(64);
  /** Bumped by every rule change. */
  version = 0;
  /**
   * Ids of rules written since their rows were last followed, oldest first from `writtenHead`
   * (semantic-index.ts queues the writes; an id may come several times). An array, not a Set:
   * a Set's add cost ~3 µs a rule at 100k on an import's write path, a push nothing.
   */
  private written: string[] = [];
  private writtenHead = 0;

  constructor(readonly space: VectorSpace) {}

  get size(): number {
    return this.rules.size;
  }

  upsert(rule: MatchableRule): void {
    const rows = textsOf(rule).map((text) => this.space.hold(text));
    this.drop(rule.ruleId);
    const held: RuleRows = {
      ruleId: rule.ruleId,
      rows,
      active: rule.active,
      begin: rule.effectBeginMs ?? -Infinity,
      end: rule.effectEndMs ?? Infinity,
      stale: false,
    };
    this.rules.set(rule.ruleId, held);
    for (const row of rows) {
      const holder = this.holders[row];
      if (holder === undefined) this.holders[row] = held;
      else if (Array.isArray(holder)) holder.push(held);
      else this.holders[row] = [holder, held];
    }
    this.version += 1;
  }

  remove(ruleId: string): void {
    if (!this.drop(ruleId)) return;
    this.version += 1;
  }

  /** Lets go of every row (the index is no longer used). */
  clear(): void {
    for (const ruleId of [...this.rules.keys()]) this.drop(ruleId);
    this.written = [];
    this.writtenHead = 0;
    this.version += 1;
  }

  private drop(ruleId: string): boolean {
    const old = this.rules.get(ruleId);
    if (!old) return false;
    for (const row of old.rows) {
      const holder = this.holders[row];
      if (Array.isArray(holder)) {
        const left = holder.filter((held) => held !== old);
        this.holders[row] = left.length > 1 ? left : left[0];
      } else if (holder === old) this.holders[row] = undefined;
      this.space.release(row);
    }
    this.rules.delete(ruleId);
    return true;
  }

  /**
   * A write to the rule, to be followed later (`nextWritten`): until then no search finds it by
   * the rows it has now.
   */
  markWritten(ruleId: string): void {
    const held = this.rules.get(ruleId);
    if (held) held.stale = true;
    this.written.push(ruleId);
  }

  /** Writes marked and not taken yet (a rule written twice counts twice). */
  get unfollowed(): number {
    return this.written.length - this.writtenHead;
  }

  /** The oldest write not taken yet (its rule to be followed as the index holds it now). */
  nextWritten(): string | undefined {
    if (this.writtenHead >= this.written.length) return undefined;
    const ruleId = this.written[this.writtenHead++];
    if (this.writtenHead === this.written.length) {
      this.written = [];
      this.writtenHead = 0;
    } else if (this.writtenHead > 4096 && this.writtenHead * 2 > this.written.length) {
      this.written = this.written.slice(this.writtenHead);
      this.writtenHead = 0;
    }
    return ruleId;
  }

  /** Whether the rule was written since its rows were made. */
  isStale(ruleId: string): boolean {
    return this.rules.get(ruleId)?.stale === true;
  }

  /** Whether the rule is held, switched on and in its window at `nowMs`. */
  isEligible(ruleId: string, nowMs: number): boolean {
    const rule = this.rules.get(ruleId);
    return rule !== undefined && this.eligible(rule, nowMs);
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

  private eligible(rule: RuleRows, nowMs: number): boolean {
    return rule.active && !(nowMs < rule.begin) && !(nowMs > rule.end) && !rule.stale;
  }

  /**
   * The `k` eligible rules nearest `query`, best first, each by its best phrasing: exact (every
   * row scored by the space's kernel), or in a large space the rows of the inverted lists nearest
   * the query (vector-lists.ts), then every row if those hold fewer than `k` eligible rules.
   * `leftOut`: a phrasing not to count for its rule (the self-test's leave-one-out). Rules are
   * read off the best rows (a heap of a few per rule wanted, widened when rules met are not
   * eligible or hold several of them).
   */
  search(query: QuantizedVector, k: number, nowMs: number, leftOut?: LeftOut): VectorSearch {
    const space = this.space;
    let scanned = space.scanNear(query);
    let hits = this.best(scanned, k, nowMs, leftOut);
    if (hits.length < k && scanned.ids !== null) {
      const cosines = space.scan(query);
      scanned = { cosines, values: cosines, ids: null, count: space.rows };
      hits = this.best(scanned, k, nowMs, leftOut);
    }
    const scan = space.scans;
    const cosines = scanned.cosines;
    const cosineOf = (ruleId: string): VectorHit | undefined => {
      const rule = this.rules.get(ruleId);
      if (!rule || !this.eligible(rule, nowMs)) return undefined;
      let best: VectorHit | undefined;
      if (space.scans === scan) space.scoreAlso(rule.rows, query);
      for (const row of rule.rows) {
        if (!space.has(row)) continue;
        if (leftOut !== undefined && leftOut.row === row && leftOut.ruleId === ruleId) continue;
        const cosine =
          space.scans === scan && space.scored(row)
            ? (cosines[row] as number)
            : space.cosine(query, row);
        if (best === undefined || cosine > best.cosine) {
          best = { ruleId, question: space.textOf(row), cosine };
        }
      }
      return best;
    };
    return { hits, cosineOf, compared: scanned.count };
  }

  /** The `k` best eligible rules among the rows a scan scored. */
  private best(scanned: Scan, k: number, nowMs: number, leftOut?: LeftOut): VectorHit[] {
    const space = this.space;
    const { values, ids, count } = scanned;
    const rowAt = (i: number): number => (ids === null ? i : (ids[i] as number));
    const top = this.top;
    const hits: VectorHit[] = [];
    const found = new Set<string>();
    let want = Math.max(16, k * ROWS_PER_RULE);
    for (;;) {
      // The heap holds places in the scan (a row is `rowAt` of its place).
      top.reset(want);
      for (let i = 0; i < count; i += 1) {
        const cosine = values[i] as number;
        if (!top.wouldTake(cosine)) continue;
        const row = rowAt(i);
        if (space.has(row) && this.holders[row] !== undefined) top.push(i, cosine);
      }
      const best = top
        .items()
        .sort((a, b) => (values[b] as number) - (values[a] as number) || rowAt(a) - rowAt(b));
      hits.length = 0;
      found.clear();
      for (const place of best) {
        const row = rowAt(place);
        const holder = this.holders[row];
        for (const rule of Array.isArray(holder) ? holder : holder ? [holder] : []) {
          if (found.has(rule.ruleId) || !this.eligible(rule, nowMs)) continue;
          if (leftOut !== undefined && leftOut.row === row && leftOut.ruleId === rule.ruleId) {
            continue;
          }
          found.add(rule.ruleId);
          hits.push({
            ruleId: rule.ruleId,
            question: space.textOf(row),
            cosine: values[place] as number,
          });
          if (hits.length >= k) break;
        }
        if (hits.length >= k) break;
      }
      if (hits.length >= k || top.size < want || want >= count) break;
      want *= 4;
    }
    return hits;
  }
}
