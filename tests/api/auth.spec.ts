import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import {
  TEST_CREDENTIALS,
  registerTenantWithRobot,
  ruleInput,
  startTestService,
  tenantRequest,
} from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('signatures, refusals and their order', () => {
  let h: TestService;
  let tenantId: number;
  let robot: RobotClient;
  let other: { tenantId: number; robot: RobotClient };
  let ruleId: string;
  before(async () => {
    h = await startTestService();
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    other = await registerTenantWithRobot(h.client);
    ruleId =
      (await robot.importRules([ruleInput('私有规则', ['只属于甲'])])).succeed[0]?.ruleId ?? '';
  });
  after(() => h.close());

  const clientWith = (overrides: Partial<ConstructorParameters<typeof OpenApiClient>[0]>) =>
    new OpenApiClient({ baseUrl: h.service.url, ...TEST_CREDENTIALS, ...overrides });

  for (const param of ['adminkey', 'customerId', 'nonce', 'timestamp', 'sign']) {
    test(`a missing ${param} is a 401`, async () => {
      const url = new URL(h.client.signedUrl('/v1/openapi/register/init', { signMethod: 1 }));
      url.searchParams.delete(param);
      const response = await fetch(url, { method: 'POST', body: JSON.stringify(tenantRequest()) });
      assert.equal(response.status, 401);
      const body = (await response.json()) as { code: string; msg: string; data: null };
      assert.equal(body.code, 'missing-auth-param');
      assert.match(body.msg, new RegExp(param));
      assert.equal(body.data, null);
    });
  }

  const refusals: [string, () => Promise<{ status: number; body: { code: string } }>, string][] = [
    [
      'an unknown adminkey',
      () =>
        clientWith({ adminKey: 'nope' }).send('GET', `/v1/openapi/tenants/${tenantId}/robots`, {
          signMethod: 1,
        }),
      'unknown-adminkey',
    ],
    [
      'a customerId of no one',
      () =>
        clientWith({ customerId: 'other' }).send('GET', `/v1/openapi/tenants/${tenantId}/robots`, {
          signMethod: 1,
        }),
      'customer-mismatch',
    ],
    [
      'a wrong adminsecret',
      () =>
        clientWith({ adminSecret: 'wrong' }).send('GET', `/v1/openapi/tenants/${tenantId}/robots`, {
          signMethod: 1,
        }),
      'bad-signature',
    ],
    [
      'a timestamp 301 s old',
      () =>
        clientWith({ now: () => Date.now() - 301_000 }).send(
          'GET',
          `/v1/openapi/tenants/${tenantId}/robots`,
          { signMethod: 1 },
        ),
      'stale-timestamp',
    ],
    [
      'a timestamp 301 s ahead',
      () =>
        clientWith({ now: () => Date.now() + 301_000 }).send(
          'GET',
          `/v1/openapi/tenants/${tenantId}/robots`,
          { signMethod: 1 },
        ),
      'stale-timestamp',
    ],
    [
      'a timestamp in seconds',
      () =>
        h.client.send('GET', `/v1/openapi/tenants/${tenantId}/robots`, {
          signMethod: 1,
          auth: { timestamp: String(Math.floor(Date.now() / 1000)) },
        }),
      'malformed-auth-param',
    ],
    [
      'a nonce with a space',
      () =>
        h.client.send('GET', `/v1/openapi/tenants/${tenantId}/robots`, {
          signMethod: 1,
          auth: { nonce: 'a b' },
        }),
      'malformed-auth-param',
    ],
    [
      'a method-1 signature on a method-2 route',
      () => h.client.send('GET', `${robot.basePath}/kb/rules`, { signMethod: 1 }),
      'bad-signature',
    ],
    [
      "another robot's secret",
      () => h.client.robot(tenantId, 'default', other.robot.robotSecret).send('GET', '/kb/rules'),
      'bad-signature',
    ],
  ];
  for (const [what, send, code] of refusals) {
    test(`${what} is a 401 ${code}`, async () => {
      const { status, body } = await send();
      assert.equal(status, 401);
      assert.equal(body.code, code);
    });
  }

  test('a timestamp 299 s old is accepted', async () => {
    const { status } = await clientWith({ now: () => Date.now() - 299_000 }).send(
      'GET',
      `/v1/openapi/tenants/${tenantId}/robots`,
      { signMethod: 1 },
    );
    assert.equal(status, 200);
  });

  test('the signature compares case-insensitively', async () => {
    const url = new URL(
      h.client.signedUrl(`/v1/openapi/tenants/${tenantId}/robots`, { signMethod: 1 }),
    );
    url.searchParams.set('sign', (url.searchParams.get('sign') ?? '').toUpperCase());
    assert.equal((await fetch(url)).status, 200);
  });

  test('a replayed request is refused, even when the first one failed validation', async () => {
    const url = h.client.signedUrl('/v1/openapi/register/init', { signMethod: 1 });
    const first = await fetch(url, { method: 'POST', body: JSON.stringify({ username: 'x' }) });
    assert.equal(first.status, 400);
    const replay = await fetch(url, { method: 'POST', body: JSON.stringify(tenantRequest()) });
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as { code: string }).code, 'replayed-nonce');
  });

  test("tenants are isolated: one tenant's rule is not found through another's robot", async () => {
    const { status, body } = await other.robot.send('GET', `/kb/rules/${ruleId}`);
    assert.equal(status, 404);
    assert.equal(body.code, 'rule-not-found');
    assert.equal((await other.robot.listRules()).totalCount, 0);
  });

  test('method 2: an unknown robot or tenant is a 404 before the signature is checked', async () => {
    const ghost = h.client.robot(tenantId, 'ghost', 'any secret');
    const robotMissing = await ghost.send('GET', '/kb/rules');
    assert.equal(robotMissing.status, 404);
    assert.equal(robotMissing.body.code, 'robot-not-found');
    const tenantMissing = await h.client.robot(987654, 'default', 'x').send('GET', '/kb/rules');
    assert.equal(tenantMissing.status, 404);
    assert.equal(tenantMissing.body.code, 'tenant-not-found');
  });

  test('method 2: bad signature parameters are a 401 before an unknown robot is a 404', async () => {
    const { status } = await h.client
      .robot(tenantId, 'ghost', 'x')
      .send('GET', '/kb/rules', { auth: { nonce: '!' } });
    assert.equal(status, 401);
  });

  test('the signature is checked before the body: malformed JSON with a bad signature is a 401', async () => {
    const { status } = await clientWith({ adminSecret: 'wrong' }).send(
      'POST',
      '/v1/openapi/register/init',
      { signMethod: 1, body: '{oops' },
    );
    assert.equal(status, 401);
  });

  test('an unknown route is a 404 with the failure envelope', async () => {
    const response = await fetch(`${h.service.url}/v1/openapi/nothing-here`);
    assert.equal(response.status, 404);
    assert.deepEqual(Object.keys((await response.json()) as object).sort(), [
      'code',
      'data',
      'msg',
    ]);
  });

  test('a body over 10 MiB is a 413, before authentication, and nothing is imported', async () => {
    const big = JSON.stringify([ruleInput('big', ['q'], 'x'.repeat(10 * 1024 * 1024))]);
    const signed = await robot.send('POST', '/kb/rules/full/batch', { body: big });
    assert.equal(signed.status, 413);
    assert.equal(signed.body.code, 'body-too-large');
    const unsigned = await fetch(`${h.service.url}${robot.basePath}/kb/rules/full/batch`, {
      method: 'POST',
      body: big,
    });
    assert.equal(unsigned.status, 413);
    assert.equal(
      (await robot.listRules()).list.some((r) => r.ruleName === 'big'),
      false,
    );
  });

  // In ASCII: 1000 rules at every limit of Han text (3 bytes each in UTF-8) are 12.6 MB, over the
  // contract's 10 MiB; docs/api.md says so.
  test('the largest legal batch (1000 rules at every limit, ASCII) fits under the body limit', async () => {
    const fresh = (await registerTenantWithRobot(h.client)).robot;
    const rules = Array.from({ length: 1000 }, (_, i) =>
      ruleInput(
        `${i}`.padEnd(200, 'n'),
        Array.from({ length: 10 }, (_, q) => `${q}`.padEnd(200, 'q')),
        'a'.repeat(2000),
      ),
    );
    const { status, body } = await fresh.send('POST', '/kb/rules/full/batch', { body: rules });
    assert.equal(status, 200, body.msg ?? '');
  });
});
