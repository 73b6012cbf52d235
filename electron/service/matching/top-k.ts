/**
 * Top-k selection for scoring: the k best (rule slot, score) pairs of a stream, kept in a small
 * binary min-heap so that a candidate is compared with the k-th best only. Typed arrays reused
 * from one question to the next (`reset`): a question allocates nothing here.
 *
 * Which of two equal scores stays, and the order of `slotAt`, follow from the order of the
 * pushes: the scorer's shortlist (and through it the order of rules whose scores tie) depends
 * on it, so the sifting below must not change.
 * @module
 */

export class TopK {
  private slots: Int32Array;
  private values: Float64Array;
  private count = 0;

  constructor(private k: number) {
    this.slots = new Int32Array(k);
    this.values = new Float64Array(k);
  }

  /** Empties the heap, to keep the `k` best from now on. */
  reset(k: number): void {
    if (k > this.slots.length) {
      this.slots = new Int32Array(k);
      this.values = new Float64Array(k);
    }
    this.k = k;
    this.count = 0;
  }

  push(slot: number, value: number): void {
    if (this.count < this.k) {
      this.slots[this.count] = slot;
      this.values[this.count] = value;
      this.count += 1;
      this.siftUp(this.count - 1);
    } else if (this.count > 0 && value > (this.values[0] as number)) {
      this.slots[0] = slot;
      this.values[0] = value;
      this.siftDown(0);
    }
  }

  get size(): number {
    return this.count;
  }

  /** The smallest value held (the k-th best once full). */
  get min(): number {
    return this.count > 0 ? (this.values[0] as number) : -Infinity;
  }

  /** Whether `value` would enter the heap (checked before costlier per-rule work). */
  wouldTake(value: number): boolean {
    return this.count < this.k || value > (this.values[0] as number);
  }

  /** The i-th slot held, in heap order (0 ≤ i < size). */
  slotAt(i: number): number {
    return this.slots[i] as number;
  }

  items(): number[] {
    return Array.from(this.slots.subarray(0, this.count));
  }

  private swap(a: number, b: number): void {
    const slots = this.slots;
    const values = this.values;
    const slot = slots[a] as number;
    slots[a] = slots[b] as number;
    slots[b] = slot;
    const value = values[a] as number;
    values[a] = values[b] as number;
    values[b] = value;
  }

  private siftUp(index: number): void {
    const values = this.values;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((values[parent] as number) <= (values[i] as number)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(index: number): void {
    const values = this.values;
    const count = this.count;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < count && (values[left] as number) < (values[smallest] as number)) smallest = left;
      if (right < count && (values[right] as number) < (values[smallest] as number)) {
        smallest = right;
      }
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
