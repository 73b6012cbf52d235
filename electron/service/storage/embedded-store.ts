/**
 * The embedded store: the repositories over one sql.js database in a data directory (the desktop
 * app and `npm run serve`).
 * @module
 */
import type { KbStore } from '../repositories/store';
import { Store } from './database';
import type { StoreOptions } from './database';
import { SqlJsCategoryRepository } from './repositories/category-repository';
import { SqlJsRobotRepository } from './repositories/robot-repository';
import { SqlJsRuleRepository } from './repositories/rule-repository';
import type { TextKey } from './repositories/rule-repository';
import { SqlJsTenantRepository, SqlJsUserRepository } from './repositories/tenant-repository';
import { SqlJsTestSetRepository } from './repositories/test-set-repository';
import { SqlJsVersionRepository } from './repositories/version-repository';

export class EmbeddedStore implements KbStore {
  readonly tenants: SqlJsTenantRepository;
  readonly users: SqlJsUserRepository;
  readonly robots: SqlJsRobotRepository;
  readonly rules: SqlJsRuleRepository;
  readonly categories: SqlJsCategoryRepository;
  readonly versions: SqlJsVersionRepository;
  readonly testSets: SqlJsTestSetRepository;

  private constructor(
    private readonly db: Store,
    textKey: TextKey,
  ) {
    this.tenants = new SqlJsTenantRepository(db);
    this.users = new SqlJsUserRepository(db);
    this.robots = new SqlJsRobotRepository(db);
    this.rules = new SqlJsRuleRepository(db, textKey);
    this.categories = new SqlJsCategoryRepository(db);
    this.versions = new SqlJsVersionRepository(db, this.rules);
    this.testSets = new SqlJsTestSetRepository(db);
  }

  /**
   * Opens (or creates) the store of a data directory (see `Store.open`). `textKey` turns text
   * into what rules are searched by; rules without a search text yet get one now.
   */
  static async open(options: StoreOptions & { textKey: TextKey }): Promise<EmbeddedStore> {
    const store = new EmbeddedStore(await Store.open(options), options.textKey);
    const filled = store.rules.fillSearchText();
    if (filled > 0) options.logger.info(`indexed ${filled} rule(s) for search`);
    return store;
  }

  /** The journal's last committed sequence number. */
  get position(): number {
    return this.db.lastSeq;
  }

  get recoveredFromUncleanStop(): boolean {
    return this.db.recoveredFromUncleanStop;
  }

  close(options?: { beforeRelease?: () => void }): Promise<void> {
    return this.db.close(options);
  }
}
