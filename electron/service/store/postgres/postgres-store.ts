/**
 * The team server's store: the repositories over a PostgreSQL database (docs/team-server.md,
 * "The PostgreSQL store"). Several service processes may open one database at once; each write
 * is one transaction, committed before it is answered.
 * @module
 */
import type { Logger } from '../../logger';
import type { KbStore } from '../contract/store';
import type { TextKey } from '../sql/rule-rows';
import { openPool } from './connection';
import type { Pool } from './connection';
import { Database } from './database';
import { migrate } from './migrate';
import { PostgresCategoryRepository } from './repositories/categories';
import { PostgresRobotRepository } from './repositories/robots';
import { PostgresRuleRepository } from './repositories/rules';
import { PostgresSessionRepository } from './repositories/sessions';
import { PostgresSignInFailureRepository } from './repositories/sign-in-failures';
import { PostgresTenantRepository, PostgresUserRepository } from './repositories/tenants';
import { PostgresTestSetRepository } from './repositories/test-sets';
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
  /** A server keeps no state of its own that an unclean stop could leave behind. */
  readonly recoveredFromUncleanStop = false;
  private closing: Promise<void> | undefined;

  private constructor(
    /** The connections, for the parts of a team server beside the store (question log, feed). */
    readonly pool: Pool,
    readonly db: Database,
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
  }

  /** Connects, brings the schema up to date, and reads the position. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = openPool(options);
    try {
      await migrate(pool, options.logger);
      const db = new Database(pool);
      await db.loadPosition();
      return new PostgresStore(pool, db, options.textKey);
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
