/**
 * The service's configuration, read once: `npm run serve`'s command line (`serveOptions`), the
 * host's own choices (`ServiceOptions`: the desktop app, tests) and the environment variables
 * (README, "Install and run"), each parsed here and nowhere else in the service. A bad value is
 * refused before anything opens. A host's choice wins over the environment, which wins over the
 * defaults.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { credentialsFromEnv, randomToken } from './auth/credentials';
import type { CustomerCredentials } from './auth/credentials';
import { DEFAULT_API_PORT } from './defaults';
import { DEFAULT_CONNECTION_LIMITS } from './http/connection-limits';
import type { ConnectionLimits } from './http/connection-limits';
import { parseCorsOrigins } from './http/cors';
import type { CorsOrigins } from './http/cors';
import { createConsoleLogger } from './logger';
import type { Logger } from './logger';
import type { CreateRobotIndex } from './matching/types';
import { EMBEDDING_APIS } from './embedding/provider-client';
import type { EmbeddingApi } from './embedding/provider-client';
import { DEFAULT_TIMEOUT_MS } from './embedding/provider-settings';
import type { DefaultEmbedding } from './embedding/provider-settings';
import { DEFAULT_SIGN_IN_POLICY } from './sign-in/policy';
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
  /** Deadlines and the connection cap of the HTTP server (small in tests of slow clients). */
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
  /** The console API's token when editors do not sign in. */
  readonly consoleToken: string;
  readonly corsOrigins: CorsOrigins;
  readonly debugSignatures: boolean;
  /** The embedded store's snapshot tuning; undefined: its defaults. */
  readonly snapshotJournalBytes: number | undefined;
  readonly snapshotIdleMs: number | undefined;
  readonly connectionLimits: ConnectionLimits;
  readonly questionLog: boolean;
  readonly publicHosts: readonly string[];
  readonly trustProxy: readonly string[];
  /** A team server's `postgres://` URL; null: the embedded store. */
  readonly database: string | null;
  /** Editors sign in, with this policy (a team server); null: the per-launch console token. */
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

/** The configuration of a host's options, the environment filling in what they leave out. */
export function serviceConfig(options: ServiceOptions): ServiceConfig {
  const env = options.env ?? process.env;
  const signIn = {
    ...DEFAULT_SIGN_IN_POLICY,
    ...options.signInPolicy,
    ...(options.sessionIdleMs !== undefined ? { sessionIdleMs: options.sessionIdleMs } : {}),
    ...(options.sessionMaxMs !== undefined ? { sessionMaxMs: options.sessionMaxMs } : {}),
  };
  return {
    dataDir: options.dataDir,
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    logger: options.logger ?? createConsoleLogger(),
    now: options.now ?? Date.now,
    editorDir: options.editorDir ?? null,
    createIndex: options.createIndex ?? null,
    consoleToken: options.consoleToken ?? randomToken(32),
    corsOrigins:
      options.corsOrigins ??
      (env.KB_CORS_ORIGINS !== undefined ? parseCorsOrigins(env.KB_CORS_ORIGINS) : '*'),
    debugSignatures: options.debugSignatures ?? env.KB_DEBUG_SIGNATURES === '1',
    snapshotJournalBytes: options.snapshotJournalBytes,
    snapshotIdleMs: options.snapshotIdleMs,
    connectionLimits: { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits },
    questionLog: options.questionLog ?? env.KB_QUESTION_LOG !== '0',
    publicHosts: options.publicHosts ?? listOf(env.KB_PUBLIC_HOSTS),
    trustProxy: options.trustProxy ?? listOf(env.KB_TRUST_PROXY),
    database: options.database ?? (env.KB_DATABASE_URL || null),
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
      team: { type: 'boolean' },
      'session-idle': { type: 'string' },
      'session-max': { type: 'string' },
      embeddings: { type: 'string' },
      'embedding-model': { type: 'string' },
      'embedding-api': { type: 'string' },
      'embedding-timeout': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, not ${values.port}`);
  const sessionIdleMs = minutes('session-idle', values['session-idle']);
  const sessionMaxMs = minutes('session-max', values['session-max']);
  const split = (list: string) => list.split(',').map((item) => item.trim());
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
    ...(values.team || env.KB_TEAM === '1' ? { signIn: true } : {}),
    ...(sessionIdleMs !== undefined ? { sessionIdleMs } : {}),
    ...(sessionMaxMs !== undefined ? { sessionMaxMs } : {}),
    ...(env.KB_SNAPSHOT_BYTES ? { snapshotJournalBytes: Number(env.KB_SNAPSHOT_BYTES) } : {}),
    ...(embedding ? { embedding } : {}),
  };
}
