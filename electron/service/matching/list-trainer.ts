/**
 * The training of the inverted lists (vector-lists.ts) on its own, fed rather than reading the
 * space, so that it runs alike in a worker thread (embedding/list-training-worker.ts, decision
 * 123) or on the event loop in slices: spherical k-means over a sample of the rows (`cluster`),
 * then every row filed under its nearest centroid as the rows come in chunks (`file`), the
 * sampled rows' exact nearest rows found meanwhile, and at the end (`finish`) the lists a probe
 * needs to find `RECALL` of those and the centroids, as int8 rows.
 * @module
 */
import { TopK } from './top-k';
import { LANES, VectorMemory } from './vector-kernel';

/** Lists probed at least (decision 115): the training's check needed no more at 100k rules. */
export const PROBE_MIN = 6;
/** Rows sampled per list to train the centroids, and the k-means passes over them. */
export const SAMPLE_PER_LIST = 24;
const PASSES = 6;
/**
 * A training checks the lists against the exact search: this many sampled rows asked as
 * questions (themselves left out), their `CHECK_K` nearest rows found exactly among the rows
 * filed. The lists probed are the fewest that find `RECALL` of those rows;
 * if that is more than `PROBE_MAX_SHARE` of the lists, they do not earn their place (vectors
 * without the structure they need) and searches stay exact.
 */
const CHECKS = 64;
const CHECK_K = 10;
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

/** A small seeded generator: a training samples the same rows every time (tests, bench). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Centroids in a kernel memory: the int8 rows the kernel scores a query against. */
export class Centroids {
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

/** What a training starts from: the sample drawn from the space, copied. */
export interface TrainerStart {
  dimensions: number;
  listCount: number;
  seed: number;
  /** The sampled rows' numbers, and their int8 components one stride (16-padded) apart. */
  sampleRows: Int32Array;
  sample: Int8Array;
}

/** What a training hands over: the centroids (int8 rows, one stride apart) and its check. */
export interface TrainerResult {
  centroids: Int8Array;
  probes: number;
  recall: number;
  asked: number;
}

/** The kernel's stride for `dimensions`. */
export const strideOf = (dimensions: number): number =>
  Math.max(LANES, Math.ceil(dimensions / LANES) * LANES);

export class ListTrainer {
  readonly centroids: Centroids;
  private readonly stride: number;
  private readonly samples: number;
  private readonly random: () => number;
  private pass = 0;
  private cursor = 0;
  private sums: Float64Array;
  private readonly counts: Int32Array;
  /** Each row's list, by row, as filed (for the check's ranks). */
  private listOf = new Int32Array(0);
  /** The check: the sampled rows asked, and each one's nearest rows among those filed. */
  private readonly asked: number;
  private readonly nearest: TopK[];
  private readonly chunk: VectorMemory;

  constructor(private readonly start: TrainerStart) {
    const { dimensions, listCount, sampleRows } = start;
    this.stride = strideOf(dimensions);
    this.samples = sampleRows.length;
    this.random = seeded(start.seed ^ 0x5bd1e995);
    this.centroids = new Centroids(dimensions, listCount);
    this.sums = new Float64Array(listCount * dimensions);
    this.counts = new Int32Array(listCount);
    for (let c = 0; c < listCount && this.samples > 0; c += 1) {
      this.centroids.copy(c, this.sampleValues(c % this.samples));
    }
    this.asked = Math.min(CHECKS, this.samples);
    this.nearest = Array.from({ length: this.asked }, () => new TopK(CHECK_K));
    this.chunk = new VectorMemory(dimensions);
  }

  private sampleValues(i: number): Int8Array {
    return this.start.sample.subarray(i * this.stride, (i + 1) * this.stride);
  }

  /** Runs the k-means passes for about `budgetMs`; true once the centroids are final. */
  cluster(budgetMs: number): boolean {
    const begin = performance.now();
    const dimensions = this.start.dimensions;
    while (this.pass < PASSES) {
      if (this.cursor < this.samples) {
        const values = this.sampleValues(this.cursor);
        const c = this.centroids.nearest(values);
        this.counts[c] = (this.counts[c] as number) + 1;
        const offset = c * dimensions;
        for (let d = 0; d < dimensions; d += 1) {
          this.sums[offset + d] = (this.sums[offset + d] as number) + (values[d] as number);
        }
        this.cursor += 1;
      } else {
        this.endPass();
      }
      if (this.pass < PASSES && performance.now() - begin >= budgetMs) return false;
    }
    return true;
  }

