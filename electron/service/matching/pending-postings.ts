/**
 * Postings appended to the lists in batches, grouped by term. Appending each rule's postings at
 * once writes one slot per term of the rule, each at the tail of another list: at 100k rules the
 * lists (~22 MB) are far larger than the caches, and that write was a third of the indexing
 * time of an import (a cache miss per posting, issue 31, decision 187). Held back until PENDING
 * postings wait or the lists are read, each term's postings of the batch go to its list
 * together, in the order they came (keys still increase along a list), so a common term's
 * tail is fetched once per batch. The lists end up the same, posting for posting.
 * @module
 */
import type { PostingLists } from './posting-lists';
import { ensureCapacity } from './typed-arrays';

/** Postings held back at most (~300 rules of the benchmark's; ~400 KB of buffers). */
const PENDING = 1 << 14;
const NONE = -1;

/** The buffers of one batch, made at its first posting and dropped once it is appended. */
class Batch {
  count = 0;
  readonly slots = new Int32Array(PENDING);
  readonly codes = new Int32Array(PENDING);
  readonly weights = new Float64Array(PENDING);
  /** Per pending posting, the next one of the same term (NONE: the last). */
  readonly next = new Int32Array(PENDING);
  /** Per term, its first and last pending posting (NONE: none). */
  first: Int32Array;
  last: Int32Array;
  /** The terms with pending postings, in the order each first came. */
  readonly order = new Int32Array(PENDING);
  termsPending = 0;

  constructor(terms: number) {
    this.first = new Int32Array(terms).fill(NONE);
    this.last = new Int32Array(terms).fill(NONE);
  }

  growTerms(needed: number): void {
    const length = this.first.length;
    this.first = ensureCapacity(this.first, needed);
    this.last = ensureCapacity(this.last, needed);
    this.first.fill(NONE, length);
    this.last.fill(NONE, length);
  }
}

/**
 * Held-back postings of one vocabulary. Its buffers exist only while postings wait: a robot's
 * index that is opened and asked, never written, keeps none (a node holds many of them).
 */
export class PendingPostings {
  private batch: Batch | null = null;

  get size(): number {
    return this.batch?.count ?? 0;
  }

  /**
   * Holds a posting back (its weight's code taken now, in the order postings come); appends
   * the batch once it is full. `terms`: how many terms the vocabulary has.
   */
  push(lists: PostingLists, terms: number, term: number, slot: number, weight: number): void {
    const batch = (this.batch ??= new Batch(terms));
    const at = batch.count;
    batch.slots[at] = slot;
    batch.codes[at] = lists.codeOf(weight);
    batch.weights[at] = weight;
    batch.next[at] = NONE;
    if (term >= batch.first.length) batch.growTerms(Math.max(terms, term + 1));
    const previous = batch.last[term] ?? NONE;
    if (previous === NONE) {
      batch.first[term] = at;
      batch.order[batch.termsPending] = term;
      batch.termsPending += 1;
    } else {
      batch.next[previous] = at;
    }
    batch.last[term] = at;
    batch.count = at + 1;
    if (batch.count === PENDING) this.flush(lists);
  }

  /** Appends every posting held back to `lists`, term by term, and drops the buffers. */
  flush(lists: PostingLists): void {
    const batch = this.batch;
    if (batch === null) return;
    this.batch = null;
    for (let t = 0; t < batch.termsPending; t += 1) {
      const term = batch.order[t] as number;
      for (let p = batch.first[term] ?? NONE; p !== NONE; p = batch.next[p] ?? NONE) {
        lists.addCoded(term, batch.slots[p] ?? 0, batch.codes[p] ?? 0, batch.weights[p] ?? 0);
      }
    }
  }

  /** Forgets what is held back (the lists are being rebuilt from the rules). */
  clear(): void {
    this.batch = null;
  }
}
