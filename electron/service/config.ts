/**
 * The service's configuration, read once: `npm run serve`'s command line (`serveOptions`), the
 * host's own choices (`ServiceOptions`: the desktop app, tests) and the environment variables
 * (README, "Install and run"), each parsed here and nowhere else in the service. A bad value is
 * refused before anything opens. A host's choice wins over the environment, which wins over the
 * defaults.
 * @module
 */
import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { credentialsFromEnv } from './auth/credentials';
import type { CustomerCredentials } from './auth/credentials';
import { DEFAULT_API_PORT } from './defaults';
import type { MetricsAccess } from './health-types';
import { DEFAULT_CONNECTION_LIMITS, PER_ADDRESS_BEYOND_LOOPBACK } from './http/connection-limits';
import type { ConnectionLimits } from './http/connection-limits';
import { parseCorsOrigins } from './http/cors';
import type { CorsOrigins } from './http/cors';
import { createConsoleLogger, redactingLogger } from './logger';
import type { Logger } from './logger';
import type { CreateRobotIndex } from './matching/types';
import { EMBEDDING_APIS } from './embedding/provider-client';
import type { EmbeddingApi } from './embedding/provider-client';
import { DEFAULT_TIMEOUT_MS } from './embedding/provider-settings';
import type { DefaultEmbedding } from './embedding/provider-settings';
import { DEFAULT_SIGN_IN_POLICY } from './sign-in/policy';
import { DEFAULT_DATABASE_TIMEOUTS } from './store/postgres/connection';
import type { DatabaseTimeouts } from './store/postgres/connection';
import type { SignInPolicy } from './sign-in/policy';

/** What a host decides; anything left out comes from the environment, else the defaults. */
export interface ServiceOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  logger?: Logger;
  now?: () => number;
  /** The environment variables to read (`process.env` by default). */
  env?: NodeJS.ProcessEnv;
  /** Folder of the built editor to serve at `/`. */
  editorDir?: string | null;
  /** A stand-in matching engine (tests, benchmarks): its indexes are never saved. */
  createIndex?: CreateRobotIndex;
  /**
   * Bytes of matching indexes a node keeps (robots loaded on demand, the least recently asked
   * let go: docs/storage.md); null: every index loaded at start and kept. Default:
   * `KB_MEMORY_BUDGET`, else none on the desktop and half the machine's memory on a team node.
   */
  memoryBudget?: number | null;
  /**
   * Token of the console API. Default: the data directory's (`editor-token`, made on first
   * start and kept across restarts: auth/editor-token.ts).
   */
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
  /**
   * Deadlines and the connection caps of the HTTP server (small in tests of slow clients).
   * Default: `KB_MAX_CONNECTIONS` and `KB_MAX_CONNECTIONS_PER_ADDRESS` for the caps, else 512 in
   * all and, when the service listens beyond loopback, 64 per client address (0: no limit).
   */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Who may read `/metrics`: `off`, `loopback` (clients on this machine, not through a proxy) or
   * `on` (any client). Default: `KB_METRICS`, else `loopback` on a team server (a database) and
   * `off` on the embedded store (the desktop app).
   */
  metrics?: MetricsAccess;
  /** Records every question (docs/question-log.md). Default: on, unless `KB_QUESTION_LOG=0`. */
  questionLog?: boolean;
  /** Questions from which an impact preview replays on a worker thread (tests: 0, every one). */
  impactWorkerMinQuestions?: number;
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
   * How long a team server's node waits for its database: to connect, for an answer, and for a
   * statement on the server (docs/team-server.md, "When the database fails"); a request that
   * cannot reach it is answered 503 `storage-unavailable` within them. Default:
   * `KB_DATABASE_TIMEOUT` (seconds, all three), else 5 s each.
   */
  databaseTimeouts?: Partial<DatabaseTimeouts>;
  /**
   * A team server: editors sign in with an administrator's username and password, and each sees
   * only their own tenant (docs/api.md, "Signing in"). Off: the editor's token (`editor-token`).
   */
  signIn?: boolean;
  /** A signed-in editor's session ends after this long unused. Default: 30 minutes. */
  sessionIdleMs?: number;
  /** A session ends this long after signing in, however much it is used. Default: 12 hours. */
  sessionMaxMs?: number;
  /** The rest of the sign-in policy (rate limit of failures): tests make it small. */
  signInPolicy?: Partial<SignInPolicy>;
  /**
   * The service-wide default embedding provider (docs/matching.md, "Fusion"): robots whose
   * embedding setting is `default` use it. `--embeddings BASE`, `--embedding-model M`,
   * `--embedding-api openai|ollama`, `--embedding-timeout MS`, or `KB_EMBEDDINGS`,
   * `KB_EMBEDDING_MODEL`, `KB_EMBEDDING_API`, `KB_EMBEDDING_TIMEOUT_MS` and `KB_EMBEDDING_KEY`
   * (the API key: only from the environment, never a flag). null: none (lexical matching only).
   */
  embedding?: DefaultEmbedding | null;
}

