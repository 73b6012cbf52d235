/**
 * The service's configuration (electron/service/config.ts): a host's choice wins over the
 * environment, which wins over the defaults; `npm run serve`'s flags and the variables only it
 * reads; bad values refused with the messages the README's users know.
 */
import { totalmem } from 'node:os';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { serveOptions, serviceConfig } from '../../electron/service/config';
import {
  DEFAULT_CONNECTION_LIMITS,
  PER_ADDRESS_BEYOND_LOOPBACK,
} from '../../electron/service/http/connection-limits';
import { silentLogger } from '../../electron/service/logger';
import { DEFAULT_SIGN_IN_POLICY } from '../../electron/service/sign-in/policy';

const base = { dataDir: '/tmp/kb', logger: silentLogger };

test('defaults: embedded store, any origin, log on, no sign-in, the credentials of the data directory', () => {
  const config = serviceConfig({ ...base, env: {} });
  assert.equal(config.port, 0);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.database, null);
  assert.equal(config.corsOrigins, '*');
  assert.equal(config.debugSignatures, false);
  assert.equal(config.questionLog, true);
  assert.deepEqual(config.publicHosts, []);
  assert.deepEqual(config.trustProxy, []);
  assert.equal(config.signIn, null);
  assert.equal(config.credentials, null);
  assert.deepEqual(config.connectionLimits, DEFAULT_CONNECTION_LIMITS);
  assert.equal(config.createIndex, null);
  assert.equal(config.consoleToken, null, 'the data directory’s token (auth/editor-token.ts)');
});

test('the environment fills in what the host leaves out', () => {
  const config = serviceConfig({
    ...base,
    env: {
      KB_CORS_ORIGINS: 'https://a.example, https://b.example',
      KB_DEBUG_SIGNATURES: '1',
      KB_DATABASE_URL: 'postgres://u@h/kb',
      KB_QUESTION_LOG: '0',
      KB_PUBLIC_HOSTS: 'kb.example, ,kb2.example',
      KB_TRUST_PROXY: '10.0.0.1,',
      KB_CUSTOMER_ID: 'c',
      KB_ADMIN_KEY: 'k',
      KB_ADMIN_SECRET: 's',
    },
  });
  assert.deepEqual(config.corsOrigins, ['https://a.example', 'https://b.example']);
  assert.equal(config.debugSignatures, true);
  assert.equal(config.database, 'postgres://u@h/kb');
  assert.equal(config.questionLog, false);
  assert.deepEqual(config.publicHosts, ['kb.example', 'kb2.example']);
  assert.deepEqual(config.trustProxy, ['10.0.0.1']);
  assert.deepEqual(config.credentials, { customerId: 'c', adminKey: 'k', adminSecret: 's' });
});

test("the host's choices win over the environment, and a bad variable they replace is not read", () => {
  const config = serviceConfig({
    ...base,
    env: {
      KB_CORS_ORIGINS: 'not an origin',
      KB_QUESTION_LOG: '0',
      KB_DATABASE_URL: 'postgres://x',
    },
    corsOrigins: '*',
    questionLog: true,
    database: 'postgres://y',
    signIn: true,
    sessionIdleMs: 60_000,
    signInPolicy: { failuresPerPair: 2 },
  });
  assert.equal(config.corsOrigins, '*');
  assert.equal(config.questionLog, true);
  assert.equal(config.database, 'postgres://y');
  assert.deepEqual(config.signIn, {
    ...DEFAULT_SIGN_IN_POLICY,
    failuresPerPair: 2,
    sessionIdleMs: 60_000,
  });
});

test('bad environment values are refused with their messages', () => {
  assert.throws(
    () => serviceConfig({ ...base, env: { KB_CORS_ORIGINS: 'https://a.example/' } }),
    /https:\/\/a\.example\/ is not an origin: write scheme:\/\/host\[:port\]/,
  );
  assert.throws(
    () => serviceConfig({ ...base, env: { KB_CUSTOMER_ID: 'c', KB_ADMIN_KEY: '' } }),
    /Set all of KB_CUSTOMER_ID, KB_ADMIN_KEY, KB_ADMIN_SECRET or none of them \(1 of 3 are set\)\./,
  );
});

test("npm run serve's flags, and KB_TEAM and KB_SNAPSHOT_BYTES which only it reads", () => {
  assert.deepEqual(serveOptions([], {}), {
    dataDir: resolve('./kb-data'),
    port: 8787,
    host: '127.0.0.1',
    env: {},
  });
  const env = { KB_TEAM: '1', KB_SNAPSHOT_BYTES: '4096' };
  const options = serveOptions(
    [
      '--data=/srv/kb',
      '--port',
      '0',
      '--cors-origins',
      'https://a.example',
      '--debug-signatures',
      '--public-host',
      'kb.example, kb2.example',
      '--trust-proxy',
      '10.0.0.1',
      '--database',
      'postgres://u@h/kb',
      '--session-idle',
      '5',
      '--session-max',
      '60',
    ],
    env,
  );
  assert.deepEqual(options, {
    dataDir: '/srv/kb',
    port: 0,
    host: '127.0.0.1',
    env,
    corsOrigins: ['https://a.example'],
    debugSignatures: true,
    trustProxy: ['10.0.0.1'],
    publicHosts: ['kb.example', 'kb2.example'],
    database: 'postgres://u@h/kb',
    signIn: true,
    sessionIdleMs: 300_000,
    sessionMaxMs: 3_600_000,
    snapshotJournalBytes: 4096,
  });
  assert.equal(serviceConfig({ ...base, env: { KB_TEAM: '1' } }).signIn, null, 'not for others');
});

