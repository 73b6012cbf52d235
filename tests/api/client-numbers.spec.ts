/**
 * Every number a client sends is bounded before it reaches the store: paging parameters, ids in
 * paths, dates. A number out of bounds is refused with the route's 400 (or names nothing: 404),
 * never passed on to SQL or the matcher as NaN, an unsafe integer or a rounded neighbour.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RuleList } from '../../electron/service/api-types';
import type { ConsoleRule, RulePage, TryResult } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('numbers from clients are bounded before they reach the store', () => {
  let h: TestService;
  let robot: RobotClient;
  let tenantId: number;
  let api: ReturnType<typeof consoleClient>;
  let R: string;
  before(async () => {
    h = await startTestService();
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    api = consoleClient(h.service.url, h.service.consoleToken);
    R = `/tenants/${tenantId}/robots/default`;
    await robot.send('POST', '/kb/rules/full/batch', {
      body: [ruleInput('r1', ['退货']), ruleInput('r2', ['换货'])],
    });
  });
  after(() => h.close());

  test('openapi list: page and pageSize within their bounds, else invalid-paging', async () => {
    const list = (query: Record<string, string>) =>
      robot.send<RuleList>('GET', '/kb/rules', { query });
    const last = await list({ page: '999999999', pageSize: '1000' });
    assert.equal(last.status, 200);
    assert.deepEqual(last.body.data, { list: [], totalCount: 2 });
    for (const query of <Record<string, string>[]>[
      { page: '1000000000' },
      { page: '-1' },
      { page: '1.5' },
      { page: '1e3' },
      { page: '9007199254740993' },
      { pageSize: '0' },
      { pageSize: '1001' },
      { pageSize: '' },
    ]) {
      const { status, body } = await list(query);
      assert.equal(status, 400, JSON.stringify(query));
      assert.equal(body.code, 'invalid-paging', JSON.stringify(query));
    }
  });

  test('console rules: offset and limit within their bounds, else invalid-paging naming them', async () => {
    const far = await api.call<RulePage>('GET', `${R}/rules?offset=999999999&limit=1000`);
    assert.equal(far.status, 200);
    assert.deepEqual(far.body.data, { rows: [], total: 2 });
    for (const [field, query] of [
      ['offset', 'offset=1000000000'],
      ['offset', 'offset=-1'],
      ['offset', 'offset=9007199254740993'],
      ['limit', 'limit=0'],
      ['limit', 'limit=1001'],
      ['limit', 'limit=1e2'],
    ] as const) {
      const { status, body } = await api.call<{ field: string }>('GET', `${R}/rules?${query}`);
      assert.equal(status, 400, query);
      assert.equal(body.code, 'invalid-paging', query);
      assert.equal(body.data.field, field, query);
    }
  });

  test('console trash: limit 1 to 1000, else invalid-paging', async () => {
    const rule = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: 'doomed',
      questions: ['q'],
      answer: 'a',
    });
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [rule.ruleId] });
    const one = await api.ok<{ rules: unknown[] }>('GET', `${R}/rules/trash?limit=1`);
    assert.equal(one.rules.length, 1);
    for (const limit of ['0', '1001', '-1', '99999999999']) {
      const { status, body } = await api.call<{ field: string }>(
        'GET',
        `${R}/rules/trash?limit=${limit}`,
      );
      assert.equal(status, 400, limit);
      assert.equal(body.code, 'invalid-paging', limit);
      assert.equal(body.data.field, 'limit');
    }
  });

  test('restore takes ids only: a client-sent seq never reaches SQL, imports keep working', async () => {
    const rule = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: 'back again',
      questions: ['q'],
      answer: 'a',
    });
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [rule.ruleId] });
    // Before issue 12: a seq of 2^53 was stored, and every later import of every tenant failed.
    const restored = await api.ok('POST', `${R}/rules/restore`, {
      ruleIds: [rule.ruleId],
      seq: 2 ** 53,
      rules: [{ ruleId: rule.ruleId, seq: 2 ** 53 }],
    });
    assert.deepEqual(restored, { restored: 1 });
    const back = await api.ok<ConsoleRule>('GET', `${R}/rules/${rule.ruleId}`);
    assert.equal(back.seq, rule.seq);
    const { body } = await robot.send('POST', '/kb/rules/full/batch', {
      body: [ruleInput('after restore', ['q'])],
    });
    assert.equal(body.code, '0');
  });

  test('ids in paths: beyond 15 digits (unsafe as numbers) they name nothing', async () => {
    for (const id of ['999999999999999', '9007199254740993', '0', '01', '-1', '1e3']) {
      const openapi = await h.client.send('GET', `/v1/openapi/tenants/${id}/robots`, {
        signMethod: 1,
      });
      assert.equal(openapi.status, 404, id);
      assert.equal(openapi.body.code, 'tenant-not-found', id);
      const console = await api.call('GET', `/tenants/${id}/robots/default/rules`);
      assert.equal(console.status, 404, id);
      assert.equal(console.body.code, 'tenant-not-found', id);
    }
    for (const id of ['9007199254740993', '99999999999999999999', '0', '-1', '1.0']) {
      const renamed = await api.call('PATCH', `${R}/categories/${id}`, { name: 'x' });
      assert.equal(renamed.status, 404, id);
      assert.equal(renamed.body.code, 'category-not-found', id);
    }
  });

  test('dates: a date that does not exist is refused, not read as another day or as NaN', async () => {
    const rule = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: 'dated',
      questions: ['q'],
      answer: 'a',
    });
    for (const date of [
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00+08:00',
      '2024-13-01T00:00:00Z',
      '2024-01-01T25:00:00Z',
      '2024-01-01T00:00:00+99:99',
    ]) {
      const { status, body } = await api.call<{ field: string }>(
        'PATCH',
        `${R}/rules/${rule.ruleId}`,
        { effectBeignDate: date },
      );
      assert.equal(status, 400, date);
      assert.equal(body.data.field, 'effectBeignDate', date);
      const tried = await api.call<{ field: string }>('POST', `${R}/try`, {
        question: '退货',
        asOf: date,
      });
      assert.equal(tried.status, 400, `asOf ${date}`);
      assert.equal(tried.body.code, 'invalid-field', `asOf ${date}`);
      assert.equal(tried.body.data.field, 'asOf', `asOf ${date}`);
    }
    for (const date of [
      '2024-02-29T23:59:59.999Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59+14:00',
    ]) {
      const kept = await api.ok<ConsoleRule>('PATCH', `${R}/rules/${rule.ruleId}`, {
        effectEndDate: date,
        effectBeignDate: null,
      });
      assert.equal(kept.effectEndDate, date);
      const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: '退货', asOf: date });
      assert.equal(typeof tried.decision, 'string');
    }
  });
});
