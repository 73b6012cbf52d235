/**
 * An inverted file over a vector space's int8 rows (decision 100; docs/matching.md, "Embedding
 * channel"): about √N centroids found by spherical k-means on a sample of the rows, every row
 * filed under its nearest centroid, and a search that scores the centroids, then only the rows
 * of the `nprobe` nearest lists, both with the SIMD kernel (vector-kernel.ts). Rows come and go
 * one at a time (a new or edited phrasing goes to its nearest list); the centroids are trained
 * again, in the background and in slices (`ListTraining`), when the rows have changed by as many
 * as they were trained on or a list has grown far beyond the others. Once trained, the rows are
 * laid out by list (`ListLayout`, decision 122): each list's rows in one contiguous block of the
 * space's memory, which a probe reads in one kernel call; rows filed after the layout are read
 * one by one until the next training lays them out too. Below `MIN_ROWS` rows the lists are not
 * used: a small robot's search stays exact.
 * @module
 */
import { TopK } from './top-k';
import { LANES, VectorMemory } from './vector-kernel';

/** What the lists read of the space whose rows they file. */
export interface ListedRows {
  readonly dimensions: number;
  /** Rows given out (the highest, plus one). */
  readonly rows: number;
  has(row: number): boolean;
  /** The row's stored int8 components, padded to the kernel's stride (a view, not a copy). */
  rowValues(row: number): Int8Array;
  rowScale(row: number): number;
  /** Dot products of `values` with slots `from..from+count−1`, at their slots' places. */
  slotDots(values: Int8Array, from: number, count: number): Int32Array;
  /** The row whose vector is in a slot of the memory, and a row's slot. */
  rowAt(slot: number): number;
  slotOf(row: number): number;
  /** Swaps two slots' vectors (and rows). */
  swapSlots(a: number, b: number): void;
}

/** The lists a probe reads (a scratch, valid until the next probe). */
export interface Probed {
  lists: Int32Array;
  count: number;
}

/** Rows with a vector below which searches stay exact (and the lists are not trained). */
export const MIN_ROWS = 20_000;
/** Lists probed at least (decision 115): the training's check needed no more at 100k rules. */
const PROBE_MIN = 6;
/** Rows sampled per list to train the centroids, and the k-means passes over them. */
const SAMPLE_PER_LIST = 24;
const PASSES = 6;
/** A list this many times the mean size means the centroids drifted from the rows. */
const IMBALANCE = 8;
/**
 * A training checks the lists against the exact search: this many sampled rows asked as
 * questions (themselves left out), their `CHECK_K` nearest rows found exactly, a slice of
 * `CHECK_CHUNK` rows at a time. The lists probed are the fewest that find `RECALL` of those rows;
 * if that is more than `PROBE_MAX_SHARE` of the lists, they do not earn their place (vectors
 * without the structure they need) and searches stay exact.
 */
const CHECKS = 64;
const CHECK_K = 10;
const CHECK_CHUNK = 4096;
const RECALL = 0.98;
const PROBE_MAX_SHARE = 0.25;

const NONE = -1;

/**
 * Filing a row (and each k-means step) looks for its nearest centroid in two passes: the dot
 * products over the first quarter of the components, then the exact cosine of the `SHORTLIST`
 * best of those (decision 112). A row compared with every centroid in full was most of a
 * training's time (≈ 80% at 100k rows); where the shortlist misses, the row lands in a list
 * near its own, which the training's check of recall then counts. Below `PREFIX_FROM`
 * dimensions the comparison stays exact.
 */
const PREFIX_FROM = 256;
const SHORTLIST = 16;

/** Lists for `rows` rows: about √rows, within bounds the kernel handles well. */
export const listsFor = (rows: number): number =>
  Math.max(16, Math.min(4096, Math.round(Math.sqrt(rows))));

/** A small seeded generator: a training samples the same rows every time (tests, bench). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Centroids in a kernel memory: the int8 rows the kernel scores a query against. */
class Centroids {
  readonly memory: VectorMemory;
  /** Each centroid's 1/length, so that dot × scale compares directions. */
  private readonly scales: Float32Array;
  private readonly cosines: Float32Array;
  /** The centroids' first components (the shortlist's pass), or null: `nearest` is exact. */
  private readonly prefix: VectorMemory | null;
  private readonly shortlist = new TopK(SHORTLIST);

