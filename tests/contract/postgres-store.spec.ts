/**
 * The store contract, run against the PostgreSQL store on new databases of a throwaway cluster
 * (tests/helpers/postgres.ts): one in byte order (the test cluster's locale), one with an
 * English collation (where 'a' < 'B'), as a production cluster may have: the store compares
 * text as bytes either way, as SQLite does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServiceError } from '../../electron/service/errors';
import { StorageUnavailable } from '../../electron/service/store/contract/errors';
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import { PostgresStore } from '../../electron/service/store/postgres/postgres-store';
import { freshDatabase, startPostgresCluster } from '../helpers/postgres';
import { storeContract } from './store-contract';

const open = (url: string) =>
  PostgresStore.open({ url, logger: silentLogger, textKey: normalizeText });
// Databases go with the cluster.
const destroy = async () => undefined;

storeContract('PostgreSQL', { create: () => freshDatabase('contract'), open, destroy });

storeContract('PostgreSQL, English collation', {
  create: () => freshDatabase('contract_en', { icuLocale: 'en' }),
  open,
  destroy,
});

test('text PostgreSQL cannot hold (U+0000) is refused as the client’s mistake, writing nothing', async () => {
  const store = await open(await freshDatabase('nul'));
  try {
    const register = (company: string) =>
      store.tenants.register({
        tenant: { phoneNumber: '1', mail: 'm@example.com', company, createdAt: 1 },
        admin: { userId: 'u', username: 'a', usernameKey: 'a', role: 'ADMIN', passwordHash: 'h' },
        robot: { robotId: 'default', name: 'd', secret: 's', settingsJson: '{}', createdAt: 1 },
      });
    await assert.rejects(register('x\u0000y'), (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.code, 'invalid-field');
      return true;
    });
    assert.deepEqual(await store.tenants.all(), []);
    const tenantId = await register('fine');
    const robot = { tenantId, robotId: 'default' };
    const rule = {
      ruleId: 'r1',
      ruleName: 'a\u0000b',
      nameKey: 'a\u0000b',
      categoryId: '',
      active: true,
      allowSimGen: null,
      effectBegin: null,
      effectEnd: null,
      questions: ['q\u0000'],
      answer: 'x',
      createdAt: 1,
    };
    await assert.rejects(store.rules.insert(robot, [rule], 1, 'tester'), ServiceError);
    assert.equal(await store.rules.maxSeq(robot), 0);
    await assert.rejects(store.rules.find(robot, 'r\u0000'), ServiceError, 'reads too');
  } finally {
    await store.close();
  }
});

test('a database out of reach is StorageUnavailable (503), for writes and reads', async () => {
  // A cluster of its own, stopped under the store.
  const cluster = await startPostgresCluster();
  let store: PostgresStore | undefined;
  try {
    store = await open(cluster.url);
    await store.robots.all();
    cluster.stop();
    const registration = store.tenants.register({
      tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: 1 },
      admin: { userId: 'u', username: 'a', usernameKey: 'a', role: 'ADMIN', passwordHash: 'h' },
      robot: { robotId: 'default', name: 'd', secret: 's', settingsJson: '{}', createdAt: 1 },
    });
    await assert.rejects(registration, StorageUnavailable);
    await assert.rejects(store.robots.all(), StorageUnavailable);
  } finally {
    cluster.stop();
    await store?.close();
  }
});
