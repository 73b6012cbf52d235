/**
 * The embedded store: the repositories over one sql.js database in a data directory (the desktop
 * app and `npm run serve`).
 * @module
 */
import type { KbStore } from '../repositories/store';
import { Store } from './database';
import type { StoreOptions } from './database';
import { SqlJsRobotRepository } from './repositories/robot-repository';
import { SqlJsRuleRepository } from './repositories/rule-repository';
import { SqlJsTenantRepository, SqlJsUserRepository } from './repositories/tenant-repository';

export class EmbeddedStore implements KbStore {
  readonly tenants: SqlJsTenantRepository;
  readonly users: SqlJsUserRepository;
  readonly robots: SqlJsRobotRepository;
  readonly rules: SqlJsRuleRepository;

  private constructor(private readonly db: Store) {
    this.tenants = new SqlJsTenantRepository(db);
    this.users = new SqlJsUserRepository(db);
    this.robots = new SqlJsRobotRepository(db);
    this.rules = new SqlJsRuleRepository(db);
  }

  /** Opens (or creates) the store of a data directory; see `Store.open`. */
  static async open(options: StoreOptions): Promise<EmbeddedStore> {
    return new EmbeddedStore(await Store.open(options));
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