  constructor(
    dimensions: number,
    readonly count: number,
  ) {
    this.memory = new VectorMemory(dimensions);
    this.memory.ensure(count);
    this.scales = new Float32Array(count);
    this.cosines = new Float32Array(count);
    const prefix = Math.ceil(dimensions / 4 / LANES) * LANES;
    this.prefix = dimensions >= PREFIX_FROM && count > SHORTLIST ? new VectorMemory(prefix) : null;
    this.prefix?.ensure(count);
  }

  /** Bytes held: the centroids and their prefixes. */
  get bytes(): number {
    return this.memory.bytes + (this.prefix?.bytes ?? 0);
  }

  private rescale(c: number): void {
    const prefix = this.prefix;
    if (prefix !== null) {
      const from = c * this.memory.stride;
      prefix.rows.set(this.memory.rows.subarray(from, from + prefix.stride), c * prefix.stride);
    }
    const rows = this.memory.rows;
    const base = c * this.memory.stride;
    let norm = 0;
    for (let d = 0; d < this.memory.stride; d += 1) norm += (rows[base + d] as number) ** 2;
    this.scales[c] = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  }

  /** Stores centroid `c` from float sums (normalised and quantised: only its direction counts). */
  store(c: number, sums: Float64Array, offset: number, dimensions: number): void {
    let max = 0;
    for (let d = 0; d < dimensions; d += 1) max = Math.max(max, Math.abs(sums[offset + d] ?? 0));
    const rows = this.memory.rows;
    const base = c * this.memory.stride;
    for (let d = 0; d < dimensions; d += 1) {
      rows[base + d] = max > 0 ? Math.round(((sums[offset + d] ?? 0) / max) * 127) : 0;
    }
    this.rescale(c);
  }

  /** Copies a row in as centroid `c`. */
  copy(c: number, values: Int8Array): void {
    this.memory.rows.set(values.subarray(0, this.memory.stride), c * this.memory.stride);
    this.rescale(c);
  }

  /** `values`' cosine with every centroid, times its length (valid until the next call). */
  score(values: Int8Array): Float32Array {
    this.memory.query.set(values.subarray(0, this.memory.stride));
    const dots = this.memory.dots(this.count);
    const cosines = this.cosines;
    for (let c = 0; c < this.count; c += 1) {
      cosines[c] = (dots[c] as number) * (this.scales[c] as number);
    }
    return cosines;
  }

  /** The centroid nearest `values` in direction (through the shortlist when there is one). */
  nearest(values: Int8Array): number {
    const prefix = this.prefix;
    if (prefix === null) return this.best(this.score(values), null, this.count);
    prefix.query.set(values.subarray(0, prefix.stride));
    const rough = prefix.dots(this.count);
    const shortlist = this.shortlist;
    shortlist.reset(SHORTLIST);
    for (let c = 0; c < this.count; c += 1) {
      const cosine = (rough[c] as number) * (this.scales[c] as number);
      if (shortlist.wouldTake(cosine)) shortlist.push(c, cosine);
    }
    const memory = this.memory;
    const ids = memory.ids;
    for (let i = 0; i < shortlist.size; i += 1) ids[i] = shortlist.slotAt(i);
    memory.query.set(values.subarray(0, memory.stride));
    const dots = memory.gather(shortlist.size);
    const cosines = this.cosines;
    for (let i = 0; i < shortlist.size; i += 1) {
      cosines[i] = (dots[i] as number) * (this.scales[ids[i] as number] as number);
    }
    return this.best(cosines, ids, shortlist.size);
  }

  /** The centroid of the best of `count` cosines (by centroid, or in the order of `ids`). */
  private best(cosines: Float32Array, ids: Int32Array | null, count: number): number {
    let best = 0;
    let bestCosine = -Infinity;
    for (let i = 0; i < count; i += 1) {
      const cosine = cosines[i] as number;
      const c = ids === null ? i : (ids[i] as number);
      // Equal cosines: the lower centroid, whichever pass found them.
      if (cosine > bestCosine || (cosine === bestCosine && c < best)) {
        bestCosine = cosine;
        best = c;
      }
    }
    return best;
  }
}

