/**
 * Clients written for the hosted platform work unchanged (issue 13): fixed nonces with fresh
 * timestamps, form-encoded bodies, and CORS for web pages on other origins (the browser side is
 * in tests/e2e/cross-origin.spec.ts). Over real HTTP, and through Fastify's route as well as the
 * ask fast lane where both can answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { md5 } from 'js-md5';
import type { RobotClient } from '../../electron/client/openapi-client';
import { canonicalString } from '../../electron/service/auth/canonical';
import { fastLaneStats } from '../../electron/service/http/ask-fast-lane';
import {
  TEST_CREDENTIALS,
  registerTenantWithRobot,
  ruleInput,
  startTestService,
  tenantRequest,
} from '../helpers/service';
import type { TestService } from '../helpers/service';

/** A URL signed the way the platform's published clients do it: with the nonce they are given. */
function platformUrl(
  h: TestService,
  path: string,
  nonce: string,
  timestamp: number,
  robotSecret?: string,
): string {
  const base = {
    adminkey: TEST_CREDENTIALS.adminKey,
    customerId: TEST_CREDENTIALS.customerId,
    nonce,
    timestamp: String(timestamp),
  };
  const sign = md5(
    canonicalString(robotSecret === undefined ? 1 : 2, {
      ...base,
      adminsecret: TEST_CREDENTIALS.adminSecret,
      uri: path,
      ...(robotSecret === undefined ? {} : { robotsecret: robotSecret }),
    }),
  );
  return `${h.service.url}${path}?${new URLSearchParams({ ...base, sign }).toString()}`;
}

/** A freshly signed URL of the robot's ask route, from the typed client. */
function askUrl(robot: RobotClient): string {
  return robot.client.signedUrl(`${robot.basePath}/robot/ask`, {
    signMethod: 2,
    robotSecret: robot.robotSecret,
  });
}

/** A service with a tenant whose robot answers 我想退货. */
async function serviceWithRule(): Promise<{ h: TestService; robot: RobotClient }> {
  const h = await startTestService();
  const { robot } = await registerTenantWithRobot(h.client);
  await robot.importRules([ruleInput('退货', ['我想退货'], '七天内可无理由退货。')]);
  return { h, robot };
}

const ASK = { userId: 'u1', question: '我想退货', channel: 'API', questionType: 'TEXT' };

describe('fixed nonces: replay is keyed on the whole signature', () => {
  let h: TestService;
  let robot: RobotClient;
  before(async () => {
    ({ h, robot } = await serviceWithRule());
  });
  after(() => h.close());

  test('a fixed nonce with a new timestamp on every call is accepted (method 1 and ask)', async () => {
    const t0 = Date.now();
    for (const [i, nonce] of ['123', '123', '123456', '123456', '123'].entries()) {
      const robots = await fetch(
        platformUrl(h, `/v1/openapi/tenants/${robot.tenantId}/robots`, nonce, t0 + i),
      );
      assert.equal(robots.status, 200, `call ${i}: ${await robots.text()}`);
      const asked = await fetch(
        platformUrl(h, `${robot.basePath}/robot/ask`, nonce, t0 + i, robot.robotSecret),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ASK),
        },
      );
      const body = (await asked.json()) as { code: string; data: { answer: string } };
      assert.equal(asked.status, 200, JSON.stringify(body));
      assert.equal(body.data.answer, '七天内可无理由退货。');
    }
  });

  test('the same signed URL sent twice is refused, on either entrance of ask', async () => {
    const t = Date.now();
    const lane = platformUrl(h, `${robot.basePath}/robot/ask`, '123', t, robot.robotSecret);
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ASK),
    };
    const taken = fastLaneStats.taken;
    assert.equal((await fetch(lane, init)).status, 200);
    const again = await fetch(lane, init);
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { code: string }).code, 'replayed-nonce');
    assert.equal(fastLaneStats.taken - taken, 2, 'both went by the fast lane');
    // Through Fastify's route: the same URL with a query the lane leaves alone.
    const routed = `${platformUrl(h, `${robot.basePath}/robot/ask`, '123', t + 1, robot.robotSecret)}&x=%41`;
    assert.equal((await fetch(routed, init)).status, 200);
    const replayed = await fetch(routed, init);
    assert.equal(replayed.status, 401);
    assert.match(((await replayed.json()) as { msg: string }).msg, /already been used/);
    assert.equal(fastLaneStats.taken - taken, 2, 'the routed ones did not');
  });

  test('the same nonce and timestamp on another path is another signature', async () => {
    const t = Date.now();
    const robots = `/v1/openapi/tenants/${robot.tenantId}/robots`;
    assert.equal((await fetch(platformUrl(h, robots, 'same', t))).status, 200);
    const list = platformUrl(h, `${robot.basePath}/kb/rules`, 'same', t, robot.robotSecret);
    assert.equal((await fetch(list)).status, 200);
  });

  test('a signature used before a clean restart stays used; a fixed nonce signs again', async () => {
    const t = Date.now();
    const url = platformUrl(h, `/v1/openapi/tenants/${robot.tenantId}/robots`, 'fixed', t);
    assert.equal((await fetch(url)).status, 200);
    await h.restart();
    const moved = url.replace(/^http:\/\/[^/]+/, h.service.url);
    assert.equal((await fetch(moved)).status, 401);
    const fresh = platformUrl(h, `/v1/openapi/tenants/${robot.tenantId}/robots`, 'fixed', t + 1);
    assert.equal((await fetch(fresh)).status, 200);
  });
});

