/**
 * Replay refusal across the nodes of a team server: a signature used on any node is recorded in
 * PostgreSQL (`used_signatures`), and a second use anywhere finds it there. Kept, like the
 * embedded NonceStore, until the signature's timestamp has left the window, then pruned.
 * @module
 */
import type { Pool } from '../postgres/connection';

const PRUNE_EVERY_MS = 60_000;

export class SharedSignatures {
  private lastPrune = 0;

  /** @param windowMs how far a timestamp may be from the server clock (the contract's 300 s) */
  constructor(
    private readonly pool: Pool,
    private readonly windowMs: number,
  ) {}

  /**
   * Records the signature `key` (timestamp `timestampMs`) as used; false when any node has
   * used it already (a replay). The insert is committed before the request is served.
   */
  async use(key: string, timestampMs: number, nowMs: number): Promise<boolean> {
    if (nowMs - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = nowMs;
      void this.prune(nowMs).catch(() => undefined);
    }
    const result = await this.pool.query(
      'INSERT INTO used_signatures (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [key, timestampMs + this.windowMs],
    );
    return result.rowCount === 1;
  }

  /** Forgets the signatures whose timestamps can no longer be accepted; returns how many. */
  async prune(nowMs: number): Promise<number> {
    const result = await this.pool.query('DELETE FROM used_signatures WHERE expires_at < $1', [
      nowMs,
    ]);
    return result.rowCount ?? 0;
  }
}
