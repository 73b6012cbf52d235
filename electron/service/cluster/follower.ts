/**
 * A team server node's follower: applies the changes every node writes (the change feed) to this
 * node's memory. Woken by NOTIFY on a connection of its own, by a timer (a lost notification or
 * connection costs at most its period) and after the connection comes back (catch-up); one read
 * at a time, each read taking everything not applied yet (change-feed.ts).
 * @module
 */
import pg from 'pg';
import type { DomainContext } from '../domain/context';
import type { Logger } from '../logger';
import { StorageUnavailable } from '../store/contract/errors';
import { DatabaseAvailability } from '../store/postgres/availability';
import { clientConfig } from '../store/postgres/connection';
import type { DatabaseTimeouts, Pool } from '../store/postgres/connection';
import { pruneChanges } from './change-feed';
import type { Change, ChangeFeed } from './change-feed';
import { followChanges, followEverything } from './follow-changes';
import { CHANGES_CHANNEL } from '../store/postgres/cluster-schema';

export interface FollowerOptions {
  ctx: DomainContext;
  pool: Pool;
  /** The database's URL, for the listening connection (not taken from the pool). */
  url: string;
  /** The feed, its position taken before the node loaded its state. */
  feed: ChangeFeed;
  logger: Logger;
  /** Reads even without a notification this often (default 1 s). */
  pollMs?: number;
  /** Changes are kept this long, then pruned (default 6 h). */
  keepMs?: number;
  /** How long the listening connection waits for the database. */
  timeouts?: DatabaseTimeouts;
  /**
   * Where outages are noted (the store's): a lost listening connection is one, and a connection
   * made again ends it; one of its own when not given.
   */
  availability?: DatabaseAvailability;
}

const RECONNECT_MS = 1000;
/** Batches that fail to apply in a row before the node reloads everything instead. */
const FAILURES_BEFORE_RELOAD = 3;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const DEFAULT_KEEP_MS = 6 * 60 * 60 * 1000;

export class Follower {
  private listener: pg.Client | null = null;
  private timers: NodeJS.Timeout[] = [];
  private reconnectTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private pending = false;
  private stopped = false;
  private lastRead = Date.now();
  /** A failure to follow was logged: its end is logged too. */
  private failing = false;
  /** Batches in a row whose changes could not be applied (not those the database failed). */
  private unapplied = 0;
  /**
   * Settles once every batch handed to the robots' write queues so far is applied (or has
   * failed): one link per batch. Not a `Promise.allSettled` over the batches pending at each
   * wake: during a long write of this node (its own bundle import holds its robot's queue for
   * minutes) every read leaves a batch pending and every wake (the timer's, each notification's)
   * took all of them again, and the reactions, quadratic in the import's length, all ran in one
   * stretch of microtasks when the import ended (a 50 MB import: ~200 ms with no turn of the
   * event loop; decision 161).
   */
  private allApplied: Promise<void> = Promise.resolve();
  /** Changes of batches whose application failed: applied again with the next read. */
  private retry: Change[] = [];
  private readonly pollMs: number;
  private readonly keepMs: number;
  private readonly availability: DatabaseAvailability;

  constructor(private readonly options: FollowerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.keepMs = options.keepMs ?? DEFAULT_KEEP_MS;
    this.availability = options.availability ?? new DatabaseAvailability(options.logger);
  }

  /** When the feed was last read and applied (ms since the epoch). */
  get lastReadAt(): number {
    return this.lastRead;
  }

  /** Starts following (the feed's position is already taken). */
  async start(): Promise<void> {
    await this.listen();
    this.timers.push(setInterval(() => void this.read(), this.pollMs));
    const prune = () =>
      pruneChanges(this.options.pool, Date.now() - this.keepMs).catch((error: unknown) =>
        this.options.logger.warn(`could not prune the change feed: ${(error as Error).message}`),
      );
    this.timers.push(setInterval(() => void prune(), PRUNE_EVERY_MS));
    for (const timer of this.timers) timer.unref();
    void prune();
    void this.read();
  }

  /**
   * Reads and applies what is new; resolves once a read that started after this call is applied
   * (a caller knows every change committed before its call is then in memory). The reads
   * themselves never wait for an application (see `readOnce`).
   */
  wake(): Promise<void> {
    return this.read().then(() => this.allApplied);
  }

  /**
   * Reads what is new, without waiting for its application: the timer and the notifications,
   * which nobody waits on, add nothing to wait for the applications with.
   */
  private read(): Promise<void> {
    this.pending = true;
    this.running ??= this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending && !this.stopped) {
      this.pending = false;
      try {
        await this.readOnce();
        if (this.failing) this.options.logger.info('following the change feed again');
        this.failing = false;
      } catch (error) {
        // Logged once per streak of failures; the timer and the reconnect try again. The
        // database away is not said again here: its outage has its line (availability.ts).
        if (!this.failing && !(error instanceof StorageUnavailable)) {
          this.options.logger.warn(
            `could not follow the change feed: ${(error as Error).message}; retrying`,
          );
          this.failing = true;
        }
        return;
      }
    }
  }

  private async readOnce(): Promise<void> {
    const { ctx, feed, logger } = this.options;
    const now = Date.now();
    const lost = now - this.lastRead > this.keepMs / 2;
    if (lost || this.unapplied >= FAILURES_BEFORE_RELOAD) {
      // Away long enough that changes it never read may be pruned, or stuck on a change it
      // cannot apply: everything is read again, and followed from a new position.
      logger.warn(
        lost
          ? 'the change feed was not read for too long: reloading every robot'
          : 'changes could not be applied: reloading every robot',
      );
      await feed.start();
      this.retry = [];
      this.unapplied = 0;
      this.lastRead = now;
      // Handed over as a batch is (below): each robot is read again in its own write queue.
      this.handOver(followEverything(ctx), []);
      return;
    }
    const batch = await feed.read();
    const changes = this.retry.length > 0 ? [...this.retry, ...batch.changes] : batch.changes;
    this.retry = [];
    // Handed over, not awaited: each robot's part waits in that robot's write queue only, so a
    // long write of this node (a 90k-rule import held following for its whole 36 min) delays
    // nothing but its own robot, and the node stays current (and ready) for every other one.
    // The position moves on; a batch that fails to apply is applied again with the next read.
    this.handOver(followChanges(ctx, changes), changes);
    batch.advance();
    this.lastRead = now;
  }

  /** Keeps track of an application under way; its changes are retried if it fails. */
  private handOver(work: Promise<void>, changes: readonly Change[]): void {
    const applying = work.then(
      () => {
        this.unapplied = 0;
      },
      (error: unknown) => {
        // Logged once per streak, as a failed read is; the next read applies them again.
        if (this.unapplied === 0 && !(error instanceof StorageUnavailable)) {
          this.options.logger.warn(
            `changes could not be applied: ${(error as Error).message}; retrying`,
          );
        }
        this.unapplied += 1;
        this.retry.push(...changes);
      },
    );
    // `applying` handles its own failure; the catch keeps one unforeseen from failing every wake.
    const before = this.allApplied;
    this.allApplied = before.then(() => applying).catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(clientConfig(this.options.url, this.options.timeouts));
    const outage = this.availability.outageCount;
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      // An outage's one line, not one per attempt to connect again (every second meanwhile).
      this.availability.lost(error ?? new Error("the change feed's connection ended"));
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => void this.read());
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    this.availability.answered(outage);
    // What was written while not listening is read now (catch-up).
    void this.read();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.stopped) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.listen();
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    await this.running;
    await this.allApplied;
  }
}
