/**
 * Top-k selection for scoring: the k best (rule slot, score) pairs of a stream, kept in a small
 * binary min-heap so that a candidate is compared with the k-th best only.
 * @module
 */

/** Keeps the k best (slot, value) pairs with a small binary min-heap. */
export class TopK {
  private readonly slots: number[] = [];
  private readonly values: number[] = [];

  constructor(private readonly k: number) {}

  push(slot: number, value: number): void {
    if (this.slots.length < this.k) {
      this.slots.push(slot);
      this.values.push(value);
      this.siftUp(this.slots.length - 1);
    } else if (value > (this.values[0] ?? -Infinity)) {
      this.slots[0] = slot;
      this.values[0] = value;
      this.siftDown(0);
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** The smallest value held (the k-th best once full). */
  get min(): number {
    return this.values[0] ?? -Infinity;
  }

  /** Whether `value` would enter the heap (checked before costlier per-rule work). */
  wouldTake(value: number): boolean {
    return this.slots.length < this.k || value > (this.values[0] ?? -Infinity);
  }

  items(): number[] {
    return [...this.slots];
  }

  // Plain temporaries: a destructuring swap allocates two arrays per call on this hot path.
  private swap(a: number, b: number): void {
    const slot = this.slots[a] ?? 0;
    this.slots[a] = this.slots[b] ?? 0;
    this.slots[b] = slot;
    const value = this.values[a] ?? 0;
    this.values[a] = this.values[b] ?? 0;
    this.values[b] = value;
  }

  private siftUp(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.values[parent] ?? 0) <= (this.values[i] ?? 0)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(index: number): void {
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.slots.length && (this.values[left] ?? 0) < (this.values[smallest] ?? 0)) {
        smallest = left;
      }
      if (right < this.slots.length && (this.values[right] ?? 0) < (this.values[smallest] ?? 0)) {
        smallest = right;
      }
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
