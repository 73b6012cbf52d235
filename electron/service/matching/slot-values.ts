/**
 * Per-rule-slot values (ids, names, questions) that may come from a saved index's string table:
 * those are decoded when first read, so opening 100k rules decodes none of them up front.
 * @module
 */
import type { StringTable } from './binary-snapshot';

export class SlotValues<T extends string | readonly string[]> {
  /** null: not decoded from the table yet. */
  private readonly values: (T | string | null)[];

  constructor(
    private readonly empty: T,
    private readonly table: StringTable | null = null,
  ) {
    this.values = table ? new Array<T | string | null>(table.length).fill(null) : [];
  }

  /** The value, or the table's string when the slot was never written since opening. */
  get(slot: number): T | string {
    const value = this.values[slot];
    if (value !== null && value !== undefined) return value;
    if (value === null && this.table) {
      const decoded = this.table.get(slot);
      this.values[slot] = decoded;
      return decoded;
    }
    return this.empty;
  }

  /** Like `get`, without keeping a decoded string (saving reads every slot once). */
  peek(slot: number): T | string {
    const value = this.values[slot];
    if (value === null && this.table) return this.table.get(slot);
    return value ?? this.empty;
  }

  set(slot: number, value: T | string): void {
    this.values[slot] = value;
  }
}
