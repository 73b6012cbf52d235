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

/** Postings held back at most (~300 rules of the benchmark's; ~320 KB of buffers). */
const PENDING = 1 << 14;
const NONE = -1;

export class PendingPostings {
  private count = 0;
  private readonly terms = new Int32Array(PENDING);
  private readonly slots = new Int32Array(PENDING);
  private readonly codes = new Int32Array(PENDING);
  private readonly weights = new Float64Array(PENDING);
  /** Per pending posting, the next one of the same term (NONE: the last). */
  private readonly next = new Int32Array(PENDING);
  /** Per term, its first and last pending posting (NONE: none); reset as they are appended. */
  private first = new Int32Array(1024).fill(NONE);
  private last = new Int32Array(1024).fill(NONE);
  /** The terms with pending postings, in the order each first came. */
  private readonly order = new Int32Array(PENDING);
  private termsPending = 0;

  get size(): number {
    return this.count;
  }

  /** Holds a posting back (its weight's code taken now); appends the batch once it is full. */
  push(lists: PostingLists, term: number, slot: number, weight: number): void {
    const at = this.count;
    this.terms[at] = term;
    this.slots[at] = slot;
    this.codes[at] = lists.codeOf(weight);
    this.weights[at] = weight;
    this.next[at] = NONE;
    if (term >= this.first.length) this.growTerms(term + 1);
    const previous = this.last[term] ?? NONE;
    if (previous === NONE) {
      this.first[term] = at;
      this.order[this.termsPending] = term;
      this.termsPending += 1;
    } else {
      this.next[previous] = at;
    }
    this.last[term] = at;
    this.count = at + 1;
    if (this.count === PENDING) this.flush(lists);
  }

  /** Appends every posting held back to `lists`, term by term. */
  flush(lists: PostingLists): void {
    for (let t = 0; t < this.termsPending; t += 1) {
      const term = this.order[t] as number;
      for (let p = this.first[term] ?? NONE; p !== NONE; p = this.next[p] ?? NONE) {
        lists.addCoded(term, this.slots[p] ?? 0, this.codes[p] ?? 0, this.weights[p] ?? 0);
      }
      this.first[term] = NONE;
      this.last[term] = NONE;
    }
    this.count = 0;
    this.termsPending = 0;
  }

  /** Forgets what is held back (the lists are being rebuilt from the rules). */
  clear(): void {
    for (let t = 0; t < this.termsPending; t += 1) {
      const term = this.order[t] as number;
      this.first[term] = NONE;
      this.last[term] = NONE;
    }
    this.count = 0;
    this.termsPending = 0;
  }

  private growTerms(needed: number): void {
    const length = this.first.length;
    this.first = ensureCapacity(this.first, needed);
    this.last = ensureCapacity(this.last, needed);
    this.first.fill(NONE, length);
    this.last.fill(NONE, length);
  }
}
