/**
 * A node of a team server (docs/team-server.md): the PostgreSQL store shared by every node, the
 * question log in the database, the change feed followed from the position taken before the
 * node loads anything, the signatures shared for replay refusal, and the data directory locked
 * for the node's own files. Its matching indexes are built at every start, never saved: other
 * nodes write meanwhile, and a saved file would speak for a past state. The PostgreSQL driver is
 * loaded here only: the embedded start never pays for it.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { acquireDataDirLock } from '../files/data-dir-lock';
import type { DataDirLock } from '../files/data-dir-lock';
import { DIRECTORY_MODE, narrowPermissions } from '../files/durable-fs';
import { normalizeText } from '../matching/index';
import type { ClusterNode } from '../cluster/node';
import type { PostgresStore } from '../store/postgres/postgres-store';
import type { BackendVitals } from '../health-types';
import type { Backend, TeamServerConfig } from './backend';

/**
 * A node is behind the others when it has not read the change feed for this long (it reads it
 * every second, and at once when notified).
 */
const FEED_LAG_READY_MS = 5000;

/** The store answers a trivial query, and the feed was read lately (`/readyz`); the pool's figures. */
function teamVitals(store: PostgresStore, cluster: ClusterNode): BackendVitals {
  const lagMs = () => cluster.feedLagMs();
  return {
    async notReady() {
      await store.pool.query('SELECT 1');
      const lag = lagMs();
      return lag !== null && lag > FEED_LAG_READY_MS ? 'catching-up' : null;
    },
    pool: () => ({
      total: store.pool.totalCount,
      idle: store.pool.idleCount,
      waiting: store.pool.waitingCount,
      max: store.pool.options.max ?? 10,
    }),
    feedLagSeconds: () => {
      const lag = lagMs();
      return lag === null ? 0 : lag / 1000;
    },
  };
}

/** The store, and the node joined to the others' feed; the store is closed if joining fails. */
async function openAndJoin(
  config: TeamServerConfig,
): Promise<{ store: PostgresStore; cluster: ClusterNode }> {
  const { database: url, logger } = config;
  const { PostgresStore: Store } = await import('../store/postgres/postgres-store');
  const store = await Store.open({
    url,
    logger,
    textKey: normalizeText,
    timeouts: config.databaseTimeouts,
  });
  try {
    const { ClusterNode: Node } = await import('../cluster/node');
    const { pool, timeouts, availability } = store;
    const cluster = await Node.join({ pool, url, logger, timeouts, availability });
    return { store, cluster };
  } catch (error) {
    await store.close();
    throw error;
  }
}

export async function openTeamServer(config: TeamServerConfig): Promise<Backend> {
  const { dataDir, logger } = config;
  mkdirSync(dataDir, { recursive: true, mode: DIRECTORY_MODE });
  // A node's own files (credentials, nonces) are its alone, as the embedded store's are: one
  // process per data directory either way, and a lock left by a crash tells the node so.
  const lock: DataDirLock = acquireDataDirLock(dataDir);
  narrowPermissions(dataDir, logger);
  const { store, cluster } = await openAndJoin(config).catch((error: unknown) => {
    lock.release({ keepFile: true });
    throw error;
  });
  return {
    store,
    indexes: { codec: null, saved: { file: null } },
    uncleanStop: store.recoveredFromUncleanStop || lock.tookOverStaleLock,
    sharedSignatures: cluster.signatures,
    vitals: teamVitals(store, cluster),
    // A team server's log is shared by its nodes, in the database.
    questionLog: async () =>
      new (await import('../store/postgres/question-log')).PostgresQuestionLog({
        pool: store.pool,
        logger,
        now: config.now,
      }),
    follow: (ctx) => cluster.follow(ctx),
    stopFollowing: () => cluster.stop(),
    async close() {
      await store.close();
      lock.release();
    },
    async abort() {
      await cluster.stop();
      await store.close();
      lock.release({ keepFile: true });
    },
  };
}