/** Everything the service is started with, decided. */
export interface ServiceConfig {
  readonly dataDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly host: string;
  readonly logger: Logger;
  readonly now: () => number;
  /** Folder of the built editor served at `/`; null: none. */
  readonly editorDir: string | null;
  /** A stand-in matching engine (tests, benchmarks); null: the engine's own indexes. */
  readonly createIndex: CreateRobotIndex | null;
  /** The console API's token the host chose; null: the data directory's (`editor-token`). */
  readonly consoleToken: string | null;
  /** Bytes of matching indexes kept (loaded on demand); null: all, loaded at start. */
  readonly memoryBudget: number | null;
  readonly corsOrigins: CorsOrigins;
  readonly debugSignatures: boolean;
  /** The embedded store's snapshot tuning; undefined: its defaults. */
  readonly snapshotJournalBytes: number | undefined;
  readonly snapshotIdleMs: number | undefined;
  readonly connectionLimits: ConnectionLimits;
  readonly metrics: MetricsAccess;
  readonly questionLog: boolean;
  /** Undefined: impact.ts's default. */
  readonly impactWorkerMinQuestions: number | undefined;
  readonly publicHosts: readonly string[];
  readonly trustProxy: readonly string[];
  /** A team server's `postgres://` URL; null: the embedded store. */
  readonly database: string | null;
  /** How long a team server's node waits for its database. */
  readonly databaseTimeouts: DatabaseTimeouts;
  /** Editors sign in, with this policy (a team server); null: the editor's token. */
  readonly signIn: SignInPolicy | null;
  /** Set by `KB_CUSTOMER_ID`, `KB_ADMIN_KEY` and `KB_ADMIN_SECRET`; null: the data directory's. */
  readonly credentials: CustomerCredentials | null;
  /** The default embedding provider; null: none. */
  readonly embedding: DefaultEmbedding | null;
}

/** A list given as names separated by commas, blanks left out. */
function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const METRICS_ACCESS: readonly MetricsAccess[] = ['off', 'loopback', 'on'];

function metricsAccess(name: string, value: string): MetricsAccess {
  const access = METRICS_ACCESS.find((known) => known === value);
  if (access === undefined) throw new Error(`${name} must be off, loopback or on, not ${value}`);
  return access;
}

