/**
 * The team server's store: the repositories over a PostgreSQL database (docs/team-server.md,
 * "The PostgreSQL store"). Several service processes may open one database at once; each write
 * is one transaction, committed before it is answered.
 * @module
 */
import type { Logger } from '../../logger';
import type { KbStore } from '../contract/store';
import type { TextKey } from '../sql/rule-rows';
import { DatabaseAvailability } from './availability';
import { DEFAULT_DATABASE_TIMEOUTS, LONG_STATEMENT_MS, openPool } from './connection';
import type { DatabaseTimeouts, Pool } from './connection';
import { Database } from './database';
import { migrate } from './migrate';
import { PostgresCategoryRepository } from './repositories/categories';
import { PostgresRobotRepository } from './repositories/robots';
import { PostgresRuleRepository } from './repositories/rules';
import { PostgresSessionRepository } from './repositories/sessions';
import { PostgresSignInFailureRepository } from './repositories/sign-in-failures';
import { PostgresTenantRepository, PostgresUserRepository } from './repositories/tenants';
import { PostgresTestSetRepository } from './repositories/test-sets';
import { PostgresFusionExamples } from './repositories/fusion-examples';
import { PostgresVectorCache } from './repositories/vectors';
import { PostgresVersionRepository } from './repositories/versions';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  url: string;
  logger: Logger;
  /** Turns text into what rules are searched by (as for the embedded store). */
  textKey: TextKey;
  /** Connections this node keeps at most (default 10). */
  maxConnections?: number;
  /** How long the node waits for the database (default: `DEFAULT_DATABASE_TIMEOUTS`). */
  timeouts?: DatabaseTimeouts;
}

export class PostgresStore implements KbStore {
  readonly tenants: PostgresTenantRepository;
  readonly users: PostgresUserRepository;
  readonly robots: PostgresRobotRepository;
  readonly rules: PostgresRuleRepository;
  readonly categories: PostgresCategoryRepository;
  readonly versions: PostgresVersionRepository;
  readonly testSets: PostgresTestSetRepository;
  readonly sessions: PostgresSessionRepository;
  readonly signInFailures: PostgresSignInFailureRepository;
  readonly vectors: PostgresVectorCache;
  readonly fusionExamples: PostgresFusionExamples;
  /** A server keeps no state of its own that an unclean stop could leave behind. */
  readonly recoveredFromUncleanStop = false;
  private closing: Promise<void> | undefined;

  private constructor(
    /** The connections, for the parts of a team server beside the store (question log, feed). */
    readonly pool: Pool,
    readonly db: Database,
    /** Whether the database answers, as this node's calls find it (one log line per outage). */
    readonly availability: DatabaseAvailability,
    /** How long the node waits for the database. */
    readonly timeouts: DatabaseTimeouts,
    textKey: TextKey,
  ) {
    this.tenants = new PostgresTenantRepository(db);
    this.users = new PostgresUserRepository(db);
    this.robots = new PostgresRobotRepository(db);
    this.rules = new PostgresRuleRepository(db, textKey);
    this.categories = new PostgresCategoryRepository(db);
    this.versions = new PostgresVersionRepository(db, textKey);
    this.testSets = new PostgresTestSetRepository(db);
    this.sessions = new PostgresSessionRepository(db);
    this.signInFailures = new PostgresSignInFailureRepository(db);
    this.vectors = new PostgresVectorCache(db);
    this.fusionExamples = new PostgresFusionExamples(db);
  }

  /**
   * Connects, brings the schema up to date (on a connection of its own whose statements may run
   * long: a migration's index on a large table, the wait for another node's migration), and
   * reads the position.
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
    const availability = new DatabaseAvailability(options.logger);
    const migrating = openPool({
      ...options,
      maxConnections: 1,
      timeouts: { ...timeouts, queryMs: LONG_STATEMENT_MS, statementMs: LONG_STATEMENT_MS },
      availability,
    });
    try {
      await migrate(migrating, options.logger);
    } finally {
      await migrating.end().catch(() => undefined);
    }
    const pool = openPool({ ...options, timeouts, availability });
    try {
      const db = new Database(pool, availability);
      await db.loadPosition();
      return new PostgresStore(pool, db, availability, timeouts, options.textKey);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The highest position of a change this node committed, or of the database at open: grows
   * with every write of this node (a sequence shared by every node).
   */
  get position(): number {
    return this.db.position;
  }

  /** Ends the pool once the queries in flight are done; `beforeRelease` runs after. */
  close(options?: { beforeRelease?: () => void }): Promise<void> {
    this.closing ??= this.pool.end().then(() => options?.beforeRelease?.());
    return this.closing;
  }
}