/** Each list's rows (unordered) and each row's list and place in it. */
class Members {
  readonly lists: Int32Array[];
  readonly sizes: Int32Array;
  listOf = new Int32Array(0);
  placeOf = new Int32Array(0);
  count = 0;

  constructor(lists: number) {
    this.lists = Array.from({ length: lists }, () => new Int32Array(8));
    this.sizes = new Int32Array(lists);
  }

  private room(row: number): void {
    if (row < this.listOf.length) return;
    const size = Math.max(row + 1, Math.ceil(this.listOf.length * 1.5), 64);
    const listOf = new Int32Array(size).fill(NONE);
    listOf.set(this.listOf);
    this.listOf = listOf;
    const placeOf = new Int32Array(size);
    placeOf.set(this.placeOf);
    this.placeOf = placeOf;
  }

  add(row: number, list: number): void {
    this.remove(row);
    this.room(row);
    let members = this.lists[list] as Int32Array;
    const size = this.sizes[list] as number;
    if (size === members.length) {
      const grown = new Int32Array(members.length * 2);
      grown.set(members);
      members = grown;
      this.lists[list] = grown;
    }
    members[size] = row;
    this.sizes[list] = size + 1;
    this.listOf[row] = list;
    this.placeOf[row] = size;
    this.count += 1;
  }

  remove(row: number): void {
    const list = row < this.listOf.length ? (this.listOf[row] as number) : NONE;
    if (list === NONE) return;
    const members = this.lists[list] as Int32Array;
    const last = (this.sizes[list] as number) - 1;
    const place = this.placeOf[row] as number;
    const moved = members[last] as number;
    members[place] = moved;
    this.placeOf[moved] = place;
    this.sizes[list] = last;
    this.listOf[row] = NONE;
    this.count -= 1;
  }

  get bytes(): number {
    let bytes = this.listOf.byteLength + this.placeOf.byteLength + this.sizes.byteLength;
    for (const list of this.lists) bytes += list.byteLength;
    return bytes;
  }

  /** The largest list over the mean. */
  get imbalance(): number {
    if (this.count === 0) return 0;
    let largest = 0;
    for (const size of this.sizes) largest = Math.max(largest, size);
    return largest / (this.count / this.sizes.length);
  }
}

export class VectorLists {
  private centroids: Centroids | null = null;
  private members: Members | null = null;
  /** Rows with a vector, whether filed or not. */
  private held = 0;
  /** Rows the centroids were trained on, and rows added or removed since. */
  private trainedOn = 0;
  private changes = 0;
  private training: ListTraining | null = null;
  private layout: ListLayout | null = null;
  /** Where each list's block starts in the space's slots (list l: starts[l]..starts[l+1]−1). */
  private starts: Int32Array | null = null;
  private readonly top = new TopK(PROBE_MIN);
  private readonly probed: Probed = { lists: new Int32Array(PROBE_MIN), count: 0 };
  private trainings = 0;

  constructor(
    private readonly space: ListedRows,
    /** Rows below which the lists are not used (tests lower it). */
    readonly minRows = MIN_ROWS,
  ) {}

  /** Lists the last training's check found needed (0: the lists do not earn their place). */
  private checkedProbes = 0;
  /** The recall the last training's check measured at the lists probed, and the rows asked. */
  check: { recall: number; probes: number; asked: number } | null = null;

  /** Whether searches go through the lists (trained, worth it, and enough rows). */
  get usable(): boolean {
    return this.members !== null && this.checkedProbes > 0 && this.held >= this.minRows;
  }

  /** Rows with a vector, and those filed under a list (all of them once trained). */
  get counts(): { held: number; filed: number } {
    return { held: this.held, filed: this.members?.count ?? 0 };
  }

  /** Lists in use (0 before the first training). */
  get lists(): number {
    return this.centroids?.count ?? 0;
  }

  /** Bytes of the centroids and the lists (beyond the rows themselves). */
  get bytes(): number {
    const blocks = this.starts?.byteLength ?? 0;
    return (this.centroids?.bytes ?? 0) + (this.members?.bytes ?? 0) + blocks;
  }

  /** Whether a training is due: enough rows and none yet, or the rows drifted from the lists. */
  get stale(): boolean {
    if (this.held < this.minRows) return false;
    if (this.members === null) return true;
    return this.changes >= this.trainedOn || this.members.imbalance > IMBALANCE;
  }