/** A count of connections: a whole number, 0 or more. */
function connectionCount(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a whole number of connections, not ${value}`);
  }
  return parsed;
}

/** Addresses that only this machine reaches: no other client shares them. */
const isLoopbackHost = (host: string) => /^(127\.|localhost$|::1$|\[::1\]$)/.test(host);

/** The caps and deadlines: the host's, else the environment's, else the defaults for `host`. */
function connectionLimitsOf(options: ServiceOptions, env: NodeJS.ProcessEnv, host: string) {
  const total = connectionCount('KB_MAX_CONNECTIONS', env.KB_MAX_CONNECTIONS);
  if (total === 0) throw new Error('KB_MAX_CONNECTIONS must be above 0');
  const perAddress = connectionCount(
    'KB_MAX_CONNECTIONS_PER_ADDRESS',
    env.KB_MAX_CONNECTIONS_PER_ADDRESS,
  );
  return {
    ...DEFAULT_CONNECTION_LIMITS,
    ...(total !== undefined ? { maxConnections: total } : {}),
    maxConnectionsPerAddress:
      perAddress ?? (isLoopbackHost(host) ? 0 : PER_ADDRESS_BEYOND_LOOPBACK),
    ...options.connectionLimits,
  };
}

/** A number of seconds above 0 (a flag's or a variable's), in ms. */
function seconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!(parsed > 0)) throw new Error(`${name} must be a number of seconds above 0, not ${value}`);
  return Math.round(parsed * 1000);
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};

/**
 * A memory budget as typed (`512MB`, `2gb`, `1048576`; `none`: no budget), in bytes; undefined
 * when not given. Throws on anything else.
 */
export function memoryBudgetOf(name: string, value: string | undefined): number | null | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.trim().toLowerCase() === 'none') return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)\s*$/i.exec(value);
  const unit = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
  const bytes = match && unit !== undefined ? Math.round(Number(match[1]) * unit) : 0;
  if (!(bytes > 0)) {
    throw new Error(`${name} must be a size such as 512MB or 2GB (or none), not ${value}`);
  }
  return bytes;
}

/** A team node's default budget: half the machine's memory; the desktop keeps every index. */
const defaultMemoryBudget = (database: string | null) =>
  database === null ? null : Math.floor(totalmem() / 2);

/** The host's budget, else `KB_MEMORY_BUDGET`'s, else the default. */
function memoryBudgetIn(options: ServiceOptions, env: NodeJS.ProcessEnv, database: string | null) {
  if (options.memoryBudget !== undefined) return options.memoryBudget;
  const fromEnv = memoryBudgetOf('KB_MEMORY_BUDGET', env.KB_MEMORY_BUDGET);
  return fromEnv !== undefined ? fromEnv : defaultMemoryBudget(database);
}

/** The configuration of a host's options, the environment filling in what they leave out. */
export function serviceConfig(options: ServiceOptions): ServiceConfig {
  const env = options.env ?? process.env;
  const signIn = {
    ...DEFAULT_SIGN_IN_POLICY,
    ...options.signInPolicy,
    ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
    ...(options.sessionMaxMs !== undefined ? { sessionMaxMs: options.sessionMaxMs } : {}),
  };
  const host = options.host ?? '127.0.0.1';
  const database = options.database ?? (env.KB_DATABASE_URL || null);
  return {
    dataDir: options.dataDir,
    port: options.port ?? 0,
    host,
    // Every line the service writes, whoever hosts it, without query strings' values.
    logger: redactingLogger(options.logger ?? createConsoleLogger()),
    now: options.now ?? Date.now,
    editorDir: options.editorDir ?? null,
    createIndex: options.createIndex ?? null,
    memoryBudget: memoryBudgetIn(options, env, database),
    consoleToken: options.consoleToken ?? null,
    corsOrigins:
      options.corsOrigins ??
      (env.KB_CORS_ORIGINS !== undefined ? parseCorsOrigins(env.KB_CORS_ORIGINS) : '*'),
    debugSignatures: options.debugSignatures ?? env.KB_DEBUG_SIGNATURES === '1',
    snapshotJournalBytes: options.snapshotJournalBytes,
    snapshotIdleMs: options.snapshotIdleMs,
    connectionLimits: connectionLimitsOf(options, env, host),
    metrics:
      options.metrics ??
      (env.KB_METRICS ? metricsAccess('KB_METRICS', env.KB_METRICS) : null) ??
      (database !== null ? 'loopback' : 'off'),
    questionLog: options.questionLog ?? env.KB_QUESTION_LOG !== '0',
    impactWorkerMinQuestions: options.impactWorkerMinQuestions,
    publicHosts: options.publicHosts ?? listOf(env.KB_PUBLIC_HOSTS),
    trustProxy: options.trustProxy ?? listOf(env.KB_TRUST_PROXY),
    database,
    databaseTimeouts: databaseTimeouts(options.databaseTimeouts, env),
    signIn: options.signIn ? signIn : null,
    credentials: credentialsFromEnv(env),
    embedding: options.embedding !== undefined ? options.embedding : embeddingFromEnv(env),
  };
}

/**
 * The default embedding provider the flags or environment name (`flags` win), or null. Throws
 * an Error with a message for the person who typed a bad value.
 */
export function embeddingFromEnv(
  env: NodeJS.ProcessEnv,
  flags: { base?: string; model?: string; api?: string; timeout?: string } = {},
): DefaultEmbedding | null {
  const base = flags.base ?? env.KB_EMBEDDINGS ?? '';
  if (base === '') return null;
  if (!/^https?:\/\/\S+$/.test(base))
    throw new Error(`the embedding provider's base must be an http(s) URL, not ${base}`);
  const api = flags.api ?? env.KB_EMBEDDING_API ?? 'openai';
  if (!EMBEDDING_APIS.includes(api as EmbeddingApi))
    throw new Error(`the embedding API must be openai or ollama, not ${api}`);
  const timeout = flags.timeout ?? env.KB_EMBEDDING_TIMEOUT_MS;
  const timeoutMs = timeout !== undefined ? Number(timeout) : DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new Error(`the embedding timeout must be a whole number of ms, not ${timeout}`);
  const key = env.KB_EMBEDDING_KEY ?? '';
  return {
    api: api as EmbeddingApi,
    base,
    model: flags.model ?? env.KB_EMBEDDING_MODEL ?? '',
    timeoutMs,
    ...(key !== '' ? { apiKey: key } : {}),
  };
}

