/**
 * The composition root: a service is a backend (the embedded store, or a team server's node:
 * backend/) with the domain's context built once over it, complete, its robots loaded, and the
 * HTTP app listening. A host reads its configuration (config.ts), opens the backend it names and
 * calls `createService` (headless.ts, main.ts); `startService` does all three (tests, benchmarks).
 * @module
 */
import { join } from 'node:path';
import { loadCredentials, randomToken } from './auth/credentials';
import { fixedEditorToken, openEditorToken } from './auth/editor-token';
import type { EditorToken } from './auth/editor-token';
import type { CustomerCredentials } from './auth/credentials';
import { NonceStore } from './auth/nonce-store';
import type { Backend, IndexesAtStop } from './backend/backend';
import { openBackend } from './backend/open-backend';
import { SmallTalk } from './chitchat/small-talk';
import { serviceConfig } from './config';
import type { ServiceConfig, ServiceOptions } from './config';
import { MenuMemory } from './conversation/menu-memory';
import { AnswerCache } from './domain/answer-cache';
import type { DomainContext } from './domain/context';
import { GRACE_MS, purgeExpired } from './domain/deletions';
import { RobotDirectory, robotKey } from './domain/robot-directory';
import { RobotIndexes } from './domain/robot-indexes';
import {
  indexLoader,
  keepSavedIndexes,
  loadRobots,
  planIndexSave,
  warmUp,
} from './domain/robot-loading';
import { SavedRobotIndexes } from './domain/saved-robot-indexes';
import { RuleMenus } from './domain/rule-menus';
import { RuleOrders } from './domain/rule-order';
import { followSemantic } from './domain/semantic';
import { WriteQueue } from './domain/write-queue';
import type { ConnectionLimits } from './http/connection-limits';
import type { OperationsDeps } from './http/health';
import { listenHttp } from './http/http-server';
import type { InProcessRequest, InProcessResponse } from './http/http-server';
import { LIMITS } from './limits';
import { nextTurn } from './time-slices';
import { SemanticSearch } from './embedding/semantic-search';
import type { Logger } from './logger';
import { RobotIndexFileStore } from './files/robot-index-files';
import { createRobotIndex, loadRobotIndex, writeRobotIndexInSlices } from './matching/index';
import { PublishedEditions } from './publishing/published-editions';
import { PublishingRoom } from './publishing/publishing-room';
import type { PublishingContext } from './publishing/publishing-room';
import { startQuestionLog } from './question-log/start';
import type { RunningQuestionLog } from './question-log/start';
import { EditorSessions } from './sign-in/editor-sessions';
import type { RobotKey } from './store/contract/records';

export type { ServiceConfig, ServiceOptions } from './config';
export type { InProcessRequest, InProcessResponse } from './http/http-server';

export interface KbService {
  /** `http://host:port`, once listening. */
  readonly url: string;
  readonly port: number;
  readonly credentials: CustomerCredentials;
  /**
   * The token of the editor's console API in force: the data directory's, the same at every
   * start until it is replaced (auth/editor-token.ts).
   */
  readonly consoleToken: string;
  /** The editor's address, token included: what a person opens. */
  readonly editorUrl: string;
  /** The HTTP server's deadlines and connection cap, as it keeps them. */
  readonly connectionLimits: ConnectionLimits;
  /** Answers a request in-process, without a socket, as it is answered over HTTP. */
  inject(request: InProcessRequest): Promise<InProcessResponse>;
  /** Stops accepting requests, flushes a snapshot, releases the data directory. */
  stop(): Promise<void>;
}

const NONCES_FILE = 'nonces.json';
const HOUR_MS = 60 * 60 * 1000;
const DEBUG_SIGNATURES_WARNING =
  'signature debugging is on: wrong signatures are answered with the string to sign';

/** The node's memory: the domain's context, complete, and the rooms plugged into it. */
interface NodeMemory {
  ctx: PublishingContext;
  publishing: PublishingRoom;
  questionLog: RunningQuestionLog | null;
  /** The robots' embedding models (also the context's `semantic` port). */
  semantic: SemanticSearch;
  /** One file per robot index under a memory budget (null: no budget, or a stand-in engine). */
  savedIndexes: SavedRobotIndexes | null;
}

