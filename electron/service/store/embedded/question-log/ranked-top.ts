/**
 * The best few of many keyed figures, kept ordered as the figures change (decision 129): the
 * inbox's groups as the inbox ranks them, the rules by hits. A change only marks its key; a read
 * first places the keys changed since the last read (a few comparisons each against the worst
 * kept), then returns the first page. The whole set is walked (a slice a turn) only at the first
 * read, after too many changes to track between two reads, or once decreases (a forgotten
 * group, a day's figures pruned) have shrunk the part known exactly below the page asked for:
 * figures only grow as asks arrive, so that is rare. Before it, a read of the inbox or of the
 * most hit rules walked every group or rule of the log each time.
 * @module
 */

/** Keys walked between two turns of the event loop when the whole set is walked. */
const WALK_SLICE = 4096;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface Ranked<V> {
  key: string;
  value: V;
}

export interface RankedTopSource<V> {
  /** A key's figure as it stands (a copy: it is kept as seen), undefined when it ranks nowhere. */
  valueOf(key: string): V | undefined;
  /** Negative when `a` ranks before `b`; never 0 for two keys (break ties by key). */
  order(a: Ranked<V>, b: Ranked<V>): number;
  /** Every key that may rank. */
  keys(): Iterable<string>;
}

export class RankedTop<V> {
  /** The best `exact` keys of all (every key that ranks when `all`), best first. */
  private kept: Ranked<V>[] = [];
  private readonly inKept = new Map<string, V>();
  /** How many of the best keys `kept` holds exactly (it holds no more). */
  private exact = 0;
  /** Whether `kept` holds every key that ranks. */
  private all = false;
  /** Keys changed since the last read; null: too many, or never read: walk them all. */
  private changed: Set<string> | null = null;
  private walking: Promise<void> | null = null;
  /** How many keys the last walk kept at most. */
  private room = 0;

  constructor(
    private readonly source: RankedTopSource<V>,
    /** How many keys are kept ordered (a page asked for beyond it walks every key). */
    private readonly capacity: number,
    /** Changes tracked between two reads before walking every key is cheaper. */
    private readonly changesMax = capacity * 8,
  ) {}

  /** A key's figure changed. */
  touch(key: string): void {
    const changed = this.changed;
    if (changed === null) return;
    changed.add(key);
    if (changed.size > this.changesMax) this.changed = null;
  }

  /** Forgets everything: the next read walks every key. */
  reset(): void {
    this.changed = null;
  }

  /** The best `limit` keys, best first. */
  async top(limit: number): Promise<Ranked<V>[]> {
    for (let walks = 0; ; walks++) {
      while (this.walking) await this.walking;
      if (this.changed !== null) {
        this.placeChanged();
        if (this.all || this.exact >= limit) return this.kept.slice(0, limit);
      }
      // Decreases under a churn of changes: what is known is returned rather than walk again.
      if (walks >= 2) return this.kept.slice(0, limit);
      const walking = this.walk(Math.max(limit, this.capacity));
      this.walking = walking;
      try {
        await walking;
      } finally {
        if (this.walking === walking) this.walking = null;
      }
    }
  }

  /** Walks every key (a slice a turn); changes meanwhile are marked and placed after it. */
  private async walk(capacity: number): Promise<void> {
    this.changed = new Set();
    this.room = capacity;
    const best: Ranked<V>[] = [];
    let seen = 0;
    let ranked = 0;
    for (const key of [...this.source.keys()]) {
      if (++seen % WALK_SLICE === 0) await nextTurn();
      const value = this.source.valueOf(key);
      if (value === undefined) continue;
      ranked += 1;
      this.insert(best, { key, value }, capacity);
    }
    this.kept = best;
    this.inKept.clear();
    for (const item of best) this.inKept.set(item.key, item.value);
    this.exact = best.length;
    this.all = ranked <= capacity;
  }

  /** Inserts in order; drops the worst beyond `capacity`. */
  private insert(into: Ranked<V>[], item: Ranked<V>, capacity: number): void {
    const worst = into[into.length - 1];
    if (into.length >= capacity && worst !== undefined && this.source.order(item, worst) >= 0) {
      return;
    }
    let low = 0;
    let high = into.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const other = into[mid] as Ranked<V>;
      if (this.source.order(item, other) < 0) high = mid;
      else low = mid + 1;
    }
    into.splice(low, 0, item);
    if (into.length > capacity) into.pop();
  }

  private remove(key: string): void {
    if (!this.inKept.has(key)) return;
    this.inKept.delete(key);
    const at = this.kept.findIndex((item) => item.key === key);
    if (at >= 0) this.kept.splice(at, 1);
  }

  /**
   * Places the keys changed since the last read. Those kept that fell go first: one still
   * ahead of the worst kept stays (every key not kept ranks after that one); otherwise it
   * leaves and the part known exactly shrinks to what is left. Then those that rose or came:
   * in when ahead of the worst kept (the worst then leaves), or when every key is kept.
   */
  private placeChanged(): void {
    const changed = this.changed;
    if (changed === null || changed.size === 0) return;
    this.changed = new Set();
    const rose: Ranked<V>[] = [];
    for (const key of changed) {
      const value = this.source.valueOf(key);
      const before = this.inKept.get(key);
      const was = this.inKept.has(key) ? { key, value: before as V } : undefined;
      const now = value === undefined ? undefined : { key, value };
      if (was && (now === undefined || this.source.order(now, was) > 0)) {
        const wasLast = this.kept[this.kept.length - 1]?.key === key;
        this.remove(key);
        if (now === undefined) {
          if (!this.all) this.exact = this.kept.length;
          continue;
        }
        const worst = this.kept[this.kept.length - 1];
        if (this.all || (!wasLast && worst !== undefined && this.source.order(now, worst) < 0)) {
          this.insert(this.kept, now, Number.MAX_SAFE_INTEGER);
          this.inKept.set(key, now.value);
        } else this.exact = this.kept.length;
      } else if (now) rose.push(now);
    }
    for (const item of rose) {
      this.remove(item.key);
      const worst = this.kept[this.kept.length - 1];
      const room = this.all || this.kept.length < this.exact;
      if (!room && (worst === undefined || this.source.order(item, worst) >= 0)) continue;
      this.insert(this.kept, item, Number.MAX_SAFE_INTEGER);
      this.inKept.set(item.key, item.value);
      const limit = this.all ? this.room : this.exact;
      if (this.kept.length > limit) {
        const dropped = this.kept.pop();
        if (dropped) this.inKept.delete(dropped.key);
        if (this.all) {
          this.all = false;
          this.exact = this.room;
        }
      }
    }
    if (this.all) this.exact = this.kept.length;
  }
}