  /** A row got its vector (the space removes it first when it had one). */
  add(row: number): void {
    this.held += 1;
    this.changes += 1;
    const values = this.space.rowValues(row);
    if (this.members && this.centroids) this.members.add(row, this.centroids.nearest(values));
    this.training?.added(row);
  }

  /** A row that had a vector lost it. */
  remove(row: number): void {
    this.held -= 1;
    this.changes += 1;
    this.members?.remove(row);
    this.training?.removed(row);
  }

  /** Whether the rows are laid out in their lists' blocks (a probe reads each in one call). */
  get laidOut(): boolean {
    return this.starts !== null;
  }

  /**
   * The work due, if any (the same run until it finishes): the training, which swaps the new
   * lists in when done, then their rows' layout. Step it in slices. Rows added or removed
   * meanwhile are followed.
   */
  trainingRun(): ListTraining | ListLayout | null {
    if (this.training !== null) return this.training;
    if (this.layout !== null) return this.layout;
    if (!this.stale) return null;
    this.trainings += 1;
    this.training = new ListTraining(this.space, listsFor(this.held), this.trainings, (done) =>
      this.trained(done),
    );
    return this.training;
  }

  /** Trains and lays the rows out at once (tests, bench). */
  train(): void {
    this.trainingRun()?.step(Infinity);
    this.layout?.step(Infinity);
  }

  private trained(done: {
    centroids: Centroids;
    members: Members;
    probes: number;
    recall: number;
    asked: number;
  }): void {
    this.centroids = done.centroids;
    this.members = done.members;
    this.checkedProbes = done.probes;
    this.check = { recall: done.recall, probes: done.probes, asked: done.asked };
    this.held = done.members.count;
    this.trainedOn = done.members.count;
    this.changes = 0;
    this.training = null;
    this.starts = null;
    this.layout = new ListLayout(this.space, done.members, (starts) => {
      this.starts = starts;
      this.layout = null;
    });
  }

  /** Lists probed by a search when set (the bench's recall curve); else `nprobe`'s default. */
  probes: number | null = null;

  /** Lists probed for a search: as many as the training's check found needed. */
  get nprobe(): number {
    return Math.min(this.lists, this.probes ?? this.checkedProbes);
  }

  /**
   * The `nprobe` lists nearest `query` (its int8 components), in a scratch valid until the next
   * call; null when the lists are not usable.
   */
  nearest(query: Int8Array, nprobe = this.nprobe): Probed | null {
    const centroids = this.centroids;
    if (!this.usable || centroids === null) return null;
    const cosines = centroids.score(query);
    const top = this.top;
    top.reset(Math.min(nprobe, centroids.count));
    for (let c = 0; c < centroids.count; c += 1) top.push(c, cosines[c] as number);
    const probed = this.probed;
    if (probed.lists.length < top.size) probed.lists = new Int32Array(top.size);
    for (let i = 0; i < top.size; i += 1) probed.lists[i] = top.slotAt(i);
    probed.count = top.size;
    return probed;
  }

  /** Rows filed under the lists probed. */
  probedRows(probed: Probed): number {
    let rows = 0;
    for (let i = 0; i < probed.count; i += 1) rows += this.sizeOf(probed.lists[i] as number);
    return rows;
  }

  /** A list's rows (the first `sizeOf(list)`; unordered). */
  membersOf(list: number): Int32Array {
    return this.members?.lists[list] ?? EMPTY;
  }

  sizeOf(list: number): number {
    return this.members?.sizes[list] ?? 0;
  }

  /**
   * A list's block of slots (start, and end excluded): its rows laid out by the last layout,
   * those still filed under it being read there in one call (empty before the layout).
   */
  blockStart(list: number): number {
    return this.starts?.[list] ?? 0;
  }

  blockEnd(list: number): number {
    return this.starts?.[list + 1] ?? 0;
  }
}

const EMPTY = new Int32Array(0);

/**
 * Lays the rows out by list once the lists are trained: list 0's rows in the first slots, then
 * list 1's…, one swap of two slots at a time (the space stays searchable between steps, each
 * swap keeping its row↔slot maps whole), then hands the blocks' bounds over. Rows filed
 * meanwhile, or under another list since, are read one by one until the next layout.
 */
