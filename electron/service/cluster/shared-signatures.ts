/**
 * Replay refusal across the nodes of a team server: a signature used on any node is recorded in
 * PostgreSQL (`used_signatures`), and a second use anywhere finds it there. Kept, like the
 * embedded NonceStore, until the signature's timestamp has left the window, then pruned.
 *
 * Every signed request writes a row, so these writes go through connections of their own with
 * `synchronous_commit` off: the row is visible to every node at commit (what replay refusal
 * needs) without waiting for the disk. What a crash of the database server can lose is the last
 * fraction of a second of used signatures, as the embedded store's memory would.
 * @module
 */
import type { Logger } from '../logger';
import { DatabaseAvailability } from '../store/postgres/availability';
import { openPool } from '../store/postgres/connection';
import type { DatabaseTimeouts, Pool } from '../store/postgres/connection';

const PRUNE_EVERY_MS = 60_000;
/** Inserts are short: a few connections keep up with every request of a node. */
const CONNECTIONS = 4;

export interface SharedSignaturesOptions {
  timeouts?: DatabaseTimeouts;
  /** Where outages are noted (the store's); one of its own when not given. */
  availability?: DatabaseAvailability;
}

export class SharedSignatures {
  private lastPrune = 0;
  private readonly pool: Pool;
  private readonly availability: DatabaseAvailability;

  /**
   * @param url the database's URL
   * @param windowMs how far a timestamp may be from the server clock (the contract's 300 s)
   */
  constructor(
    url: string,
    private readonly windowMs: number,
    logger: Logger,
    options: SharedSignaturesOptions = {},
  ) {
    this.availability = options.availability ?? new DatabaseAvailability(logger);
    // `synchronous_commit` is a setting of the connections' start-up: a `SET` sent when each
    // connects would overlap the first insert on it (node-postgres's "client.query() when the
    // client is already executing a query" warning, at a node's first signed request).
    this.pool = openPool({
      url,
      logger,
      maxConnections: CONNECTIONS,
      availability: this.availability,
      settings: { synchronous_commit: 'off' },
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    });
  }

  /**
   * Records the signature `key` (timestamp `timestampMs`) as used; false when any node has
   * used it already (a replay). The insert is committed before the request is served.
   */
  async use(key: string, timestampMs: number, nowMs: number): Promise<boolean> {
    if (nowMs - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = nowMs;
      void this.prune(nowMs).catch(() => undefined);
    }
    const result = await this.availability.call(() =>
      this.pool.query(
        'INSERT INTO used_signatures (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [key, timestampMs + this.windowMs],
      ),
    );
    return result.rowCount === 1;
  }

  /** Forgets the signatures whose timestamps can no longer be accepted; returns how many. */
  async prune(nowMs: number): Promise<number> {
    const result = await this.availability.call(() =>
      this.pool.query('DELETE FROM used_signatures WHERE expires_at < $1', [nowMs]),
    );
    return result.rowCount ?? 0;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
