/**
 * What makes a service on PostgreSQL one node among several (docs/team-server.md, "Several
 * nodes"): the team server's own tables, the feed's position taken before the node loads its
 * state, the follower started once it has, and the signatures shared for replay refusal.
 * @module
 */
import type { DomainContext } from '../domain/context';
import { LIMITS } from '../limits';
import type { Logger } from '../logger';
import type { DatabaseAvailability } from '../store/postgres/availability';
import type { DatabaseTimeouts, Pool } from '../store/postgres/connection';
import { ChangeFeed } from './change-feed';
import { Follower } from './follower';
import { SharedSignatures } from './shared-signatures';

export interface ClusterNodeOptions {
  pool: Pool;
  /** The database's URL (the follower listens on a connection of its own). */
  url: string;
  logger: Logger;
  /** The follower's safety-net period (default 1 s). */
  pollMs?: number;
  /** How long the node waits for the database (the store's). */
  timeouts?: DatabaseTimeouts;
  /** Where outages are noted (the store's: one line per outage for the whole node). */
  availability?: DatabaseAvailability;
}

export class ClusterNode {
  readonly signatures: SharedSignatures;
  private follower: Follower | null = null;

  private constructor(
    private readonly options: ClusterNodeOptions,
    private readonly feed: ChangeFeed,
  ) {
    this.signatures = new SharedSignatures(options.url, LIMITS.timestampWindowMs, options.logger, {
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.availability ? { availability: options.availability } : {}),
    });
  }

  /**
   * Takes the feed's position: call it once the database is migrated (its tables are server
   * migrations) and before the node loads anything from the store.
   */
  static async join(options: ClusterNodeOptions): Promise<ClusterNode> {
    const feed = new ChangeFeed(options.pool, options.availability);
    await feed.start();
    return new ClusterNode(options, feed);
  }

  /** Starts following the other nodes' writes into `ctx` (once the node has loaded its state). */
  async follow(ctx: DomainContext): Promise<void> {
    const follower = new Follower({
      ctx,
      pool: this.options.pool,
      url: this.options.url,
      feed: this.feed,
      logger: this.options.logger,
      pollMs: this.options.pollMs,
      ...(this.options.timeouts ? { timeouts: this.options.timeouts } : {}),
      ...(this.options.availability ? { availability: this.options.availability } : {}),
    });
    await follower.start();
    this.follower = follower;
  }

  /** Milliseconds since the feed was last read and applied; null before following starts. */
  feedLagMs(): number | null {
    return this.follower ? Date.now() - this.follower.lastReadAt : null;
  }

  /** Applies what every node has committed so far (a stop, or a test, waits for it). */
  catchUp(): Promise<void> {
    return this.follower?.wake() ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    await this.follower?.stop();
    this.follower = null;
    await this.signatures.close();
  }
}
