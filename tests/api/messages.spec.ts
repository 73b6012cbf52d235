/**
 * The API's messages, tried as a new user would (issue 13): each says what went wrong and what
 * to send instead.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { FailureEnvelope } from '../../electron/service/api-types';
import {
  TEST_CREDENTIALS,
  registerTenantWithRobot,
  startTestService,
  tenantRequest,
} from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('messages of the openapi routes', () => {
  let h: TestService;
  let tenantId: number;
  let robot: RobotClient;
  let userId: string;
  before(async () => {
    h = await startTestService();
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    userId = (
      await h.client.addUser(tenantId, { username: 'ops_01', password: 'secret123', role: 'ADMIN' })
    ).userId;
  });
  after(() => h.close());

  const failure = (body: unknown) => body as FailureEnvelope;

  test('update administrator with {}: at least one of the three fields is needed', async () => {
    const { status, body } = await h.client.send(
      'PUT',
      `/v1/openapi/tenants/${tenantId}/users/${userId}`,
      { signMethod: 1, body: {} },
    );
    assert.equal(status, 400);
    assert.equal(body.code, 'missing-field');
    assert.equal(
      body.msg,
      'At least one of username, password and role is needed: each is optional, but not all of them.',
    );
    assert.deepEqual(failure(body).errors, [{ field: null, code: 'missing-field', msg: body.msg }]);
  });

  test('update administrator with an unknown field only: the same message', async () => {
    const { body } = await h.client.send('PUT', `/v1/openapi/tenants/${tenantId}/users/${userId}`, {
      signMethod: 1,
      body: { nickname: 'x' },
    });
    assert.match(body.msg ?? '', /^At least one of username, password and role/);
  });

  test('page=-1 says what page takes', async () => {
    const { status, body } = await robot.send('GET', '/kb/rules', { query: { page: -1 } });
    assert.equal(status, 400);
    assert.equal(body.code, 'invalid-paging');
    assert.equal(body.msg, 'page must be a whole number (0 or more).');
    const size = await robot.send('GET', '/kb/rules', { query: { pageSize: 0 } });
    assert.equal(size.body.msg, 'pageSize must be a whole number from 1 to 1000.');
  });

  for (const [given, meant] of [
    ['pagesize', 'pageSize'],
    ['PageSize', 'pageSize'],
    ['page_size', 'pageSize'],
    ['limit', 'pageSize'],
    ['Page', 'page'],
    ['pageNo', 'page'],
  ] as const) {
    test(`${given}=5 is not ignored: it names ${meant}`, async () => {
      const { status, body } = await robot.send('GET', '/kb/rules', { query: { [given]: 5 } });
      assert.equal(status, 400);
      assert.equal(body.code, 'invalid-paging');
      assert.match(
        body.msg ?? '',
        new RegExp(`^Unknown query parameter ${given}: did you mean ${meant}\\?`),
      );
    });
  }

  test('other query parameters (a cache buster) are still ignored', async () => {
    const { status } = await robot.send('GET', '/kb/rules', { query: { _: Date.now() } });
    assert.equal(status, 200);
  });

  test('an empty body is malformed-json, saying what the route needs', async () => {
    const cases: [string, string, 1 | 2, RegExp][] = [
      [
        'POST',
        '/v1/openapi/register/init',
        1,
        /send a JSON object with username, password, phoneNumber, mail and company\.$/,
      ],
      ['POST', `/v1/openapi/tenants/${tenantId}/users`, 1, /username, password and role\.$/],
      [
        'PUT',
        `/v1/openapi/tenants/${tenantId}/users/${userId}`,
        1,
        /at least one of username, password and role\.$/,
      ],
      ['POST', `${robot.basePath}/kb/rules/full/batch`, 2, /send a JSON array\.$/],
      [
        'POST',
        `${robot.basePath}/robot/ask`,
        2,
        /send a JSON object with userId, question, channel and questionType\.$/,
      ],
    ];
    for (const [method, path, signMethod, message] of cases) {
      const { status, body } = await h.client.send(method, path, {
        signMethod,
        robotSecret: robot.robotSecret,
        body: '',
      });
      assert.equal(status, 400, path);
      assert.equal(body.code, 'malformed-json', path);
      assert.match(body.msg ?? '', /^The request body is empty: send /);
      assert.match(body.msg ?? '', message);
    }
  });

  test('a JSON null body is the wrong type: invalid-field', async () => {
    const { status, body } = await robot.send('POST', '/robot/ask', { body: 'null' });
    assert.equal(status, 400);
    assert.equal(body.code, 'invalid-field');
    assert.equal(body.msg, 'The request body must be an object.');
  });

  test('every missing or invalid field is reported at once: the first in msg, all in errors', async () => {
    const { status, body } = await h.client.send('POST', '/v1/openapi/register/init', {
      signMethod: 1,
      body: { username: 'a', phoneNumber: '123', company: '' },
    });
    assert.equal(status, 400);
    const { code, msg, data, errors } = failure(body);
    assert.deepEqual(
      errors?.map((e) => [e.field, e.code]),
      [
        ['password', 'missing-field'],
        ['mail', 'missing-field'],
        ['username', 'invalid-field'],
        ['phoneNumber', 'invalid-field'],
        ['company', 'invalid-field'],
      ],
    );
    assert.equal(code, 'missing-field');
    assert.equal(msg, 'password is required. (4 more problems are listed in errors.)');
    assert.equal(data, null);
    assert.equal(errors?.[2]?.msg, 'username must be at least 2 characters long.');
  });

  test('ask: all four fields at once', async () => {
    const { body } = await robot.send('POST', '/robot/ask', {
      body: { question: 'x'.repeat(201), channel: 'WEB' },
    });
    assert.deepEqual(
      failure(body).errors?.map((e) => e.msg),
      [
        'userId is required.',
        'questionType is required.',
        'question must be at most 200 characters long.',
        'channel must be API.',
      ],
    );
  });

  test('a wrong signature says which method the route uses and the path to sign', async () => {
    const wrong = await robot.client.send('GET', `/v1/openapi/tenants/${tenantId}/robots`, {
      signMethod: 1,
      auth: { sign: '0'.repeat(32) },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'bad-signature');
    assert.match(
      wrong.body.msg ?? '',
      /^The signature is wrong\. This route is signed with method 1/,
    );
    assert.match(
      wrong.body.msg ?? '',
      new RegExp(`path as sent, before "\\?": /v1/openapi/tenants/${tenantId}/robots\\.$`),
    );
    // An ask signed without the robot's secret (method 1): the answer says what ask needs.
    const ask = await h.client.send('POST', `${robot.basePath}/robot/ask`, {
      signMethod: 1,
      body: { userId: 'u', question: 'q', channel: 'API', questionType: 'TEXT' },
    });
    assert.equal(ask.body.code, 'bad-signature');
    assert.match(
      ask.body.msg ?? '',
      /method 2, which also needs the secret of robot default \(adminkey, adminsecret, customerId, nonce, robotsecret, timestamp, uri\); ask/,
    );
    assert.doesNotMatch(ask.body.msg ?? '', /hashed/, 'no string to sign unless debugging');
  });

  test('a signature parameter in the wrong case is named', async () => {
    const url = new URL(
      h.client.signedUrl(`/v1/openapi/tenants/${tenantId}/robots`, { signMethod: 1 }),
    );
    const key = url.searchParams.get('adminkey') ?? '';
    url.searchParams.delete('adminkey');
    url.searchParams.set('adminKey', key);
    const response = await fetch(url);
    assert.equal(response.status, 401);
    const body = (await response.json()) as FailureEnvelope;
    assert.equal(body.code, 'missing-auth-param');
    assert.equal(
      body.msg,
      'The query parameter adminkey is required (adminKey was given: parameter names are case-sensitive).',
    );
  });
});

describe('signature debugging (--debug-signatures)', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ debugSignatures: true });
  });
  after(() => h.close());

  test('a wrong signature echoes the exact string to sign, secrets masked', async () => {
    const { robot } = await registerTenantWithRobot(h.client);
    const url = new URL(h.client.signedUrl(`${robot.basePath}/robot/ask`, { signMethod: 1 }));
    const response = await fetch(url, { method: 'POST', body: '{}' });
    const body = (await response.json()) as FailureEnvelope;
    assert.equal(body.code, 'bad-signature');
    const p = url.searchParams;
    const expected = `adminkey:${TEST_CREDENTIALS.adminKey},adminsecret:<adminsecret>,customerId:${TEST_CREDENTIALS.customerId},nonce:${p.get('nonce')},robotsecret:<robotsecret>,timestamp:${p.get('timestamp')},uri:${robot.basePath}/robot/ask`;
    assert.ok(
      body.msg.endsWith(`The service hashed (MD5, secrets masked here): ${expected}`),
      body.msg,
    );
    assert.ok(!body.msg.includes(TEST_CREDENTIALS.adminSecret));
    assert.ok(!body.msg.includes(robot.robotSecret));
  });
});

describe('registering the same tenant twice', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  test('the same username, company and phone number are refused with the first tenant id', async () => {
    const request = tenantRequest({ username: 'Twin_admin' });
    const { tenantId } = await h.client.registerTenant(request);
    const again = await h.client.send('POST', '/v1/openapi/register/init', {
      signMethod: 1,
      body: { ...request, username: 'twin_ADMIN', password: 'another1', mail: 'x@example.com' },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'tenant-exists');
    assert.match(again.body.msg ?? '', new RegExp(`^Tenant ${tenantId} was already registered`));
  });

  test('two identical registrations at once make one tenant', async () => {
    const request = tenantRequest();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        h.client.send('POST', '/v1/openapi/register/init', { signMethod: 1, body: request }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409]);
  });

  test('another username, company or phone number is another tenant', async () => {
    const request = tenantRequest();
    await h.client.registerTenant(request);
    for (const change of [
      { username: 'someone_else' },
      { company: `${request.company} 分公司` },
      { phoneNumber: '13900139000' },
    ]) {
      const { status } = await h.client.send('POST', '/v1/openapi/register/init', {
        signMethod: 1,
        body: { ...request, ...change },
      });
      assert.equal(status, 200, JSON.stringify(change));
    }
  });
});
