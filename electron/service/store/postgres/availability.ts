/**
 * Whether this node reaches its PostgreSQL, as its calls find it: an outage is one log line when
 * the first call fails for want of the database and one when a call made since is answered, not
 * a line (nor a stack trace) per request. Every part of a node that talks to the database (the
 * store, the question log, the signatures, the change feed) reports to the same one, so a node
 * that is only following the feed notices the end of an outage by itself (its read every second).
 * @module
 */
import type { Logger } from '../../logger';
import { isConnectionFailure, isStatementTimeout, mappedError } from './database-errors';

export class DatabaseAvailability {
  /** Outages begun so far: a call answered ends the outage only if it began during it. */
  private outages = 0;
  private downSince: number | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** False from a failure for want of the database until a call made since is answered. */
  get reachable(): boolean {
    return this.downSince === null;
  }

  /** A sign that the database is away: the outage's one line, on the first. */
  lost(error: unknown): void {
    if (this.downSince !== null) return;
    this.downSince = this.now();
    this.outages += 1;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `PostgreSQL cannot be reached (${reason}): requests that need it are answered 503 storage-unavailable until it answers again`,
    );
  }

  /**
   * Runs one call to the database: its failure in the store's terms (`mappedError`), the outage
   * it shows noted, its success ending an outage. `committing`: the call is a write's COMMIT.
   */
  async call<T>(work: () => Promise<T>, options: { committing?: boolean } = {}): Promise<T> {
    const outage = this.outages;
    try {
      const result = await work();
      this.answered(outage);
      return result;
    } catch (error) {
      throw this.failed(error, options);
    }
  }

  /** A call begun during outage number `outage` was answered. */
  answered(outage: number): void {
    if (this.downSince === null || outage !== this.outages) return;
    const seconds = Math.round((this.now() - this.downSince) / 100) / 10;
    this.downSince = null;
    this.logger.info(`PostgreSQL answers again (it could not be reached for ${seconds} s)`);
  }

  /** The outage count, for `answered` by a caller that times its own calls. */
  get outageCount(): number {
    return this.outages;
  }

  /** `error` in the store's terms, its outage noted (a statement timeout is a line of its own). */
  failed(error: unknown, options: { committing?: boolean } = {}): unknown {
    if (isConnectionFailure(error)) this.lost(error);
    else if (isStatementTimeout(error)) {
      this.logger.warn(`a statement ran over the database's statement timeout and was cancelled`);
    }
    return mappedError(error, options);
  }
}