  /** New centroids from the pass's sums; an empty list takes a random sampled row. */
  private endPass(): void {
    const { dimensions, listCount } = this.start;
    for (let c = 0; c < listCount; c += 1) {
      if ((this.counts[c] as number) > 0) {
        this.centroids.store(c, this.sums, c * dimensions, dimensions);
      } else if (this.samples > 0) {
        this.centroids.copy(c, this.sampleValues(Math.floor(this.random() * this.samples)));
      }
    }
    this.sums.fill(0);
    this.counts.fill(0);
    this.pass += 1;
    this.cursor = 0;
    if (this.pass >= PASSES) this.sums = new Float64Array(0);
  }

  /**
   * Files `count` rows (their numbers, and their components one stride apart) under their
   * nearest centroids, and scores them against the rows the check asks: each row's list.
   */
  file(rows: Int32Array, values: Int8Array, count: number): Int32Array {
    const stride = this.stride;
    const lists = new Int32Array(count);
    let top = 0;
    for (let i = 0; i < count; i += 1) top = Math.max(top, (rows[i] as number) + 1);
    if (top > this.listOf.length) {
      const grown = new Int32Array(Math.max(top, this.listOf.length * 2)).fill(NONE);
      grown.set(this.listOf);
      this.listOf = grown;
    }
    for (let i = 0; i < count; i += 1) {
      const list = this.centroids.nearest(values.subarray(i * stride, (i + 1) * stride));
      lists[i] = list;
      this.listOf[rows[i] as number] = list;
    }
    const chunk = this.chunk;
    chunk.ensure(count);
    chunk.rows.set(values.subarray(0, count * stride));
    const scales = new Float32Array(count);
    for (let i = 0; i < count; i += 1) {
      let norm = 0;
      for (let d = i * stride; d < (i + 1) * stride; d += 1) norm += (values[d] as number) ** 2;
      scales[i] = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    }
    for (let a = 0; a < this.asked; a += 1) {
      const askedRow = this.start.sampleRows[a] as number;
      const nearest = this.nearest[a] as TopK;
      chunk.query.set(this.sampleValues(a));
      const dots = chunk.dots(count);
      for (let i = 0; i < count; i += 1) {
        const row = rows[i] as number;
        if (row === askedRow) continue;
        const cosine = (dots[i] as number) * (scales[i] as number);
        if (nearest.wouldTake(cosine)) nearest.push(row, cosine);
      }
    }
    return lists;
  }

  /** The lists a probe needs (the fewest, at least `PROBE_MIN`, finding `RECALL`; 0 if too many). */
  finish(): TrainerResult {
    const { listCount } = this.start;
    const ranks: number[] = [];
    for (let a = 0; a < this.asked; a += 1) {
      const cosines = this.centroids.score(this.sampleValues(a));
      const order = Array.from({ length: listCount }, (_, c) => c).sort(
        (x, y) => (cosines[y] as number) - (cosines[x] as number) || x - y,
      );
      const rankOf = new Int32Array(listCount);
      for (const [rank, list] of order.entries()) rankOf[list] = rank;
      for (const row of (this.nearest[a] as TopK).items()) {
        const list = this.listOf[row] ?? NONE;
        ranks.push(list === NONE ? listCount : (rankOf[list] as number));
      }
    }
    const centroids = this.centroids.memory.rows.slice(0, listCount * this.stride);
    const asked = this.asked;
    if (ranks.length === 0) {
      return { centroids, probes: Math.min(PROBE_MIN, listCount), recall: 1, asked };
    }
    ranks.sort((x, y) => x - y);
    const needed = (ranks[Math.max(0, Math.ceil(RECALL * ranks.length) - 1)] as number) + 1;
    const probes = Math.min(listCount, Math.max(PROBE_MIN, needed));
    const recall = ranks.filter((rank) => rank < probes).length / ranks.length;
    const worth = probes <= Math.max(PROBE_MIN, PROBE_MAX_SHARE * listCount);
    return { centroids, probes: worth ? probes : 0, recall, asked };
  }
}