/** Builds the context once, with its ports: small talk, menus, the question log, publishing. */
async function buildMemory(backend: Backend, config: ServiceConfig): Promise<NodeMemory> {
  const writes = new WriteQueue();
  const semantic = new SemanticSearch({
    cache: backend.store.vectors,
    examples: backend.store.fusionExamples,
    writing: (robot) => writes.busy(robotKey(robot)),
    defaults: config.embedding,
    logger: config.logger,
  });
  // The loader reads the context when it loads (after it is built).
  const built: { ctx?: DomainContext } = {};
  const budget = config.memoryBudget;
  const savedIndexes =
    budget !== null && !config.createIndex
      ? new SavedRobotIndexes(
          new RobotIndexFileStore(join(config.dataDir, 'indexes')),
          {
            write: (index, sink) => writeRobotIndexInSlices(index, sink, nextTurn),
            load: loadRobotIndex,
          },
          config.logger,
        )
      : null;
  const loader = indexLoader(() => {
    if (!built.ctx) throw new Error('an index was asked for before the context was built');
    return built.ctx;
  }, savedIndexes);
  const parts = {
    store: backend.store,
    robots: new RobotDirectory(),
    indexes: new RobotIndexes(
      config.createIndex ?? createRobotIndex,
      budget === null ? null : { budgetBytes: budget, loader },
    ),
    answers: new AnswerCache(),
    menus: new RuleMenus(),
    smallTalk: new SmallTalk(),
    openMenus: new MenuMemory(),
    orders: new RuleOrders(),
    writes,
    now: config.now,
    logger: config.logger,
    semantic,
  };
  const questionLog = config.questionLog
    ? startQuestionLog(parts, await backend.questionLog())
    : null;
  const ctx = { ...parts, publishing: new PublishedEditions(parts), questionLog: questionLog?.log };
  built.ctx = ctx;
  const log = questionLog?.log;
  const asks = log ? (robot: RobotKey, from: number) => log.entriesSince(robot, from) : null;
  const min = config.impactWorkerMinQuestions;
  const publishing = new PublishingRoom(
    ctx,
    asks,
    min === undefined ? {} : { workerMinQuestions: min },
  );
  return { ctx, publishing, questionLog, semantic, savedIndexes };
}

/**
 * Loads the robots and their indexes, then the log's retention and the published editions, then
 * follows the other nodes' writes from there. Returns the store position at which the indexes
 * opened from the saved ones are still exact at stop (null: some were built).
 */
async function loadMemory(memory: NodeMemory, backend: Backend): Promise<number | null> {
  const { saved, codec } = backend.indexes;
  const loaded = await loadRobots(memory.ctx, saved, codec);
  // The per-robot files the last clean stop vouched for (before any change is followed).
  const changeCount = async (key: string) => {
    const robot = memory.ctx.robots.byKey(key);
    return robot ? backend.store.rules.changeCount(robot) : null;
  };
  const recent = (await memory.savedIndexes?.adopt(backend.store.position, changeCount)) ?? [];
  await memory.questionLog?.keepRetention();
  const publishedBuilt = await memory.publishing.load(saved, codec);
  await backend.follow(memory.ctx);
  warmUp(memory.ctx, recent).catch((error: unknown) => {
    memory.ctx.logger.warn(`the warm-up of the robots' indexes stopped: ${String(error)}`);
  });
  // Robots with an embedding provider get their rules' vectors in the background.
  for (const robot of memory.ctx.robots.all()) followSemantic(memory.ctx, robot);
  // Still exact at stop if every robot came from them and nothing has been written since.
  const file = 'file' in saved ? saved.file : null;
  const exact = file && file.seq === backend.store.position && loaded.built + publishedBuilt === 0;
  return exact ? file.seq : null;
}

/**
 * The console API's token: the host's, else the data directory's. A team server's editors sign
 * in instead: it gets one that is never written nor accepted.
 */
function editorTokenOf(config: ServiceConfig, signIn: boolean): EditorToken {
  if (config.consoleToken !== null) return fixedEditorToken(config.consoleToken);
  if (signIn) return fixedEditorToken(randomToken(32));
  const { token, replaced } = openEditorToken(config.dataDir);
  if (replaced)
    config.logger.warn('the editor token file was unreadable: the editor has a new address');
  return token;
}

/** The nonces used before the last stop, refusing every request signed before now after a crash. */
function restoreNonces(config: ServiceConfig, uncleanStop: boolean): NonceStore {
  const nonces = new NonceStore(LIMITS.timestampWindowMs);
  nonces.restore(join(config.dataDir, NONCES_FILE), config.now());
  // The nonces used just before an unclean stop are unknown: refuse requests signed before
  // now, so that none of them can be replayed.
  if (uncleanStop) nonces.notBefore = config.now();
  return nonces;
}

