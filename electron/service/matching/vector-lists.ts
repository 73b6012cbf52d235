/**
 * An inverted file over a vector space's int8 rows (decision 100; docs/matching.md, "Embedding
 * channel"): about √N centroids found by spherical k-means on a sample of the rows, every row
 * filed under its nearest centroid, and a search that scores the centroids, then only the rows
 * of the `nprobe` nearest lists, both with the SIMD kernel (vector-kernel.ts). Rows come and go
 * one at a time (a new or edited phrasing goes to its nearest list); the centroids are trained
 * again in the background (`ListTraining`: in a worker thread given a port, decision 126, else on
 * the loop in slices; list-trainer.ts) when the rows have changed by as many as they were
 * trained on or a list has grown far beyond the others. Once trained, the rows are
 * laid out by list (`ListLayout`, decision 125): each list's rows in one contiguous block of the
 * space's memory, which a probe reads in one kernel call; rows filed after the layout are read
 * one by one until the next training lays them out too. Below `MIN_ROWS` rows the lists are not
 * used: a small robot's search stays exact.
 * @module
 */
import type { TrainerResult, TrainerStart } from './list-trainer';
import {
  Centroids,
  ListTrainer,
  PROBE_MIN,
  SAMPLE_PER_LIST,
  seeded,
  strideOf,
} from './list-trainer';
import { TopK } from './top-k';

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
/** A list this many times the mean size means the centroids drifted from the rows. */
const IMBALANCE = 8;
const NONE = -1;

