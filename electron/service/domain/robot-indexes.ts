/**
 * The matching indexes of the robots, in memory, keyed by robot (and, once publishing lands, by
 * which edition of its rules an index holds). An index follows every write of its rules
 * (rule-changes.ts); an index whose update threw half-way may no longer match the store: it is
 * marked, never saved, and rebuilt at the next start.
 * @module
 */
import type { CreateRobotIndex, RobotIndex } from '../matching/types';
import { forEachInSlices } from '../time-slices';

export class RobotIndexes {
  private readonly indexes = new Map<string, RobotIndex>();
  private readonly tainted = new Set<string>();

  constructor(private readonly createIndex: CreateRobotIndex) {}

  /** The index under `key`, made empty on first use. */
  of(key: string): RobotIndex {
    let index = this.indexes.get(key);
    if (!index) {
      index = this.createIndex();
      this.indexes.set(key, index);
    }
    return index;
  }

  /** A new empty index that is not kept here (an old version's, for a test run). */
  createDetached(): RobotIndex {
    return this.createIndex();
  }

  /** Puts an index opened from a saved file in place of the empty one. */
  replace(key: string, index: RobotIndex): void {
    this.indexes.set(key, index);
  }

  /**
   * Runs `update` on the index after a committed write. If it throws, the index is marked so
   * that it is never saved, and the error goes on.
   */
  update(key: string, update: (index: RobotIndex) => void): void {
    try {
      update(this.of(key));
    } catch (error) {
      this.tainted.add(key);
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
    const index = this.of(key);
    try {
      await forEachInSlices(items, (item) => update(index, item));
    } catch (error) {
      this.tainted.add(key);
      throw error;
    }
  }

  /** Forgets an index (its robot was deleted): its memory can be reclaimed. */
  drop(key: string): void {
    this.indexes.delete(key);
    this.tainted.delete(key);
  }

  isTainted(key: string): boolean {
    return this.tainted.has(key);
  }

  clear(): void {
    this.indexes.clear();
    this.tainted.clear();
  }
}