/** What `/healthz`, `/readyz` and `/metrics` read. */
function operationsOf(
  backend: Backend,
  config: ServiceConfig,
  memory: NodeMemory,
  stopping: () => boolean,
): OperationsDeps {
  const log = memory.questionLog?.log;
  return {
    vitals: backend.vitals,
    stopping,
    metrics: config.metrics,
    questionLogWriteFailures: () => log?.writeFailures() ?? 0,
    indexMemory: () => memory.ctx.indexes.status(),
  };
}

/** What was deleted over the grace period ago, and expired sessions, go for good. */
function purger(ctx: DomainContext, signIn: EditorSessions | null, logger: Logger) {
  return async () => {
    await purgeExpired(ctx).then(
      (purged) =>
        purged > 0 &&
        logger.info(`purged ${purged} item(s) deleted over ${GRACE_MS / 86_400_000} days ago`),
      (error: unknown) => logger.error('could not purge deleted items', error),
    );
    await signIn
      ?.purge()
      .catch((error: unknown) => logger.error('could not purge sessions', error));
  };
}

/**
 * What the stop keeps of the indexes: those opened at start when nothing was written since, else
 * the draft and published indexes as they are (once every write has settled).
 */
async function indexesAtStop(
  memory: NodeMemory,
  backend: Backend,
  reusableAt: number | null,
): Promise<IndexesAtStop> {
  if (reusableAt !== null && reusableAt === backend.store.position) return 'unchanged';
  const { codec } = backend.indexes;
  const plan = await planIndexSave(memory.ctx, codec);
  if (plan && codec) plan.robots.push(...memory.publishing.editions.toSave(codec));
  return plan;
}

export async function startService(options: ServiceOptions): Promise<KbService> {
  const config = serviceConfig(options);
  return createService(await openBackend(config), config);
}

/** The service over an open backend; the backend is closed if the service cannot start. */
export async function createService(backend: Backend, config: ServiceConfig): Promise<KbService> {
  const { logger, now, dataDir } = config;
  let memory: NodeMemory | undefined;
  try {
    const credentials = loadCredentials(dataDir, config.credentials);
    const nonces = restoreNonces(config, backend.uncleanStop);
    memory = await buildMemory(backend, config);
    const { ctx } = memory;
    const signIn = config.signIn ? new EditorSessions(backend.store, now, config.signIn) : null;
    const editorToken = editorTokenOf(config, signIn !== null);
    const reusableAt = await loadMemory(memory, backend);
    if (config.debugSignatures) logger.warn(DEBUG_SIGNATURES_WARNING);
    const purge = purger(ctx, signIn, logger);
    await purge();
    const sharedSignatures = backend.sharedSignatures;
    const verifier = { credentials, nonces, now, debugSignatures: config.debugSignatures };
    let stopping: Promise<void> | undefined;
    const http = await listenHttp(
      {
        ctx,
        verifier: sharedSignatures ? { ...verifier, sharedSignatures } : verifier,
        editorToken,
        signIn,
        editorDir: config.editorDir,
        corsOrigins: config.corsOrigins,
        connectionLimits: config.connectionLimits,
        publicHosts: config.publicHosts,
        trustProxy: config.trustProxy,
        questionLog: memory.questionLog?.log ?? null,
        publishing: memory.publishing,
        operations: operationsOf(backend, config, memory, () => stopping !== undefined),
        semantic: memory.semantic,
      },
      config,
    );
    const purgeTimer = setInterval(() => void purge(), HOUR_MS);
    purgeTimer.unref();
    const running = memory;
    const stop = async () => {
      clearInterval(purgeTimer);
      running.publishing.close();
      await http.close();
      // The other nodes' writes are no longer followed (nothing is answered any more).
      await backend.stopFollowing();
      nonces.save(join(dataDir, NONCES_FILE), now());
      // Nothing writes once the app is closed and the write queues are idle: the final
      // snapshot and the saved indexes are of the same position.
      await ctx.writes.idle();
      await running.questionLog?.stop();
      await running.semantic.stop();
      await keepSavedIndexes(ctx, running.savedIndexes, () => backend.store.position);
      await backend.close(await indexesAtStop(running, backend, reusableAt));
    };
    return {
      url: http.url,
      port: http.port,
      credentials,
      get consoleToken() {
        return editorToken.current;
      },
      // On a team server the editor asks for a username and password instead.
      get editorUrl() {
        return signIn ? `${http.url}/` : `${http.url}/?token=${editorToken.current}`;
      },
      get connectionLimits() {
        return http.connectionLimits;
      },
      inject: (request) => http.inject(request),
      stop: () => (stopping ??= stop()),
    };
  } catch (error) {
    await memory?.semantic.stop();
    await memory?.questionLog?.stop();
    await backend.abort();
    throw error;
  }
}
