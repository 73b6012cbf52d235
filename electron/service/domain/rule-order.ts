/**
 * The creation order of one robot's rules, in memory: the sorted `rule_seq` of every rule of the
 * robot. A page of the list route is then a keyed seek (`rule_seq >= first of the page`) instead
 * of an SQL OFFSET that walks every rule before the page, and the total is its length instead of
 * a COUNT over the robot's rules. Built on first use, then kept in step by every write that adds
 * or removes rules (import, create, delete, restore).
 * @module
 */

export class RuleOrder {
  /** Ascending rule_seq values. */
  private readonly seqs: number[];

  constructor(seqs: number[]) {
    this.seqs = seqs;
  }

  get size(): number {
    return this.seqs.length;
  }

  /** The rule_seq values of positions [start, start + count). */
  slice(start: number, count: number): number[] {
    return this.seqs.slice(start, start + count);
  }

  add(seq: number): void {
    const seqs = this.seqs;
    const last = seqs[seqs.length - 1];
    if (last === undefined || seq > last) {
      seqs.push(seq);
      return;
    }
    const at = this.lowerBound(seq);
    if (seqs[at] !== seq) seqs.splice(at, 0, seq);
  }

  /** Adds seqs; a run above the current last one (an import) is appended in one step. */
  addAll(seqs: readonly number[]): void {
    const last = this.seqs[this.seqs.length - 1];
    const ascendingAfterLast =
      (last === undefined || (seqs[0] ?? Infinity) > last) &&
      seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number));
    if (ascendingAfterLast) this.seqs.push(...seqs);
    else for (const seq of seqs) this.add(seq);
  }

  remove(seq: number): void {
    const at = this.lowerBound(seq);
    if (this.seqs[at] === seq) this.seqs.splice(at, 1);
  }

  removeAll(seqs: readonly number[]): void {
    if (seqs.length <= 8) {
      for (const seq of seqs) this.remove(seq);
      return;
    }
    // One pass instead of one splice (a move of the whole tail) per rule.
    const gone = new Set(seqs);
    let kept = 0;
    for (const seq of this.seqs) if (!gone.has(seq)) this.seqs[kept++] = seq;
    this.seqs.length = kept;
  }

  /** First position whose seq is >= `seq`. */
  private lowerBound(seq: number): number {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.seqs[mid] as number) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Each robot's rule order, once a list has needed it (keyed by `robotKey`). */
export class RuleOrders {
  private readonly orders = new Map<string, RuleOrder>();

  get(key: string): RuleOrder | undefined {
    return this.orders.get(key);
  }

  set(key: string, order: RuleOrder | undefined): void {
    if (order) this.orders.set(key, order);
    else this.orders.delete(key);
  }

  clear(): void {
    this.orders.clear();
  }
}
