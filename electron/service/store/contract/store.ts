/**
 * The storage seam: what the domain asks of a store, whichever database is behind it. The
 * embedded store (sql.js, store/embedded/) and the team server's (PostgreSQL, store/postgres/)
 * implement it; both pass the same contract tests (tests/contract/store-contract.ts).
 *
 * Every repository method is one transaction: an operation that must be atomic across tables is
 * one method. Writes to one robot's rules are ordered by the domain (one at a time per robot, see
 * domain/write-queue.ts), not by the store.
 * @module
 */
import type { CategoryRepository } from './categories';
import type { FusionExampleStore } from './fusion-examples';
import type { RobotRepository } from './robots';
import type { RuleRepository } from './rules';
import type { SessionRepository, SignInFailureRepository } from './sessions';
import type { TenantRepository, UserRepository } from './tenants';
import type { TestSetRepository } from './test-sets';
import type { VectorCache } from './vectors';
import type { VersionRepository } from './versions';

export interface KbStore {
  readonly tenants: TenantRepository;
  readonly users: UserRepository;
  readonly robots: RobotRepository;
  readonly rules: RuleRepository;
  readonly categories: CategoryRepository;
  /** Published versions (publishing/). */
  readonly versions: VersionRepository;
  readonly testSets: TestSetRepository;
  /** Editors' sessions and failed sign-ins on a team server (sign-in/). */
  readonly sessions: SessionRepository;
  readonly signInFailures: SignInFailureRepository;
  /** Embedding models' vectors by (model, text) (embedding/). */
  readonly vectors: VectorCache;
  /** The fusion's examples from each robot's traffic (embedding/robot-semantic.ts). */
  readonly fusionExamples: FusionExampleStore;
  /**
   * A number that grows with every committed write: a saved matching index is valid only for the
   * position it was saved at.
   */
  readonly position: number;
  /** True when the previous process on this store did not stop cleanly. */
  readonly recoveredFromUncleanStop: boolean;
  /**
   * Flushes and closes. `beforeRelease` runs once the database is closed but before the data is
   * released to other processes: the last files of a stop are written there.
   */
  close(options?: { beforeRelease?: () => void }): Promise<void>;
}