test('bad flags are refused with their messages', () => {
  assert.throws(() => serveOptions(['--port', '65536'], {}), {
    message: '--port must be 0 to 65535, not 65536',
  });
  assert.throws(() => serveOptions(['--session-max', '0'], {}), {
    message: '--session-max must be a number of minutes above 0, not 0',
  });
  assert.throws(() => serveOptions(['--bogus'], {}), /Unknown option '--bogus'/);
});

test('connection limits: a share per address beyond loopback only; the metrics off on the embedded store', () => {
  const local = serviceConfig({ ...base, env: {} });
  assert.equal(local.connectionLimits.maxConnectionsPerAddress, 0);
  assert.equal(local.metrics, 'off');
  const wide = serviceConfig({
    ...base,
    host: '0.0.0.0',
    env: { KB_DATABASE_URL: 'postgres://x' },
  });
  assert.equal(wide.connectionLimits.maxConnectionsPerAddress, PER_ADDRESS_BEYOND_LOOPBACK);
  assert.equal(wide.connectionLimits.maxConnections, DEFAULT_CONNECTION_LIMITS.maxConnections);
  assert.equal(wide.metrics, 'loopback', 'a team server: loopback only');
  const env = { KB_MAX_CONNECTIONS: '100', KB_MAX_CONNECTIONS_PER_ADDRESS: '0', KB_METRICS: 'on' };
  const tuned = serviceConfig({ ...base, host: '0.0.0.0', env });
  assert.equal(tuned.connectionLimits.maxConnections, 100);
  assert.equal(tuned.connectionLimits.maxConnectionsPerAddress, 0);
  assert.equal(tuned.metrics, 'on');
  assert.throws(() => serviceConfig({ ...base, env: { KB_METRICS: 'yes' } }), {
    message: 'KB_METRICS must be off, loopback or on, not yes',
  });
  assert.throws(() => serviceConfig({ ...base, env: { KB_MAX_CONNECTIONS: '0' } }), {
    message: 'KB_MAX_CONNECTIONS must be above 0',
  });
  assert.deepEqual(
    serveOptions(
      ['--metrics', 'loopback', '--max-connections', '300', '--max-connections-per-address', '8'],
      {},
    ),
    {
      dataDir: resolve('./kb-data'),
      port: 8787,
      host: '127.0.0.1',
      env: {},
      metrics: 'loopback',
      connectionLimits: { maxConnections: 300, maxConnectionsPerAddress: 8 },
    },
  );
  assert.throws(() => serveOptions(['--max-connections-per-address', 'many'], {}), {
    message: '--max-connections-per-address must be a whole number of connections, not many',
  });
});

test('the default embedding provider: flags, else the environment (its key only there)', () => {
  assert.equal(serviceConfig({ ...base, env: {} }).embedding, null, 'none by default');
  assert.deepEqual(
    serviceConfig({
      ...base,
      env: {
        KB_EMBEDDINGS: 'http://127.0.0.1:11434',
        KB_EMBEDDING_API: 'ollama',
        KB_EMBEDDING_MODEL: 'bge-m3',
        KB_EMBEDDING_KEY: 'sk-1',
      },
    }).embedding,
    {
      api: 'ollama',
      base: 'http://127.0.0.1:11434',
      model: 'bge-m3',
      timeoutMs: 300,
      apiKey: 'sk-1',
    },
  );
  const flags = serveOptions(
    ['--embeddings', 'http://h:8000/v1', '--embedding-model', 'm', '--embedding-timeout', '500'],
    { KB_EMBEDDING_API: 'openai' },
  );
  assert.deepEqual(flags.embedding, {
    api: 'openai',
    base: 'http://h:8000/v1',
    model: 'm',
    timeoutMs: 500,
  });
  assert.throws(() => serveOptions(['--embeddings', 'http://h', '--embedding-api', 'x'], {}), {
    message: 'the embedding API must be openai or ollama, not x',
  });
  assert.throws(() => serviceConfig({ ...base, env: { KB_EMBEDDINGS: 'ftp://h' } }), {
    message: "the embedding provider's base must be an http(s) URL, not ftp://h",
  });
});

test('the memory budget: none on the desktop, half the memory on a team node; flag, then variable', () => {
  assert.equal(serviceConfig({ ...base, env: {} }).memoryBudget, null);
  assert.equal(
    serviceConfig({ ...base, env: { KB_DATABASE_URL: 'postgres://x' } }).memoryBudget,
    Math.floor(totalmem() / 2),
  );
  const team = { KB_DATABASE_URL: 'postgres://x', KB_MEMORY_BUDGET: 'none' };
  assert.equal(serviceConfig({ ...base, env: team }).memoryBudget, null);
  assert.equal(
    serviceConfig({ ...base, env: { KB_MEMORY_BUDGET: '512MB' } }).memoryBudget,
    512 * 1024 ** 2,
  );
  assert.equal(
    serviceConfig({ ...base, memoryBudget: 1000, env: { KB_MEMORY_BUDGET: 'bad' } }).memoryBudget,
    1000,
  );
  assert.equal(serveOptions(['--memory-budget', '2gb'], {}).memoryBudget, 2 * 1024 ** 3);
  assert.equal(serveOptions(['--memory-budget', '1048576'], {}).memoryBudget, 1048576);
  assert.throws(() => serveOptions(['--memory-budget', 'lots'], {}), {
    message: '--memory-budget must be a size such as 512MB or 2GB (or none), not lots',
  });
  assert.throws(() => serviceConfig({ ...base, env: { KB_MEMORY_BUDGET: '0' } }), {
    message: 'KB_MEMORY_BUDGET must be a size such as 512MB or 2GB (or none), not 0',
  });
});