/** Lists for `rows` rows: about √rows, within bounds the kernel handles well. */
export const listsFor = (rows: number): number =>
  Math.max(16, Math.min(4096, Math.round(Math.sqrt(rows))));

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
   * meanwhile are followed. `port`: where a new training runs (a worker thread's port; null:
   * on the loop, in the run's slices).
   */
  trainingRun(port: () => TrainingPort | null = () => null): ListTraining | ListLayout | null {
    if (this.training !== null) return this.training;
    if (this.layout !== null) return this.layout;
    if (!this.stale) return null;
    this.trainings += 1;
    this.training = new ListTraining(
      this.space,
      listsFor(this.held),
      this.trainings,
      port(),
      (done) => this.trained(done),
    );
    return this.training;
  }

  /** Trains (on the loop) and lays the rows out at once (tests, bench). */
  train(): void {
    this.trainingRun()?.step(Infinity);
    this.layout?.step(Infinity);
  }

  /** Stops a training under way (its worker is terminated; a later run starts again). */
  stop(): void {
    this.training?.close();
    this.training = null;
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

/** What a training port tells its driver. */
export interface TrainingSink {
  clustered(): void;
  filed(rows: Int32Array, lists: Int32Array): void;
  finished(result: TrainerResult): void;
  failed(error: Error): void;
}

/**
 * Where a training runs: on the event loop (`InLoopTraining`, in the driver's slices) or in a
 * worker thread (embedding/list-training-port.ts). The driver sends a chunk of rows at a time
 * and the port answers each call once, in order, through the sink.
 */
export interface TrainingPort {
  start(job: TrainerStart, sink: TrainingSink): void;
  file(rows: Int32Array, values: Int8Array): void;
  finish(): void;
  /** Works for about `budgetMs` (a worker's port does nothing here). */
  work(budgetMs: number): void;
  close(): void;
}

/** The training on the event loop: the k-means in slices, everything else answered at once. */
export class InLoopTraining implements TrainingPort {
  private trainer: ListTrainer | null = null;
  private sink: TrainingSink | null = null;
  private clustered = false;

  start(job: TrainerStart, sink: TrainingSink): void {
    this.trainer = new ListTrainer(job);
    this.sink = sink;
  }

  work(budgetMs: number): void {
    if (this.clustered || !this.trainer?.cluster(budgetMs)) return;
    this.clustered = true;
    this.sink?.clustered();
  }

  file(rows: Int32Array, values: Int8Array): void {
    if (this.trainer) this.sink?.filed(rows, this.trainer.file(rows, values, rows.length));
  }

  finish(): void {
    if (this.trainer) this.sink?.finished(this.trainer.finish());
  }

  close(): void {
    this.trainer = null;
  }
}

/** Rows per chunk sent to a worker, and on the loop (a chunk's check is 64 scans of it). */
const CHUNK_WORKER = 4096;
const CHUNK_LOOP = 256;
/** Chunks sent and not yet answered, at most (the worker's queue, and the copies in it). */
const IN_FLIGHT = 2;

/**
 * One training of the lists, driven from the event loop in steps of a given duration: it draws
 * the sample, has the port cluster it, sends the rows in chunks (copies: the port may be a worker
 * thread, which gets them transferred), files each row as its list comes back unless it changed
 * since it was sent, and hands the lists over once the port has finished (rows that changed
 * meanwhile filed then, under the final centroids). Where the worker fails, the training starts
 * again on the loop.
 */
export class ListTraining implements TrainingSink {
  private port: TrainingPort;
  private phase: 'clustering' | 'filing' | 'finishing' | 'refiling' | 'done' = 'clustering';
  private cursor = 0;
  /** Rows sent are those below this when the training began; later ones are filed at the end. */
  private readonly end: number;
  private final: Centroids | null = null;
  private inFlight = 0;
  private readonly members: Members;
  /** Rows changed since they were sent (their list is found again at the end). */
  private readonly dirty = new Set<number>();
  private result: TrainerResult | null = null;
  private job: TrainerStart;

  constructor(
    private readonly space: ListedRows,
    readonly listCount: number,
    private readonly seed: number,
    port: TrainingPort | null,
    private readonly done: (lists: {
      centroids: Centroids;
      members: Members;
      probes: number;
      recall: number;
      asked: number;
    }) => void,
  ) {
    this.members = new Members(listCount);
    this.end = space.rows;
    this.port = port ?? new InLoopTraining();
    this.job = this.drawSample();
    this.begin();
  }

  get complete(): boolean {
    return this.phase === 'done';
  }

  /** Whether the training runs in a worker thread (false: on the loop, in slices). */
  get inWorker(): boolean {
    return !(this.port instanceof InLoopTraining);
  }

  private begin(): void {
    const { sample, sampleRows } = this.job;
    // The port may take the buffers (a worker's, transferred): it gets its own copies.
    this.port.start({ ...this.job, sample: sample.slice(), sampleRows: sampleRows.slice() }, this);
  }

  /** A random sample of the rows with a vector, copied (the first `listCount` seed the centroids). */
  private drawSample(): TrainerStart {
    const random = seeded(this.seed);
    const rows: number[] = [];
    for (let row = 0; row < this.space.rows; row += 1) if (this.space.has(row)) rows.push(row);
    const wanted = Math.min(rows.length, this.listCount * SAMPLE_PER_LIST);
    for (let i = 0; i < wanted; i += 1) {
      const j = i + Math.floor(random() * (rows.length - i));
      const swap = rows[i] as number;
      rows[i] = rows[j] as number;
      rows[j] = swap;
    }
    const stride = strideOf(this.space.dimensions);
    const sample = new Int8Array(wanted * stride);
    for (let i = 0; i < wanted; i += 1) {
      sample.set(this.space.rowValues(rows[i] as number).subarray(0, stride), i * stride);
    }
    const sampleRows = Int32Array.from(rows.slice(0, wanted));
    return {
      dimensions: this.space.dimensions,
      listCount: this.listCount,
      seed: this.seed,
      sample,
      sampleRows,
    };
  }

  /** Whether a row's vector now is not the one the port gets (or got): it is filed at the end. */
  private passed(row: number): boolean {
    return row < this.cursor || row >= this.end;
  }

  /** A row got a vector meanwhile: one already sent (or not to be) is filed at the end. */
  added(row: number): void {
    if (!this.passed(row)) return;
    this.members.remove(row);
    this.dirty.add(row);
  }

  /** A row lost its vector meanwhile. */
  removed(row: number): void {
    this.members.remove(row);
    if (this.passed(row)) this.dirty.add(row);
  }

  clustered(): void {
    this.phase = 'filing';
  }

  filed(rows: Int32Array, lists: Int32Array): void {
    this.inFlight -= 1;
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i] as number;
      if (!this.dirty.has(row)) this.members.add(row, lists[i] as number);
    }
  }

  finished(result: TrainerResult): void {
    this.result = result;
  }

  failed(): void {
    // The worker is gone: the same training again, on the loop.
    this.port.close();
    this.port = new InLoopTraining();
    this.phase = 'clustering';
    this.cursor = 0;
    this.inFlight = 0;
    this.dirty.clear();
    for (let row = 0; row < this.members.listOf.length; row += 1) this.members.remove(row);
    this.result = null;
    this.final = null;
    this.begin();
  }

  /** Stops the port (a worker is terminated). */
  close(): void {
    this.port.close();
  }

  /** Works for about `budgetMs`; true once the lists are handed over. */
  step(budgetMs: number): boolean {
    const start = performance.now();
    const chunkRows = this.inWorker ? CHUNK_WORKER : CHUNK_LOOP;
    for (;;) {
      if (this.phase === 'done') return true;
      if (this.phase === 'clustering') {
        this.port.work(budgetMs - (performance.now() - start));
        if (this.phase === 'clustering') return false;
      } else if (this.phase === 'filing') {
        if (this.cursor < this.end) {
          if (this.inFlight >= IN_FLIGHT) return false;
          this.sendChunk(chunkRows);
        } else if (this.inFlight === 0) {
          this.phase = 'finishing';
          this.port.finish();
        } else return false;
      } else if (this.phase === 'finishing') {
        if (this.result === null) return false;
        this.final = this.centroidsOf(this.result);
        this.phase = 'refiling';
      } else if (this.refile(start, budgetMs)) {
        this.handOver();
        return true;
      }
      if (performance.now() - start >= budgetMs) return false;
    }
  }

  private sendChunk(chunkRows: number): void {
    const space = this.space;
    const stride = strideOf(space.dimensions);
    const ids: number[] = [];
    while (this.cursor < this.end && ids.length < chunkRows) {
      if (space.has(this.cursor)) ids.push(this.cursor);
      this.cursor += 1;
    }
    const rows = Int32Array.from(ids);
    const values = new Int8Array(rows.length * stride);
    for (let i = 0; i < rows.length; i += 1) {
      values.set(space.rowValues(rows[i] as number).subarray(0, stride), i * stride);
    }
    this.inFlight += 1;
    this.port.file(rows, values);
  }

  private centroidsOf(result: TrainerResult): Centroids {
    this.port.close();
    const centroids = new Centroids(this.space.dimensions, this.listCount);
    const stride = strideOf(this.space.dimensions);
    for (let c = 0; c < this.listCount; c += 1) {
      centroids.copy(c, result.centroids.subarray(c * stride, (c + 1) * stride));
    }
    return centroids;
  }

  /** Files the rows that changed meanwhile under the final centroids, in the budget; true: done. */
  private refile(start: number, budgetMs: number): boolean {
    const centroids = this.final;
    if (centroids === null) return false;
    // A row that changes again meanwhile is added back to the set, and visited again.
    for (const row of this.dirty) {
      this.dirty.delete(row);
      if (this.space.has(row)) this.members.add(row, centroids.nearest(this.space.rowValues(row)));
      if (performance.now() - start >= budgetMs) return this.dirty.size === 0;
    }
    return true;
  }

  private handOver(): void {
    const { final, result } = this;
    if (final === null || result === null) return;
    this.phase = 'done';
    this.done({
      centroids: final,
      members: this.members,
      probes: result.probes,
      recall: result.recall,
      asked: result.asked,
    });
  }
}