export class ListLayout {
  private cursor = 0;
  private readonly order: Int32Array;
  private readonly starts: Int32Array;
  readonly listCount: number;

  constructor(
    private readonly space: ListedRows,
    members: Members,
    private readonly done: (starts: Int32Array) => void,
  ) {
    this.listCount = members.lists.length;
    this.starts = new Int32Array(this.listCount + 1);
    this.order = new Int32Array(members.count);
    let at = 0;
    for (let list = 0; list < this.listCount; list += 1) {
      this.starts[list] = at;
      const size = members.sizes[list] as number;
      this.order.set((members.lists[list] as Int32Array).subarray(0, size), at);
      at += size;
    }
    this.starts[this.listCount] = at;
  }

  /** Works for about `budgetMs`; true once the rows are laid out. */
  step(budgetMs: number): boolean {
    const start = performance.now();
    const { order, space } = this;
    while (this.cursor < order.length) {
      // Slots before the cursor hold the rows laid out: the next row's slot is at or after it.
      const end = Math.min(order.length, this.cursor + 256);
      for (let slot = this.cursor; slot < end; slot += 1) {
        space.swapSlots(slot, space.slotOf(order[slot] as number));
      }
      this.cursor = end;
      if (this.cursor < order.length && performance.now() - start >= budgetMs) return false;
    }
    this.done(this.starts);
    return true;
  }
}

/**
 * One training of the lists, in steps of a given duration (each step holds the event loop for
 * that long, about one row's assignment more at most): sample the rows, run the k-means passes
 * over the sample, then file every row under the new centroids and hand the lists over.
 */
export class ListTraining {
  private sample: number[] = [];
  private pass = 0;
  private cursor = 0;
  private sums: Float64Array;
  private counts: Int32Array;
  private readonly centroids: Centroids;
  private readonly members: Members;
  private readonly random: () => number;
  private finished = false;
  /** The check: rows asked so far, the row being asked, its exact nearest rows so far. */
  private checked = 0;
  private checkFrom = 0;
  private readonly nearest = new TopK(CHECK_K);
  /** For each exact nearest row of each row asked, the rank of its list for that row. */
  private readonly ranks: number[] = [];

  constructor(
    private readonly space: ListedRows,
    readonly listCount: number,
    seed: number,
    private readonly done: (lists: {
      centroids: Centroids;
      members: Members;
      probes: number;
      recall: number;
      asked: number;
    }) => void,
  ) {
    this.random = seeded(seed);
    this.centroids = new Centroids(space.dimensions, listCount);
    this.members = new Members(listCount);
    this.sums = new Float64Array(listCount * space.dimensions);
    this.counts = new Int32Array(listCount);
    this.drawSample();
  }

  get complete(): boolean {
    return this.finished;
  }

  /** A random sample of the rows with a vector; the first `listCount` seed the centroids. */
  private drawSample(): void {
    const rows: number[] = [];
    for (let row = 0; row < this.space.rows; row += 1) if (this.space.has(row)) rows.push(row);
    const wanted = Math.min(rows.length, this.listCount * SAMPLE_PER_LIST);
    for (let i = 0; i < wanted; i += 1) {
      const j = i + Math.floor(this.random() * (rows.length - i));
      const swap = rows[i] as number;
      rows[i] = rows[j] as number;
      rows[j] = swap;
    }
    this.sample = rows.slice(0, wanted);
    for (let c = 0; c < this.listCount; c += 1) {
      const row = this.sample[c % Math.max(1, this.sample.length)];
      if (row !== undefined) this.centroids.copy(c, this.space.rowValues(row));
    }
  }

  /** A row got a vector meanwhile: once the centroids are final, filed if already passed. */
  added(row: number): void {
    if (this.pass >= PASSES && row < this.cursor) {
      this.members.add(row, this.centroids.nearest(this.space.rowValues(row)));
    }
  }

  /** A row lost its vector meanwhile. */
  removed(row: number): void {
    this.members.remove(row);
  }

