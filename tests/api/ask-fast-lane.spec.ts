/**
 * Plain ask requests are answered by a fast lane in front of Fastify (http/ask-fast-lane.ts);
 * every other request, and every in-process request (`service.inject`), goes through Fastify's
 * route. Each case here is sent both ways and must get the same status and envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import { fastLaneStats } from '../../electron/service/http/ask-fast-lane';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

interface Answer {
  status: number;
  body: unknown;
}

describe('the ask fast lane answers exactly as the Fastify route', () => {
  let h: TestService;
  let robot: RobotClient;
  before(async () => {
    h = await startTestService();
    ({ robot } = await registerTenantWithRobot(h.client));
    await robot.importRules([ruleInput('退货', ['我想退货'], '七天内可无理由退货。')]);
  });
  after(() => h.close());

  const askPath = () => `${robot.basePath}/robot/ask`;
  const body = (question: unknown) =>
    JSON.stringify({ userId: 'u1', question, channel: 'API', questionType: 'TEXT' });

  /** A freshly signed path and query for the ask route (or `path`). */
  function signed(path = askPath(), robotSecret = robot.robotSecret): string {
    const url = h.client.signedUrl(path, { signMethod: 2, robotSecret });
    return url.slice(url.indexOf('/v1/'));
  }

  interface Case {
    what: string;
    url: () => string;
    payload?: string;
    headers?: Record<string, string>;
    /** The lane must take it over HTTP (false: it must leave it to Fastify). */
    lane?: boolean;
  }

  const edit = (url: string, f: (params: URLSearchParams) => void) => {
    const [path = '', query = ''] = url.split('?');
    const params = new URLSearchParams(query);
    f(params);
    return `${path}?${params.toString()}`;
  };

  const cases: Case[] = [
    { what: 'an exact phrasing', url: () => signed(), payload: body('我想退货') },
    { what: 'an unrelated question', url: () => signed(), payload: body('量子力学是什么') },
    {
      what: 'a JSON body labelled as a form',
      url: () => signed(),
      payload: body('我想退货'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    { what: 'malformed JSON', url: () => signed(), payload: '{"userId": ' },
    { what: 'no body', url: () => signed(), payload: '' },
    { what: 'an array body', url: () => signed(), payload: '[]' },
    {
      what: 'a missing field',
      url: () => signed(),
      payload: JSON.stringify({ userId: 'u', question: 'q', channel: 'API' }),
    },
    {
      what: 'a wrong channel',
      url: () => signed(),
      payload: JSON.stringify({ userId: 'u', question: 'q', channel: 'WEB', questionType: 'TEXT' }),
    },
    { what: 'a question too long', url: () => signed(), payload: body('长'.repeat(201)) },
    { what: 'a question of blanks', url: () => signed(), payload: body('   ') },
    {
      what: 'a missing sign',
      url: () => edit(signed(), (p) => p.delete('sign')),
      payload: body('我想退货'),
    },
    {
      what: 'a nonce given twice',
      url: () => `${signed()}&nonce=again`,
      payload: body('我想退货'),
    },
    {
      what: 'a malformed timestamp',
      url: () => edit(signed(), (p) => p.set('timestamp', '123')),
      payload: body('我想退货'),
    },
    {
      what: 'a stale timestamp',
      url: () => edit(signed(), (p) => p.set('timestamp', String(Date.now() - 3_600_000))),
      payload: body('我想退货'),
    },
    {
      what: 'an unknown adminkey',
      url: () => edit(signed(), (p) => p.set('adminkey', 'nope')),
      payload: body('我想退货'),
    },
    {
      what: 'another customer',
      url: () => edit(signed(), (p) => p.set('customerId', 'someone')),
      payload: body('我想退货'),
    },
    {
      what: 'a wrong robot secret',
      url: () => signed(askPath(), 'not-the-secret'),
      payload: body('我想退货'),
    },
    {
      what: 'an unknown tenant',
      url: () => signed(`/v1/openapi/tenants/999999/robots/default/robot/ask`),
      payload: body('我想退货'),
    },
    {
      what: 'an unknown robot',
      url: () => signed(`/v1/openapi/tenants/${robot.tenantId}/robots/nobody/robot/ask`),
      payload: body('我想退货'),
    },
    {
      what: 'a tenant id with a leading zero (Fastify’s)',
      url: () => signed(`/v1/openapi/tenants/0${robot.tenantId}/robots/default/robot/ask`),
      payload: body('我想退货'),
      lane: false,
    },
    {
      what: 'a percent-encoded query (Fastify’s)',
      url: () => `${signed()}&extra=%41`,
      payload: body('我想退货'),
      lane: false,
    },
    {
      what: 'a body over 64 KiB (Fastify’s)',
      url: () => signed(),
      payload: JSON.stringify({
        userId: 'u',
        question: '我想退货',
        channel: 'API',
        questionType: 'TEXT',
        padding: 'x'.repeat(70_000),
      }),
      lane: false,
    },
  ];

  for (const c of cases) {
    test(c.what, async () => {
      const headers = { 'content-type': 'application/json', ...c.headers };
      const before = fastLaneStats.taken;
      const http = await fetch(`${h.service.url}${c.url()}`, {
        method: 'POST',
        headers,
        body: c.payload ?? '',
      });
      const overHttp: Answer = { status: http.status, body: await http.json() };
      assert.equal(fastLaneStats.taken - before, c.lane === false ? 0 : 1, 'lane taken or not');
      const injected = await h.service.inject({
        method: 'POST',
        url: c.url(),
        headers,
        payload: c.payload ?? '',
      });
      const viaFastify: Answer = { status: injected.statusCode, body: injected.json() };
      assert.deepEqual(overHttp, viaFastify);
      assert.equal(http.headers.get('content-type'), injected.headers['content-type']);
    });
  }

  test('a replayed nonce is refused on either path', async () => {
    const url = signed();
    const first = await fetch(`${h.service.url}${url}`, { method: 'POST', body: body('我想退货') });
    assert.equal(first.status, 200);
    const again = await fetch(`${h.service.url}${url}`, { method: 'POST', body: body('我想退货') });
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { code: string }).code, 'replayed-nonce');
    const injected = await h.service.inject({ method: 'POST', url, payload: body('我想退货') });
    assert.equal(injected.statusCode, 401);
    assert.equal(injected.json<{ code: string }>().code, 'replayed-nonce');
  });

  test('GET on the ask path is an unknown route, as before', async () => {
    const response = await fetch(`${h.service.url}${signed()}`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { code: string }).code, 'route-not-found');
  });
});

