import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, tenantRequest } from '../helpers/service';
import type { TestService } from '../helpers/service';

const REGISTER = '/v1/openapi/register/init';

describe('create tenant (POST /v1/openapi/register/init)', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  const post = (body: unknown) => h.client.send('POST', REGISTER, { signMethod: 1, body });

  test('answers the success envelope with an integer tenantId', async () => {
    const { status, body } = await post(tenantRequest());
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'data', 'msg']);
    assert.equal(body.code, '0');
    assert.equal(body.msg, 'success');
    const data = body.data as { tenantId: unknown };
    assert.deepEqual(Object.keys(data), ['tenantId']);
    assert.ok(Number.isInteger(data.tenantId) && (data.tenantId as number) > 0);
  });

  test('gives each tenant its own id and a default robot', async () => {
    const a = await h.client.registerTenant(tenantRequest());
    const b = await h.client.registerTenant(tenantRequest());
    assert.notEqual(a.tenantId, b.tenantId);
    const robots = await h.client.listRobots(b.tenantId);
    assert.deepEqual(
      robots.map((r) => r.robotId),
      ['default'],
    );
    assert.ok(robots[0] && robots[0].robotSecret.length >= 32);
  });

  const accepted: [string, Record<string, unknown>][] = [
    ['a 2-character username', { username: 'ab' }],
    ['a 15-character username', { username: 'a'.repeat(15) }],
    ['a 15-Han-character username', { username: '汉'.repeat(15) }],
    ['a 6-character password', { password: '123456' }],
    ['a 15-character password', { password: 'p'.repeat(15) }],
    ['an E.164 phone number', { phoneNumber: '+8613800138000' }],
    ['a 50-character company', { company: '公'.repeat(50) }],
  ];
  for (const [what, overrides] of accepted) {
    test(`accepts ${what}`, async () => {
      const { status, body } = await post(tenantRequest(overrides));
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.code, '0');
    });
  }

  const refused: [string, Record<string, unknown>, string, RegExp][] = [
    ['a 1-character username', { username: 'a' }, 'invalid-field', /username must be at least 2/],
    [
      'a 16-character username',
      { username: 'a'.repeat(16) },
      'invalid-field',
      /username must be at most 15/,
    ],
    [
      'a 16-Han-character username',
      { username: '汉'.repeat(16) },
      'invalid-field',
      /username must be at most 15/,
    ],
    [
      'a username with a hyphen',
      { username: 'ab-cd' },
      'invalid-field',
      /username may contain only/,
    ],
    [
      'a 5-character password',
      { password: '12345' },
      'invalid-field',
      /password must be at least 6/,
    ],
    [
      'a 16-character password',
      { password: 'p'.repeat(16) },
      'invalid-field',
      /password must be at most 15/,
    ],
    ['a blank password', { password: '       ' }, 'invalid-field', /password must not be blank/],
    ['a landline number', { phoneNumber: '02012345678' }, 'invalid-field', /phoneNumber must be/],
    [
      'a malformed mail',
      { mail: 'admin@localhost' },
      'invalid-field',
      /mail must be a valid e-mail/,
    ],
    [
      'a 51-character company',
      { company: 'c'.repeat(51) },
      'invalid-field',
      /company must be at most 50/,
    ],
    ['a missing mail', { mail: undefined }, 'missing-field', /mail is required/],
    ['a number as username', { username: 12345 }, 'invalid-field', /username must be a string/],
  ];
  for (const [what, overrides, code, message] of refused) {
    test(`refuses ${what} with 400 ${code}`, async () => {
      const { status, body } = await post(tenantRequest(overrides));
      assert.equal(status, 400);
      assert.equal(body.code, code);
      assert.match(body.msg ?? '', message);
      assert.equal(body.data, null);
    });
  }

  test('refuses malformed JSON with 400 and creates nothing', async () => {
    const before = await h.client.registerTenant(tenantRequest());
    const { status, body } = await post('{"username": "abc",');
    assert.equal(status, 400);
    assert.equal(body.code, 'malformed-json');
    const afterward = await h.client.registerTenant(tenantRequest());
    assert.equal(afterward.tenantId, before.tenantId + 1);
  });

  test('a signed request with the wrong HTTP method is an unknown route (404)', async () => {
    const { status, body } = await h.client.send('GET', REGISTER, { signMethod: 1 });
    assert.equal(status, 404);
    assert.equal(body.code, 'route-not-found');
  });
});