describe('form-encoded bodies on the routes whose body is one flat object', () => {
  let h: TestService;
  let robot: RobotClient;
  before(async () => {
    ({ h, robot } = await serviceWithRule());
  });
  after(() => h.close());

  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  test('a form-encoded ask is answered, by the fast lane and by the route alike', async () => {
    const taken = fastLaneStats.taken;
    const lane = await fetch(askUrl(robot), { method: 'POST', body: form(ASK) });
    const laneBody = (await lane.json()) as { code: string; data: { answer: string } };
    assert.equal(lane.status, 200, JSON.stringify(laneBody));
    assert.equal(laneBody.data.answer, '七天内可无理由退货。');
    assert.equal(fastLaneStats.taken - taken, 1);
    const url = askUrl(robot);
    const injected = await h.service.inject({
      method: 'POST',
      url: url.slice(url.indexOf('/v1/')),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(ASK).toString(),
    });
    assert.equal(injected.statusCode, 200, injected.body);
    assert.deepEqual(injected.json(), laneBody);
  });

  test('form fields are validated as their JSON form: same codes and messages', async () => {
    const send = async (body: string, contentType: string) => {
      const response = await fetch(askUrl(robot), {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const fields = { userId: 'u1', question: 'x'.repeat(201), channel: 'WEB' };
    const asForm = await send(form(fields).toString(), 'application/x-www-form-urlencoded');
    const asJson = await send(JSON.stringify(fields), 'application/json');
    assert.equal(asForm.status, 400);
    assert.deepEqual(asForm, asJson);
  });

  test('register, add and update administrator read form fields', async () => {
    const registered = await fetch(
      h.client.signedUrl('/v1/openapi/register/init', { signMethod: 1 }),
      { method: 'POST', body: form(tenantRequest({ company: '表单公司 & Co' })) },
    );
    const { data } = (await registered.json()) as { data: { tenantId: number } };
    assert.equal(registered.status, 200);
    const added = await fetch(
      h.client.signedUrl(`/v1/openapi/tenants/${data.tenantId}/users`, { signMethod: 1 }),
      {
        method: 'POST',
        body: form({ username: 'form_user', password: 'pass word+1', role: 'ADMIN' }),
      },
    );
    const user = (await added.json()) as { data: { userId: string; username: string } };
    assert.equal(added.status, 200, JSON.stringify(user));
    assert.equal(user.data.username, 'form_user');
    const updated = await fetch(
      h.client.signedUrl(`/v1/openapi/tenants/${data.tenantId}/users/${user.data.userId}`, {
        signMethod: 1,
      }),
      { method: 'PUT', body: form({ username: '表单用户' }) },
    );
    assert.equal(updated.status, 200);
    assert.equal(
      ((await updated.json()) as { data: { username: string } }).data.username,
      '表单用户',
    );
  });

  test('a field given twice is refused as a non-string, as JSON would refuse an array', async () => {
    const response = await fetch(askUrl(robot), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${form(ASK).toString()}&userId=u2`,
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { code: string; msg: string };
    assert.equal(body.code, 'invalid-field');
    assert.match(body.msg, /^userId must be a string/);
  });

  test('a JSON body labelled as a form (curl -d) is read as JSON', async () => {
    const response = await fetch(askUrl(robot), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify(ASK),
    });
    assert.equal(response.status, 200);
  });

  test('the batch import keeps refusing a form body: malformed-json', async () => {
    const { status, body } = await robot.send('POST', '/kb/rules/full/batch', {
      body: 'ruleName=a&answer=b',
    });
    assert.equal(status, 400);
    assert.equal(body.code, 'malformed-json');
    const response = await fetch(
      robot.client.signedUrl(`${robot.basePath}/kb/rules/full/batch`, {
        signMethod: 2,
        robotSecret: robot.robotSecret,
      }),
      { method: 'POST', body: form({ ruleName: 'a', answer: 'b' }) },
    );
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { code: string }).code, 'malformed-json');
  });
});

describe('CORS on the openapi routes, not on the console API', () => {
  let h: TestService;
  let robot: RobotClient;
  const origin = 'http://shop.example.com:8080';
  before(async () => {
    h = await startTestService();
    ({ robot } = await registerTenantWithRobot(h.client));
  });
  after(() => h.close());

  test('a preflight of ask is answered 204 with the methods and the requested headers', async () => {
    const response = await fetch(`${h.service.url}${robot.basePath}/robot/ask`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-requested-with',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(
      response.headers.get('access-control-allow-headers'),
      'content-type,x-requested-with',
    );
  });

  test('answers of ask (both entrances), other routes and failures carry the header', async () => {
    const headers = { origin, 'content-type': 'application/json' };
    const answers = [
      await fetch(askUrl(robot), { method: 'POST', headers, body: JSON.stringify(ASK) }),
      await fetch(`${askUrl(robot)}&x=%41`, {
        method: 'POST',
        headers,
        body: JSON.stringify(ASK),
      }),
      await fetch(`${h.service.url}${robot.basePath}/robot/ask`, { method: 'POST', headers }),
      await fetch(
        robot.client.signedUrl(`${robot.basePath}/kb/rules`, {
          signMethod: 2,
          robotSecret: robot.robotSecret,
        }),
        { headers },
      ),
      await fetch(`${h.service.url}/v1/openapi/no-such-route`, { headers }),
    ];
    assert.deepEqual(
      answers.map((a) => [a.status, a.headers.get('access-control-allow-origin')]),
      [
        [200, '*'],
        [200, '*'],
        [401, '*'],
        [200, '*'],
        [404, '*'],
      ],
    );
  });

  test('the console API stays same-origin: no CORS headers, no preflight', async () => {
    const answer = await fetch(`${h.service.url}/console/api/workspace`, {
      headers: { origin, authorization: `Bearer ${h.service.consoleToken}` },
    });
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
    const preflight = await fetch(`${h.service.url}/console/api/workspace`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 404);
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS with a list of allowed origins', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ corsOrigins: ['https://allowed.example'] });
  });
  after(() => h.close());

  test('an allowed origin is named back; another gets no header', async () => {
    const { tenantId } = await h.client.registerTenant(tenantRequest());
    const call = (origin: string) =>
      fetch(h.client.signedUrl(`/v1/openapi/tenants/${tenantId}/robots`, { signMethod: 1 }), {
        headers: { origin },
      });
    const allowed = await call('https://allowed.example');
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://allowed.example');
    assert.match(allowed.headers.get('vary') ?? '', /Origin/);
    const other = await call('https://other.example');
    assert.equal(other.status, 200, 'the request is answered; the browser withholds it');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const preflight = await fetch(`${h.service.url}/v1/openapi/register/init`, {
      method: 'OPTIONS',
      headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  });
});
