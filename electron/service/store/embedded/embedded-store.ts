/**
 * The embedded store: the repositories over one sql.js database in a data directory (the desktop
 * app and `npm run serve`).
 * @module
 */
import type { KbStore } from '../contract/store';
import { Store } from './database';
import type { StoreOptions } from './database';
import { SqlJsCategoryRepository } from './repositories/category-repository';
import { SqlJsRobotRepository } from './repositories/robot-repository';
import { SqlJsRuleRepository } from './repositories/rule-repository';
import { SqlJsSessionRepository } from './repositories/session-repository';
import { SqlJsSignInFailureRepository } from './repositories/sign-in-failure-repository';
import type { TextKey } from '../sql/rule-rows';
import { PLAIN_KEY_FUNCTION, plainKey } from '../sql/raw-answer-search';
import { SqlJsTenantRepository, SqlJsUserRepository } from './repositories/tenant-repository';
import { SqlJsTestSetRepository } from './repositories/test-set-repository';
import { SqlJsVersionRepository } from './repositories/version-repository';
import { FusionExampleFiles } from './fusion-example-files';
import { VectorFile } from './vector-file';

/**
 * The repository with each method (but those named in `direct`) run by `Store.unlocked`: while
 * a batch insert is written in steps (`Store.writeInSteps`, its transaction open across turns of
 * the event loop) it waits, so that it neither sees part of the batch nor writes inside its
 * transaction. A method's SQL runs in the turn it is called (none awaits before its first
 * statement but the batch insert, which takes the lock itself).
 */
function afterSteps<R extends object>(
  store: Store,
  repository: R,
  direct: readonly (keyof R)[] = [],
): R {
  return new Proxy(repository, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      // On the repository itself: the calls it makes to its own methods do not wait again.
      const method = value as (...args: unknown[]) => unknown;
      if (direct.includes(key as keyof R)) return method.bind(target);
      return (...args: unknown[]) => store.unlocked(() => method.apply(target, args));
    },
  });
}

export class EmbeddedStore implements KbStore {
  readonly tenants: SqlJsTenantRepository;
  readonly users: SqlJsUserRepository;
  readonly robots: SqlJsRobotRepository;
  readonly rules: SqlJsRuleRepository;
  readonly categories: SqlJsCategoryRepository;
  readonly versions: SqlJsVersionRepository;
  readonly testSets: SqlJsTestSetRepository;
  readonly sessions: SqlJsSessionRepository;
  readonly signInFailures: SqlJsSignInFailureRepository;
  /** Beside the database, in its own file (vector-file.ts). */
  readonly vectors: VectorFile;
  /** Beside the database too, a file per robot (fusion-example-files.ts). */
  readonly fusionExamples: FusionExampleFiles;

  private constructor(
    private readonly db: Store,
    textKey: TextKey,
    dataDir: string,
  ) {
    this.vectors = new VectorFile(dataDir);
    this.fusionExamples = new FusionExampleFiles(dataDir);
    this.tenants = afterSteps(db, new SqlJsTenantRepository(db));
    this.users = afterSteps(db, new SqlJsUserRepository(db));
    this.robots = afterSteps(db, new SqlJsRobotRepository(db));
    // A rule's answer is read by id, of a rule the matching index holds: committed before any
    // transaction now open, which only adds rules. Questions never wait for a batch.
    this.rules = afterSteps(db, new SqlJsRuleRepository(db, textKey), [
      'answerOf',
      'fillSearchText',
    ]);
    this.categories = afterSteps(db, new SqlJsCategoryRepository(db));
    this.versions = afterSteps(db, new SqlJsVersionRepository(db, textKey));
    this.testSets = afterSteps(db, new SqlJsTestSetRepository(db));
    this.sessions = afterSteps(db, new SqlJsSessionRepository(db));
    this.signInFailures = afterSteps(db, new SqlJsSignInFailureRepository(db));
  }

  /**
   * Opens (or creates) the store of a data directory (see `Store.open`). `textKey` turns text
   * into what rules are searched by; rules without a search text yet get one now.
   */
  static async open(options: StoreOptions & { textKey: TextKey }): Promise<EmbeddedStore> {
    const db = await Store.open(options);
    // The database is in this process's memory: an answer a LIKE finds on itself is not kept a
    // second time, keyed, in the search text (decision 200).
    db.defineFunction(PLAIN_KEY_FUNCTION, plainKey);
    const key = options.textKey;
    const textKey: TextKey = Object.assign((text: string) => key(text), { rawAnswers: true });
    const store = new EmbeddedStore(db, textKey, options.dataDir);
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
