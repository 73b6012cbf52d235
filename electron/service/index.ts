/**
 * The service: storage, credentials, robots and their indexes, and the HTTP app, started and
 * stopped as one. The headless CLI and the Electron main process both call `startService`.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadCredentials, randomToken } from './auth/credentials';
import type { CustomerCredentials } from './auth/credentials';
import { NonceStore } from './auth/nonce-store';
import { SmallTalk } from './chitchat/small-talk';
import type { ClusterNode } from './cluster/node';
import { MenuMemory } from './conversation/menu-memory';
import { AnswerCache } from './domain/answer-cache';
import type { DomainContext } from './domain/context';
import { RobotDirectory } from './domain/robot-directory';
import { RobotIndexes } from './domain/robot-indexes';
import { GRACE_MS, purgeExpired } from './domain/deletions';
import { loadRobots, planIndexSave } from './domain/robot-loading';
import type { IndexCodec, IndexSavePlan, SavedIndexes } from './domain/robot-loading';
import { RuleMenus } from './domain/rule-menus';
import { RuleOrders } from './domain/rule-order';
import { WriteQueue } from './domain/write-queue';
import { buildHttpApp } from './http/app';
import { parseCorsOrigins } from './http/cors';
import type { CorsOrigins } from './http/cors';
import { DEFAULT_CONNECTION_LIMITS } from './http/connection-limits';
import type { ConnectionLimits } from './http/connection-limits';
import { LIMITS } from './limits';
import { createConsoleLogger } from './logger';
import type { Logger } from './logger';
import { createRobotIndex, loadRobotIndex, normalizeText, writeRobotIndex } from './matching/index';
import type { CreateRobotIndex } from './matching/types';
import { startQuestionLog } from './question-log/start';
import { PublishingRoom } from './publishing/publishing-room';
import type { KbStore } from './store/contract/store';
import type { QuestionLogRepository } from './store/contract/question-log';
import { EditorSessions } from './sign-in/editor-sessions';
import { DEFAULT_SIGN_IN_POLICY } from './sign-in/policy';
import type { SignInPolicy } from './sign-in/policy';
import { EmbeddedStore } from './store/embedded/embedded-store';
import { DIRECTORY_MODE, narrowPermissions } from './files/durable-fs';
import { acquireDataDirLock } from './files/data-dir-lock';
import { DayFileLog } from './store/embedded/question-log/day-file-log';
import {
  discardIndexFile,
  putBackIndexFile,
  readIndexFile,
  setAsideIndexFile,
  writeIndexFile,
} from './store/embedded/index-file';

export interface ServiceOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  logger?: Logger;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  /** Folder of the built editor to serve at `/`. */
  editorDir?: string | null;
  createIndex?: CreateRobotIndex;
  /** Token of the console API; a random one per launch by default. */
  consoleToken?: string;
  /**
   * Origins whose web pages may call the openapi routes (CORS): `*` (the default) or a list.
   * Default: `KB_CORS_ORIGINS` (`*` or origins separated by commas), else `*`.
   */
  corsOrigins?: CorsOrigins;
  /**
   * A wrong signature's answer shows the string the service hashed, secrets masked (for
   * developers of a client). Default: `KB_DEBUG_SIGNATURES=1`, else off.
   */
  debugSignatures?: boolean;
  /** Storage tuning, for tests that need snapshots to happen at once. */
  snapshotJournalBytes?: number;
  snapshotIdleMs?: number;
  /** Deadlines and the connection cap of the HTTP server (tests of slow clients make them small). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Records every question (docs/question-log.md). Default: on, unless `KB_QUESTION_LOG=0`. */
  questionLog?: boolean;
  /**
   * Host names the editor and its console API answer to besides the service's own addresses: a
   * team server's public names behind a load balancer (`--public-host`, `KB_PUBLIC_HOSTS`,
   * names separated by commas). The openapi routes answer any name anyway.
   */
  publicHosts?: readonly string[];
  /**
   * Addresses (or CIDR ranges) of the load balancers in front of a team server: a request from
   * one of them is taken to come from the address its X-Forwarded-For names (failed sign-ins are
   * counted per client address). `--trust-proxy`, `KB_TRUST_PROXY`, separated by commas.
   * Default: none (every request's address is its connection's).
   */
  trustProxy?: readonly string[];
  /**
   * A `postgres://` URL: the team server's store (docs/team-server.md) instead of the embedded
   * one. The data directory still holds this node's own files (credentials, nonces); the
   * matching indexes are built from the database at every start, never saved. Default:
   * `KB_DATABASE_URL`, else the embedded store.
   */
  database?: string;
  /**
   * A team server: editors sign in with an administrator's username and password, and each sees
   * only their own tenant (docs/api.md, "Signing in"). Off: the per-launch console token.
   */
  signIn?: boolean;
  /** A signed-in editor's session ends after this long unused. Default: 30 minutes. */
  sessionIdleMs?: number;
  /** A session ends this long after signing in, however much it is used. Default: 12 hours. */
  sessionMaxMs?: number;
  /** The rest of the sign-in policy (rate limit of failures): tests make it small. */
  signInPolicy?: Partial<SignInPolicy>;
}

