/**
 * Remembers used nonces for the replay window. Nonces are kept in one set per time bucket so
 * that forgetting old ones costs a bucket drop, not a scan.
 * @module
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { writeFileAtomic } from '../storage/durable-fs';

const BUCKET_MS = 60_000;

export class NonceStore {
  private readonly buckets = new Map<number, Set<string>>();

  /**
   * @param memoryMs how long a nonce stays used (the contract's 10 minutes)
   * @param notBefore timestamps older than this are refused outright: set after an unclean stop,
   *   when the nonces used just before it are unknown.
   */
  constructor(
    private readonly memoryMs: number,
    public notBefore = 0,
  ) {}

  /** Marks `key` used at `nowMs`. Returns false when it was already used (a replay). */
  use(key: string, nowMs: number): boolean {
    this.forget(nowMs);
    for (const set of this.buckets.values()) if (set.has(key)) return false;
    const bucket = Math.floor(nowMs / BUCKET_MS);
    let set = this.buckets.get(bucket);
    if (!set) {
      set = new Set();
      this.buckets.set(bucket, set);
    }
    set.add(key);
    return true;
  }

  private forget(nowMs: number): void {
    const oldest = Math.floor((nowMs - this.memoryMs) / BUCKET_MS) - 1;
    for (const bucket of this.buckets.keys()) if (bucket < oldest) this.buckets.delete(bucket);
  }

  /** Saves the remembered nonces on a clean stop, so a restart does not reopen the window. */
  save(path: string, nowMs: number): void {
    this.forget(nowMs);
    const entries = [...this.buckets].map(([bucket, set]) => [bucket, [...set]]);
    writeFileAtomic(path, JSON.stringify({ savedAt: nowMs, entries }));
  }

  /**
   * Restores nonces saved by a clean stop. Returns false when there was nothing to restore (first
   * start, or the previous run did not stop cleanly). The file is removed: it only ever speaks
   * for the run that wrote it.
   */
  restore(path: string, nowMs: number): boolean {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return false;
    }
    unlinkSync(path);
    try {
      const saved = JSON.parse(text) as { entries: [number, string[]][] };
      for (const [bucket, keys] of saved.entries) this.buckets.set(bucket, new Set(keys));
      this.forget(nowMs);
      return true;
    } catch {
      return false;
    }
  }
}