/** The host's timeouts, else `KB_DATABASE_TIMEOUT` for all three, else the defaults. */
function databaseTimeouts(
  chosen: Partial<DatabaseTimeouts> | undefined,
  env: NodeJS.ProcessEnv,
): DatabaseTimeouts {
  const all = seconds('KB_DATABASE_TIMEOUT', env.KB_DATABASE_TIMEOUT);
  const fromEnv = all === undefined ? {} : { connectMs: all, queryMs: all, statementMs: all };
  return { ...DEFAULT_DATABASE_TIMEOUTS, ...fromEnv, ...chosen };
}

/** `--session-idle` and `--session-max`: minutes above 0, in ms. */
function minutes(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!(parsed > 0)) throw new Error(`--${name} must be a number of minutes above 0, not ${value}`);
  return parsed * 60_000;
}

/**
 * `npm run serve`'s command line (electron/headless.ts documents the flags) and the variables
 * only it reads (`KB_TEAM`, `KB_SNAPSHOT_BYTES`), as the host's options. Throws an Error with a
 * message for the person who typed it.
 */
export function serveOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ServiceOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      data: { type: 'string', default: './kb-data' },
      port: { type: 'string', default: String(DEFAULT_API_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'cors-origins': { type: 'string' },
      'debug-signatures': { type: 'boolean' },
      'public-host': { type: 'string' },
      'trust-proxy': { type: 'string' },
      database: { type: 'string' },
      'database-timeout': { type: 'string' },
      team: { type: 'boolean' },
      'session-idle': { type: 'string' },
      'session-max': { type: 'string' },
      metrics: { type: 'string' },
      'max-connections': { type: 'string' },
      'max-connections-per-address': { type: 'string' },
      embeddings: { type: 'string' },
      'embedding-model': { type: 'string' },
      'embedding-api': { type: 'string' },
      'embedding-timeout': { type: 'string' },
      'memory-budget': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, not ${values.port}`);
  const sessionIdleMs = minutes('session-idle', values['session-idle']);
  const sessionMaxMs = minutes('session-max', values['session-max']);
  const split = (list: string) => list.split(',').map((item) => item.trim());
  const maxConnections = connectionCount('--max-connections', values['max-connections']);
  const maxConnectionsPerAddress = connectionCount(
    '--max-connections-per-address',
    values['max-connections-per-address'],
  );
  if (maxConnections === 0) throw new Error('--max-connections must be above 0');
  const connectionLimits = {
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(maxConnectionsPerAddress !== undefined ? { maxConnectionsPerAddress } : {}),
  };
  const timeout = seconds('--database-timeout', values['database-timeout']);
  const memoryBudget = memoryBudgetOf('--memory-budget', values['memory-budget']);
  const embedding = embeddingFromEnv(env, {
    ...(values.embeddings !== undefined ? { base: values.embeddings } : {}),
    ...(values['embedding-model'] !== undefined ? { model: values['embedding-model'] } : {}),
    ...(values['embedding-api'] !== undefined ? { api: values['embedding-api'] } : {}),
    ...(values['embedding-timeout'] !== undefined ? { timeout: values['embedding-timeout'] } : {}),
  });
  return {
    dataDir: resolve(values.data),
    port,
    host: values.host,
    env,
    ...(values['cors-origins'] !== undefined
      ? { corsOrigins: parseCorsOrigins(values['cors-origins']) }
      : {}),
    ...(values['debug-signatures'] ? { debugSignatures: true } : {}),
    ...(values['trust-proxy'] !== undefined ? { trustProxy: split(values['trust-proxy']) } : {}),
    ...(values['public-host'] !== undefined ? { publicHosts: split(values['public-host']) } : {}),
    ...(values.database !== undefined ? { database: values.database } : {}),
    ...(timeout !== undefined
      ? { databaseTimeouts: { connectMs: timeout, queryMs: timeout, statementMs: timeout } }
      : {}),
    ...(values.team || env.KB_TEAM === '1' ? { signIn: true } : {}),
    ...(sessionIdleMs !== undefined ? { sessionIdleMs } : {}),
    ...(sessionMaxMs !== undefined ? { sessionMaxMs } : {}),
    ...(values.metrics !== undefined
      ? { metrics: metricsAccess('--metrics', values.metrics) }
      : {}),
    ...(Object.keys(connectionLimits).length > 0 ? { connectionLimits } : {}),
    ...(env.KB_SNAPSHOT_BYTES ? { snapshotJournalBytes: Number(env.KB_SNAPSHOT_BYTES) } : {}),
    ...(embedding ? { embedding } : {}),
    ...(memoryBudget !== undefined ? { memoryBudget } : {}),
  };
}