export interface KbService {
  /** `http://host:port`, once listening. */
  readonly url: string;
  readonly port: number;
  readonly credentials: CustomerCredentials;
  /** The per-launch token of the editor's console API. */
  readonly consoleToken: string;
  /** The editor's address, token included: what a person opens. */
  readonly editorUrl: string;
  readonly app: FastifyInstance;
  /** Stops accepting requests, flushes a snapshot, releases the data directory. */
  stop(): Promise<void>;
}

const NONCES_FILE = 'nonces.json';

/** Saves the indexes of a plan for the next start; a failure only costs the next start time. */
function saveIndexes(plan: IndexSavePlan | null, dataDir: string, logger: Logger): void {
  if (!plan) return;
  try {
    writeIndexFile(dataDir, plan.seq, plan.robots);
  } catch (error) {
    logger.error('could not save the matching indexes; the next start rebuilds them', error);
  }
}

export async function startService(options: ServiceOptions): Promise<KbService> {
  const logger = options.logger ?? createConsoleLogger();
  const now = options.now ?? Date.now;
  const env = options.env ?? process.env;
  const corsOrigins =
    options.corsOrigins ??
    (env.KB_CORS_ORIGINS !== undefined ? parseCorsOrigins(env.KB_CORS_ORIGINS) : '*');
  const debugSignatures = options.debugSignatures ?? env.KB_DEBUG_SIGNATURES === '1';
  const database = options.database ?? (env.KB_DATABASE_URL || undefined);
  // The engine's indexes are saved on a clean stop and opened at the next start; a stand-in
  // index (tests, benchmarks) is always built from the database, and so is every index of a
  // team server (other nodes write meanwhile: a saved file would speak for a past state).
  const codec: IndexCodec | null =
    options.createIndex || database !== undefined
      ? null
      : { write: writeRobotIndex, load: loadRobotIndex };
  let savedIndexes: Promise<SavedIndexes> = Promise.resolve({ file: null });
  // The embedded store makes its data directory; a team server's node needs one for its own files.
  if (database !== undefined) mkdirSync(options.dataDir, { recursive: true, mode: DIRECTORY_MODE });
  // A node's own files (credentials, nonces) are its alone, as the embedded store's are: one
  // process per data directory either way, and a lock left by a crash tells the node so.
  const nodeLock = database === undefined ? null : acquireDataDirLock(options.dataDir);
  if (nodeLock) narrowPermissions(options.dataDir, logger);
  // Loaded only for a team server: the embedded store's start does not pay for the driver.
  const server =
    database === undefined
      ? null
      : await (
          await import('./store/postgres/postgres-store')
        ).PostgresStore.open({
          url: database,
          logger,
          textKey: normalizeText,
        }).catch((error: unknown) => {
          nodeLock?.release({ keepFile: true });
          throw error;
        });
  // The store opens while sql.js compiles its WebAssembly and the snapshot and the saved indexes
  // are read on other threads.
  const opening: Promise<KbStore> = server
    ? Promise.resolve(server)
    : EmbeddedStore.open({
        dataDir: options.dataDir,
        logger,
        // Rules are searched as the matcher reads text (case, width, Traditional/Simplified).
        textKey: normalizeText,
        snapshotJournalBytes: options.snapshotJournalBytes,
        snapshotIdleMs: options.snapshotIdleMs,
        onLocked: () => {
          if (codec) {
            savedIndexes = readIndexFile(options.dataDir).then(
              (file) => ({ file }),
              (error: unknown) => ({ error: error as Error }),
            );
          }
        },
      });
  const store = await opening;
  let app: FastifyInstance | undefined;
  let stopQuestionLog: () => Promise<void> | undefined = () => undefined;
  let cluster: ClusterNode | null = null;
  try {
    const credentials = loadCredentials(options.dataDir, env);
    const nonces = new NonceStore(LIMITS.timestampWindowMs);
    nonces.restore(join(options.dataDir, NONCES_FILE), now());
    if (store.recoveredFromUncleanStop || nodeLock?.tookOverStaleLock) {
      // The nonces used just before an unclean stop are unknown: refuse requests signed before
      // now, so that none of them can be replayed.
      nonces.notBefore = now();
    }
    const ctx: DomainContext = {
      store,
      robots: new RobotDirectory(),
      indexes: new RobotIndexes(options.createIndex ?? createRobotIndex),
      answers: new AnswerCache(),
      menus: new RuleMenus(),
      smallTalk: new SmallTalk(),
      orders: new RuleOrders(),
      writes: new WriteQueue(),
      now,
      logger,
    };
    const signIn = options.signIn
      ? new EditorSessions(store, now, {
          ...DEFAULT_SIGN_IN_POLICY,
          ...options.signInPolicy,
          ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
          ...(options.sessionMaxMs !== undefined ? { sessionMaxMs: options.sessionMaxMs } : {}),
        })
      : null;

    // The index file speaks only for the state it was saved in: once read, it is set aside.
    const saved = await savedIndexes;
    const asideIndex = server ? null : setAsideIndexFile(options.dataDir);
    // A team server's node takes the change feed's position before it loads anything: what is
    // written meanwhile by the other nodes is followed from there (docs/team-server.md).
    if (server && database !== undefined) {
      // Loaded only for a team server: the embedded start never loads the PostgreSQL driver.
      const { ClusterNode: Node } = await import('./cluster/node');
      cluster = await Node.join({ pool: server.pool, url: database, logger });
    }
    const loaded = await loadRobots(ctx, saved, codec);
    // A team server's log is shared by its nodes, in the database.
    const logRepository = async (): Promise<QuestionLogRepository> =>
      server
        ? new (await import('./store/postgres/question-log')).PostgresQuestionLog({
            pool: server.pool,
            logger,
          })
        : new DayFileLog({ dataDir: options.dataDir, logger });
    const questionLog =
      (options.questionLog ?? env.KB_QUESTION_LOG !== '0')
        ? await startQuestionLog(ctx, await logRepository())
        : null;
    stopQuestionLog = () => questionLog?.stop();
    const publishing = new PublishingRoom(ctx);
    const publishedBuilt = await publishing.load(saved, codec);
    await cluster?.follow(ctx);
    // Still exact at stop if every robot came from it and nothing has been written since.
    const reusableAt =
      'file' in saved &&
      saved.file &&
      loaded.built === 0 &&
      publishedBuilt === 0 &&
      saved.file.seq === store.position
        ? saved.file.seq
        : null;
    const consoleToken = options.consoleToken ?? randomToken(32);
    let url = '';
    app = await buildHttpApp({
      ctx,
      verifier: {
        credentials,
        nonces,
        now,
        debugSignatures,
        ...(cluster ? { sharedSignatures: cluster.signatures } : {}),
      },
      consoleToken,
      signIn,
      baseUrl: () => url,
      editorDir: options.editorDir ?? null,
      corsOrigins,
      connectionLimits: { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits },
      listenHost: options.host ?? '127.0.0.1',
      publicHosts:
        options.publicHosts ??
        (env.KB_PUBLIC_HOSTS ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
      trustProxy:
        options.trustProxy ??
        (env.KB_TRUST_PROXY ?? '')
          .split(',')
          .map((address) => address.trim())
          .filter((address) => address !== ''),
      questionLog: questionLog?.log ?? null,
      menus: new MenuMemory(),
      publishing,
    });
    if (debugSignatures) {
      logger.warn(
        'signature debugging is on: wrong signatures are answered with the string to sign',
      );
    }
    // What was deleted more than the grace period ago goes for good: now, and every hour.
    const purge = () =>
      purgeExpired(ctx).then(
        (purged) =>
          purged > 0 &&
          logger.info(`purged ${purged} item(s) deleted over ${GRACE_MS / 86_400_000} days ago`),
        (error: unknown) => logger.error('could not purge deleted items', error),
      );
    await purge();
    const purgeSessions = () =>
      signIn?.purge().catch((error: unknown) => logger.error('could not purge sessions', error));
    await purgeSessions();
    const purgeTimer = setInterval(
      () => {
        void purge();
        void purgeSessions();
      },
      60 * 60 * 1000,
    );
    purgeTimer.unref();
    await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
    const host = options.host ?? '127.0.0.1';
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    let stopping: Promise<void> | undefined;
    const listening = app;
    return {
      url,
      port,
      credentials,
      consoleToken,
      // On a team server the editor asks for a username and password instead.
      editorUrl: signIn ? `${url}/` : `${url}/?token=${consoleToken}`,
      app: listening,
      stop() {
        stopping ??= (async () => {
          clearInterval(purgeTimer);
          await listening.close();
          // The other nodes' writes are no longer followed (nothing is answered any more).
          await cluster?.stop();
          nonces.save(join(options.dataDir, NONCES_FILE), now());
          // Nothing writes once the app is closed and the write queues are idle: the final
          // snapshot and the saved indexes are of the same position. The indexes are saved last,
          // once the database is closed, so that the memory of their saving does not add to the
          // database's; when nothing was written since the start, the file they were opened
          // from is simply put back.
          await ctx.writes.idle();
          await questionLog?.stop();
          const reuse = asideIndex !== null && reusableAt === store.position;
          if (asideIndex !== null && !reuse) discardIndexFile(asideIndex);
          const plan = reuse ? null : await planIndexSave(ctx, codec);
          if (plan && codec) plan.robots.push(...publishing.editions.toSave(codec));
          await store.close({
            beforeRelease: () => {
              if (reuse) putBackIndexFile(options.dataDir, asideIndex);
              else saveIndexes(plan, options.dataDir, logger);
            },
          });
          nodeLock?.release();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await app?.close();
    await cluster?.stop();
    await stopQuestionLog();
    await store.close();
    nodeLock?.release({ keepFile: true });
    throw error;
  }
}
