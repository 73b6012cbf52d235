/**
 * Remembers the signatures already verified, for as long as they could be accepted again: a
 * signature is good for one call (contract.md, "Signatures"), and it can only be accepted while
 * its timestamp is within the window of the server clock, so it is forgotten once the window has
 * passed its timestamp. Keyed on the whole signature (adminkey, nonce, timestamp, uri), not on
 * the nonce: published clients of the platform send a fixed nonce with a fresh timestamp.
 * Signatures are kept in one set per time bucket of their expiry, so that forgetting costs a
 * bucket drop, not a scan, and a lookup one set (a signature's expiry follows from it).
 * @module
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { writeFileAtomic } from '../files/durable-fs';

const BUCKET_MS = 60_000;
/** Version of the saved file. Version 1 (no `version`) held nonces by the time they were used. */
const FILE_VERSION = 2;

interface SavedFile {
  version?: number;
  savedAt?: number;
  entries?: [number, string[]][];
}

export class NonceStore {
  /** Bucket of expiry (ms / BUCKET_MS, rounded down) → signatures expiring in it. */
  private readonly buckets = new Map<number, Set<string>>();

  /**
   * @param windowMs how far a timestamp may be from the server clock (the contract's 300 s): a
   *   signature is remembered until its timestamp plus this
   * @param notBefore timestamps older than this are refused outright: set after an unclean stop,
   *   when the signatures used just before it are unknown.
   */
  constructor(
    private readonly windowMs: number,
    public notBefore = 0,
  ) {}

  /**
   * Marks the signature `key`, whose timestamp is `timestampMs`, used at `nowMs`. Returns false
   * when it was already used (a replay).
   */
  use(key: string, timestampMs: number, nowMs: number): boolean {
    this.forget(nowMs);
    const bucket = Math.floor((timestampMs + this.windowMs) / BUCKET_MS);
    let set = this.buckets.get(bucket);
    if (set?.has(key)) return false;
    if (!set) {
      set = new Set();
      this.buckets.set(bucket, set);
    }
    set.add(key);
    return true;
  }

  /** Drops the buckets whose every signature has expired: none could be accepted again. */
  private forget(nowMs: number): void {
    for (const bucket of this.buckets.keys()) {
      if ((bucket + 1) * BUCKET_MS <= nowMs) this.buckets.delete(bucket);
    }
  }

  /** Saves the remembered signatures on a clean stop, so a restart does not reopen the window. */
  save(path: string, nowMs: number): void {
    this.forget(nowMs);
    const entries = [...this.buckets].map(([bucket, set]) => [bucket, [...set]]);
    writeFileAtomic(path, JSON.stringify({ version: FILE_VERSION, savedAt: nowMs, entries }));
  }

  /**
   * Restores what a clean stop saved. Returns false when there was nothing to restore (first
   * start, or the previous run did not stop cleanly). The file is removed: it only ever speaks
   * for the run that wrote it. A file of version 1 (used nonces, before replay was keyed on the
   * whole signature) cannot say which signatures were used: requests signed before that stop are
   * refused instead, as after an unclean stop; so are they when the file cannot be read.
   */
  restore(path: string, nowMs: number): boolean {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return false;
    }
    unlinkSync(path);
    let saved: SavedFile | null = null;
    try {
      saved = JSON.parse(text) as SavedFile;
    } catch {
      // Unreadable: which signatures were used is unknown.
    }
    if (saved?.version === undefined && typeof saved?.savedAt === 'number') {
      this.notBefore = Math.max(this.notBefore, saved.savedAt);
      return true;
    }
    if (saved?.version !== FILE_VERSION || !Array.isArray(saved.entries)) {
      this.notBefore = Math.max(this.notBefore, nowMs);
      return false;
    }
    for (const [bucket, keys] of saved.entries) this.buckets.set(bucket, new Set(keys));
    this.forget(nowMs);
    return true;
  }
}