describe('answers kept in memory follow every edit', () => {
  let h: TestService;
  let robot: RobotClient;
  before(async () => {
    h = await startTestService();
    ({ robot } = await registerTenantWithRobot(h.client));
  });
  after(() => h.close());

  test('an edited, deleted or restored rule is answered as it now is', async () => {
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const R = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
    const [rule] = (await robot.importRules([ruleInput('发票', ['怎么开发票'], '旧的答案')]))
      .succeed;
    assert.equal((await robot.ask('怎么开发票')).answer, '旧的答案');
    assert.equal((await robot.ask('怎么开发票')).answer, '旧的答案', 'asked twice: from memory');
    await api.ok('PATCH', `${R}/rules/${rule?.ruleId}`, { answer: '新的答案' });
    assert.equal((await robot.ask('怎么开发票')).answer, '新的答案');
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [rule?.ruleId] });
    assert.notEqual((await robot.ask('怎么开发票')).answer, '新的答案');
    await api.ok('POST', `${R}/rules/restore`, { ruleIds: [rule?.ruleId] });
    assert.equal((await robot.ask('怎么开发票')).answer, '新的答案');
    await api.ok('PATCH', `${R}/rules/${rule?.ruleId}`, { answer: '恢复后的答案' });
    assert.equal((await robot.ask('怎么开发票')).answer, '恢复后的答案');
  });
});
