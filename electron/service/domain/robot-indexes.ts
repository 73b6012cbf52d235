/**
 * The matching indexes of the robots, in memory, keyed by robot (and by which edition of its
 * rules an index holds). An index follows every write of its rules (rule-changes.ts); an index
 * whose update threw half-way may no longer match the store: it is marked, never saved, and
 * rebuilt at the next start.
 *
 * With a memory budget (`--memory-budget`, docs/storage.md "Robots loaded on demand") the main
 * indexes are loaded on demand: `acquire` loads a robot's index when first asked (one load
 * however many ask at once), the least recently used ones leave memory when the estimated bytes
 * held pass the budget, and an index a request holds is never let go. A write to a robot that is
 * not in memory changes only the store (its index is read from there when it is loaded); a write
 * that lands while its index is loading is kept and applied once the load is done, so that an
 * unloaded robot never answers from an index that missed one. Editions other than the main one
 * (a robot's published index) stay in memory as before, and their bytes count in the budget:
 * main indexes are let go of to make room for them.
 *
 * Without a budget every index is kept, but one can still be left unbuilt until first asked
 * (`deferUntilAsked`: a robot copied from a bundle, whose index would double the import's memory
 * while nobody may ask it yet); it then follows the same load as under a budget.
 * @module
 */
import type { CreateRobotIndex, RobotIndex } from '../matching/types';
import { forEachInSlices } from '../time-slices';

/** How a robot's main index is read when it is not in memory (robot-loading.ts). */
export interface IndexLoader {
  /** The index of `key` as the store holds it now; null: no such robot (any more). */
  load(key: string): Promise<RobotIndex | null>;
  /** Called once an index left memory (the robot's other in-memory followers let go of it). */
  evicted?(key: string, index: RobotIndex): void;
  /**
   * Called for every write that reaches the robot of a main index, in memory or not, and when
   * its index is replaced or dropped (a file saved of it no longer holds).
   */
  changed?(key: string): void;
  /** Loads served from a saved file rather than built from the rules, since the start. */
  readonly openedFromFiles?: number;
  /**
   * The estimated bytes the index of `key` will hold once loaded (from its rule count), counted
   * in the budget from the load's start: room is made before the memory is taken, not after.
   */
  estimate?(key: string): number;
}

/**
 * Loads run at once at most: each holds what it reads (a saved file's buffer, or the rows and
 * the index being built) before it is counted as an index, so asks to many robots not in memory
 * would otherwise take that memory all at once (decision 158).
 */
export const LOADS_AT_ONCE = 2;

/** What `/metrics` shows of the indexes held (no label per robot). */
export interface IndexMemoryStatus {
  /** The budget in bytes; null: no budget (every index is loaded at start and kept). */
  budgetBytes: number | null;
  /** Main indexes in memory now. */
  loaded: number;
  /** Their estimated bytes. */
  bytes: number;
  /** Loads on demand since the start, and indexes let go to keep within the budget. */
  loads: number;
  evictions: number;
  /** Of the loads, those opened from the robot's saved index file (not built from its rules). */
  openedFromFiles: number;
  /** Bytes reserved by work beside the indexes (`reserve`: old versions' indexes, replays). */
  reservedBytes: number;
  /** Estimated bytes of indexes let go of that V8 has not collected yet (still counted). */
  uncollectedBytes: number;
}

/** Memory counted in the budget until `release` (idempotent). */
export interface MemoryReservation {
  release(): void;
}

/** An index held by a request: it stays in memory until `release`. */
export interface IndexLease {
  readonly index: RobotIndex;
  release(): void;
}

/**
 * A rule's estimated share of an index in memory, beside the bytes its typed arrays report:
 * measured as the heap grown by building 10,000-rule robots (tests/bench/memory-budget-bench.ts).
 */
export const BYTES_PER_RULE = 3_000;
/** An empty index (its maps, vocabulary, calibration). */
const BYTES_PER_INDEX = 64 * 1024;

/** The estimated bytes an index of `rules` rules holds. */
export const bytesForRules = (rules: number): number => BYTES_PER_INDEX + rules * BYTES_PER_RULE;

/** The estimated bytes an index holds. */
export const estimatedBytes = (index: RobotIndex): number => bytesForRules(index.size);

interface Loading {
  /** Updates of writes that landed during the load, applied in order once it is done. */
  pending: ((index: RobotIndex) => void | Promise<void>)[];
  done: Promise<RobotIndex | null>;
}