  /** Works for about `budgetMs`; true once the lists are handed over. */
  step(budgetMs: number): boolean {
    const start = performance.now();
    const dimensions = this.space.dimensions;
    while (!this.finished) {
      if (this.pass < PASSES) {
        const row = this.sample[this.cursor];
        if (row !== undefined) {
          if (this.space.has(row)) {
            const values = this.space.rowValues(row);
            const c = this.centroids.nearest(values);
            this.counts[c] = (this.counts[c] as number) + 1;
            const offset = c * dimensions;
            for (let d = 0; d < dimensions; d += 1) {
              this.sums[offset + d] = (this.sums[offset + d] as number) + (values[d] as number);
            }
          }
          this.cursor += 1;
        } else {
          this.endPass();
        }
      } else if (this.cursor < this.space.rows) {
        const row = this.cursor;
        if (this.space.has(row)) {
          this.members.add(row, this.centroids.nearest(this.space.rowValues(row)));
        }
        this.cursor += 1;
      } else if (this.checked < Math.min(CHECKS, this.sample.length)) {
        this.checkStep();
      } else {
        this.finished = true;
        this.sums = new Float64Array(0);
        this.done({ centroids: this.centroids, members: this.members, ...this.probesNeeded() });
        return true;
      }
      if (performance.now() - start >= budgetMs) return false;
    }
    return true;
  }

  /** One chunk of the exact search for the row being asked; its ranks once the rows are done. */
  private checkStep(): void {
    const asked = this.sample[this.checked] as number;
    if (!this.space.has(asked)) {
      this.checked += 1;
      this.checkFrom = 0;
      return;
    }
    const values = this.space.rowValues(asked);
    if (this.checkFrom === 0) this.nearest.reset(CHECK_K);
    const rows = this.space.rows;
    const count = Math.min(CHECK_CHUNK, rows - this.checkFrom);
    const dots = this.space.slotDots(values, this.checkFrom, count);
    for (let slot = this.checkFrom; slot < this.checkFrom + count; slot += 1) {
      const row = this.space.rowAt(slot);
      if (row === asked || !this.space.has(row)) continue;
      const cosine = (dots[slot] as number) * this.space.rowScale(row);
      if (this.nearest.wouldTake(cosine)) this.nearest.push(row, cosine);
    }
    this.checkFrom += count;
    if (this.checkFrom < rows) return;
    // The rank of each list for this row, and of the lists holding its nearest rows.
    const cosines = this.centroids.score(values);
    const order = Array.from({ length: this.listCount }, (_, c) => c).sort(
      (a, b) => (cosines[b] as number) - (cosines[a] as number) || a - b,
    );
    const rankOf = new Int32Array(this.listCount);
    for (const [rank, list] of order.entries()) rankOf[list] = rank;
    for (const row of this.nearest.items()) {
      const list = this.members.listOf[row] ?? NONE;
      this.ranks.push(list === NONE ? this.listCount : (rankOf[list] as number));
    }
    this.checked += 1;
    this.checkFrom = 0;
  }

  /** The fewest lists (at least `PROBE_MIN`) that find `RECALL` of the rows; 0 if too many. */
  private probesNeeded(): { probes: number; recall: number; asked: number } {
    const ranks = [...this.ranks].sort((a, b) => a - b);
    const asked = this.checked;
    if (ranks.length === 0)
      return { probes: Math.min(PROBE_MIN, this.listCount), recall: 1, asked };
    const needed = (ranks[Math.max(0, Math.ceil(RECALL * ranks.length) - 1)] as number) + 1;
    const probes = Math.min(this.listCount, Math.max(PROBE_MIN, needed));
    const recall = ranks.filter((rank) => rank < probes).length / ranks.length;
    const worth = probes <= Math.max(PROBE_MIN, PROBE_MAX_SHARE * this.listCount);
    return { probes: worth ? probes : 0, recall, asked };
  }

  /** New centroids from the pass's sums; an empty list takes a random sampled row. */
  private endPass(): void {
    const dimensions = this.space.dimensions;
    for (let c = 0; c < this.listCount; c += 1) {
      if ((this.counts[c] as number) > 0) {
        this.centroids.store(c, this.sums, c * dimensions, dimensions);
      } else {
        const row = this.sample[Math.floor(this.random() * this.sample.length)];
        if (row !== undefined && this.space.has(row)) {
          this.centroids.copy(c, this.space.rowValues(row));
        }
      }
    }
    this.sums.fill(0);
    this.counts.fill(0);
    this.pass += 1;
    this.cursor = 0;
  }
}