export interface OnDemand {
  budgetBytes: number;
  loader: IndexLoader;
}

const isMain = (key: string) => !key.includes('#');

export class RobotIndexes {
  private readonly indexes = new Map<string, RobotIndex>();
  private readonly tainted = new Set<string>();
  /** Main keys in memory, least recently asked first (a Map keeps insertion order). */
  private readonly recent = new Map<string, true>();
  private readonly pins = new Map<string, number>();
  private readonly loading = new Map<string, Loading>();
  /** Main keys without a budget whose index is built when first asked (`deferUntilAsked`). */
  private readonly deferred = new Map<string, IndexLoader['load']>();
  private loads = 0;
  private evictions = 0;
  private reserved = 0;
  /**
   * Indexes let go of stay counted until V8 collects them (decision 185): their memory is held
   * until a full collection, which comes late (it waits for enough growth), so a node that
   * counted only the indexes it holds went past its budget by the ones awaiting it.
   */
  private uncollected = 0;
  private readonly collected = new FinalizationRegistry<number>((bytes) => {
    this.uncollected -= bytes;
  });
  private loadsRunning = 0;
  /** Loads waiting for one of the `LOADS_AT_ONCE` slots, first come first served. */
  private readonly loadQueue: (() => void)[] = [];

  /** `onDemand` absent: every index is built at start and kept (the desktop's default). */
  constructor(
    private readonly createIndex: CreateRobotIndex,
    private readonly onDemand: OnDemand | null = null,
  ) {}

  /** True when main indexes are loaded when asked, not at start. */
  get loadsOnDemand(): boolean {
    return this.onDemand !== null;
  }

  private managed(key: string): boolean {
    return (this.onDemand !== null && isMain(key)) || this.deferred.has(key);
  }

  /**
   * Leaves the main index of `key` unbuilt, without a budget, until a request asks for it:
   * `load` builds it then (writes meanwhile reach only the store, which the load reads). Under a
   * budget every main index is already loaded that way, by the budget's loader.
   */
  deferUntilAsked(key: string, load: IndexLoader['load']): void {
    if (this.onDemand) return;
    this.drop(key);
    this.deferred.set(key, load);
  }

  /**
   * The index of `key` if the robot has one in memory: made empty on first use for an index kept
   * from the start (`of`), never made nor loaded for one loaded when asked (none yet).
   */
  inMemory(key: string): RobotIndex | undefined {
    return this.managed(key) ? this.peek(key) : this.of(key);
  }

  /** The index under `key`, made empty on first use (a robot's main index when loaded at start). */
  of(key: string): RobotIndex {
    let index = this.indexes.get(key);
    if (!index) {
      index = this.createIndex();
      this.indexes.set(key, index);
      this.changedKey(key);
    }
    return index;
  }

  /** Tells the loader that the robot of a main index changed (loaded on demand only). */
  private changedKey(key: string): void {
    if (this.managed(key)) this.onDemand?.loader.changed?.(key);
  }

  /** The index under `key` if it is in memory; never loads nor makes one. */
  peek(key: string): RobotIndex | undefined {
    return this.indexes.get(key);
  }

  /** True when the index under `key` is in memory or being loaded (a write must reach it). */
  held(key: string): boolean {
    return this.indexes.has(key) || this.loading.has(key);
  }

  /**
   * The index under `key` for the time of a request, loaded first if it is not in memory: it
   * stays until `release`. Null: the robot went away during the load.
   */
  async acquire(key: string): Promise<IndexLease | null> {
    if (!this.managed(key)) return { index: this.of(key), release: () => undefined };
    let index = this.indexes.get(key);
    if (!index) {
      index = (await this.load(key)) ?? undefined;
      if (!index) return null;
    }
    // Built when first asked without a budget: kept from now on, like those built at start.
    if (!this.onDemand) return { index, release: () => undefined };
    this.recent.delete(key);
    this.recent.set(key, true);
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
    this.keepWithinBudget();
    let released = false;
    return {
      index,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.pins.get(key) ?? 1) - 1;
        if (left > 0) this.pins.set(key, left);
        else this.pins.delete(key);
        this.keepWithinBudget();
      },
    };
  }

  /** Runs `use` with the index of `key` held (see `acquire`); undefined: the robot went away. */
  async using<T>(key: string, use: (index: RobotIndex) => Promise<T> | T): Promise<T | undefined> {
    const lease = await this.acquire(key);
    if (!lease) return undefined;
    try {
      return await use(lease.index);
    } finally {
      lease.release();
    }
  }

  /** One load per key however many ask at once. */
  private load(key: string): Promise<RobotIndex | null> {
    const running = this.loading.get(key);
    if (running) return running.done;
    const load =
      this.deferred.get(key) ?? ((k: string) => (this.onDemand as OnDemand).loader.load(k));
    const entry: Loading = { pending: [], done: Promise.resolve(null) };
    entry.done = (async () => {
      await this.loadSlot();
      let room: MemoryReservation | null = null;
      try {
        // Dropped while it waited for its turn: nothing to read.
        if (this.loading.get(key) !== entry) return null;
        // Counted from now, letting others go first: the load's memory is taken before it is an
        // index (a deferred copy has no budget to count in).
        if (!this.deferred.has(key)) {
          room = this.reserve((this.onDemand as OnDemand).loader.estimate?.(key) ?? 0, true);
        }
        const index = await load(key);
        // Dropped meanwhile (the robot was deleted): nothing is kept.
        if (!index || this.loading.get(key) !== entry) return null;
        // Appended to while it runs: a write during the replay is applied after it, in order.
        for (const update of entry.pending) await update(index);
        if (this.loading.get(key) !== entry) return null;
        this.indexes.set(key, index);
        this.loads++;
        // Without a budget it is an index like those built at start from now on.
        if (this.deferred.delete(key)) return index;
        this.recent.set(key, true);
        return index;
      } finally {
        room?.release();
        if (this.loading.get(key) === entry) this.loading.delete(key);
        // The slot goes to the next load waiting, if any.
        const next = this.loadQueue.shift();
        if (next) next();
        else this.loadsRunning--;
      }
    })();
    this.loading.set(key, entry);
    return entry.done;
  }

  /** Resolves once the caller holds one of the `LOADS_AT_ONCE` slots (handed over in `load`). */
  private async loadSlot(): Promise<void> {
    if (this.loadsRunning < LOADS_AT_ONCE) {
      this.loadsRunning++;
      return;
    }
    await new Promise<void>((resolve) => this.loadQueue.push(resolve));
  }

  /**
   * Counts `bytes` of other work (an old version's index built for a run, a replay's worker) in
   * the budget until released, letting go of indexes no request holds to make room. Null when
   * they cannot make room and `force` is not set: the caller takes a way that needs less memory.
   * With `force` the bytes are counted however far past the budget they go (work that has no
   * such way). Without a budget every reservation succeeds and counts nothing.
   */
  reserve(bytes: number, force = false): MemoryReservation | null {
    if (!this.onDemand) return { release: () => undefined };
    // What stays whatever is let go: checked first, so that a refusal lets nothing go.
    const kept = this.bytesHeld() - this.bytesLetGo() + this.reserved;
    if (!force && kept + bytes > this.onDemand.budgetBytes) return null;
    this.reserved += bytes;
    this.keepWithinBudget(true);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.reserved -= bytes;
      },
    };
  }

  /**
   * Lets go of the least recently asked indexes no request holds while the budget is passed
   * (reservations and indexes let go of but not yet collected included). One robot is kept
   * unless `makingRoom` for a reservation.
   */
  private keepWithinBudget(makingRoom = false): void {
    if (!this.onDemand) return;
    let bytes = this.bytesHeld() + this.reserved + this.uncollected;
    for (const key of this.recent.keys()) {
      if (bytes <= this.onDemand.budgetBytes || (!makingRoom && this.recent.size <= 1)) break;
      if (this.pins.has(key)) continue;
      const index = this.indexes.get(key);
      this.indexes.delete(key);
      this.recent.delete(key);
      this.evictions++;
      if (index) {
        // Freed at the next full collection: counted until then, not in this call's reckoning
        // (else every index would go at once, none freeing anything before that collection).
        const counted = estimatedBytes(index);
        bytes -= counted;
        this.uncollected += counted;
        this.collected.register(index, counted);
        this.onDemand.loader.evicted?.(key, index);
        // Its self-test's timer would keep it in memory, and on the event loop (decision 104).
        index.close?.();
      }
    }
  }

  /** The bytes of the main indexes in memory that no request holds (those that may be let go). */
  private bytesLetGo(): number {
    let bytes = 0;
    for (const key of this.recent.keys()) {
      const index = this.indexes.get(key);
      if (index && !this.pins.has(key)) bytes += estimatedBytes(index);
    }
    return bytes;
  }

  /** The bytes of the main indexes in memory and of every other edition (published indexes). */
  private bytesHeld(): number {
    let bytes = 0;
    for (const [key, index] of this.indexes) {
      if (!isMain(key) || this.recent.has(key)) bytes += estimatedBytes(index);
    }
    return bytes;
  }

  /** A new empty index that is not kept here (an old version's, for a test run). */
  createDetached(): RobotIndex {
    return this.createIndex();
  }

  /** Puts an index opened from a saved file (or built aside) in place of the one held. */
  replace(key: string, index: RobotIndex): void {
    this.deferred.delete(key);
    this.indexes.set(key, index);
    this.changedKey(key);
    if (this.managed(key)) {
      this.recent.delete(key);
      this.recent.set(key, true);
      this.keepWithinBudget();
    }
  }

  /**
   * Runs `update` on the index after a committed write. If it throws, the index is marked so
   * that it is never saved (or, loaded on demand, let go: it is read again when asked), and the
   * error goes on. A robot whose index is not in memory has nothing to update.
   */
  update(key: string, update: (index: RobotIndex) => void): void {
    const index = this.target(key, update);
    if (!index) return;
    try {
      update(index);
    } catch (error) {
      this.spoiled(key);
      throw error;
    }
  }

  /**
   * `update` for each item, in slices of a few milliseconds between turns of the event loop:
   * questions asked meanwhile see some of the items applied (each one whole), and are not held
   * up by a whole batch. Marks the index as `update` does if a step throws.
   */
  async updateEach<T>(
    key: string,
    items: readonly T[],
    update: (index: RobotIndex, item: T) => void,
  ): Promise<void> {
    const apply = (index: RobotIndex) => forEachInSlices(items, (item) => update(index, item));
    const index = this.target(key, apply);
    if (!index) return;
    try {
      await apply(index);
    } catch (error) {
      this.spoiled(key);
      throw error;
    }
  }

  /**
   * The index an update applies to now; undefined when there is none in memory: the update is
   * kept for a load under way, else not needed (a load reads the store, which has the write).
   */
  private target(
    key: string,
    update: (index: RobotIndex) => void | Promise<void>,
  ): RobotIndex | undefined {
    if (!this.managed(key)) return this.of(key);
    this.changedKey(key);
    const index = this.indexes.get(key);
    if (index) return index;
    this.loading.get(key)?.pending.push(update);
    return undefined;
  }

  private spoiled(key: string): void {
    if (this.managed(key)) this.drop(key);
    else this.tainted.add(key);
  }

  /** Forgets an index (its robot was deleted, or is read again): its memory can be reclaimed. */
  drop(key: string): void {
    this.changedKey(key);
    this.indexes.get(key)?.close?.();
    this.indexes.delete(key);
    this.tainted.delete(key);
    this.recent.delete(key);
    this.deferred.delete(key);
    // A load under way is of the state before: its result is not kept.
    this.loading.delete(key);
  }

  isTainted(key: string): boolean {
    return this.tainted.has(key);
  }

  /** The main indexes in memory, most recently asked first (loaded on demand; else none). */
  recentKeys(): string[] {
    return [...this.recent.keys()].reverse();
  }

  /** The main indexes in memory now (those a stop can save). */
  loadedKeys(): string[] {
    return [...this.indexes.keys()].filter(isMain);
  }

  status(): IndexMemoryStatus {
    return {
      budgetBytes: this.onDemand?.budgetBytes ?? null,
      loaded: this.onDemand ? this.recent.size : this.loadedKeys().length,
      bytes: this.onDemand
        ? this.bytesHeld()
        : this.loadedKeys().reduce((sum, key) => sum + estimatedBytes(this.of(key)), 0),
      loads: this.loads,
      evictions: this.evictions,
      openedFromFiles: this.onDemand?.loader.openedFromFiles ?? 0,
      reservedBytes: this.reserved,
      uncollectedBytes: this.uncollected,
    };
  }

  clear(): void {
    this.indexes.clear();
    this.tainted.clear();
    this.recent.clear();
    this.loading.clear();
    this.deferred.clear();
  }
}
