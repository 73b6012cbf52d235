import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, tenantRequest } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('administrators (add and update)', () => {
  let h: TestService;
  let tenantId: number;
  before(async () => {
    h = await startTestService();
    tenantId = (await h.client.registerTenant(tenantRequest({ username: 'Founder' }))).tenantId;
  });
  after(() => h.close());

  const add = (body: unknown, tenant: number | string = tenantId) =>
    h.client.send('POST', `/v1/openapi/tenants/${tenant}/users`, { signMethod: 1, body });
  const update = (userId: string, body: unknown) =>
    h.client.send('PUT', `/v1/openapi/tenants/${tenantId}/users/${userId}`, {
      signMethod: 1,
      body,
    });

  test('add answers userId, username, an empty password and role, with msg null', async () => {
    const { status, body } = await add({
      username: '客服_01',
      password: 'pass-word1',
      role: 'ADMIN',
    });
    assert.equal(status, 200);
    assert.equal(body.code, '0');
    assert.equal(body.msg, null);
    const data = body.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(data).sort(), ['password', 'role', 'userId', 'username']);
    assert.equal(typeof data.userId, 'string');
    assert.equal(data.username, '客服_01');
    assert.equal(data.password, '');
    assert.equal(data.role, 'ADMIN');
  });

  test('a username taken in the tenant, ASCII case aside, is a 409 (the first admin counts)', async () => {
    const { status, body } = await add({
      username: 'FOUNDER',
      password: 'secret123',
      role: 'ADMIN',
    });
    assert.equal(status, 409);
    assert.equal(body.code, 'username-taken');
  });

  test('the same username in another tenant is fine', async () => {
    const other = (await h.client.registerTenant(tenantRequest())).tenantId;
    const { status } = await add(
      { username: 'Founder', password: 'secret123', role: 'ADMIN' },
      other,
    );
    assert.equal(status, 200);
  });

  test('role must be ADMIN', async () => {
    const { status, body } = await add({
      username: 'someone',
      password: 'secret123',
      role: 'OWNER',
    });
    assert.equal(status, 400);
    assert.match(body.msg ?? '', /role must be ADMIN/);
  });

  test('unknown tenants are 404, including ids with leading zeros', async () => {
    for (const tenant of ['999999', `0${tenantId}`, 'abc']) {
      const { status, body } = await add(
        { username: 'nobody', password: 'secret123', role: 'ADMIN' },
        tenant,
      );
      assert.equal(status, 404, tenant);
      assert.equal(body.code, 'tenant-not-found');
    }
  });

  test('update changes only the fields given and never returns the password', async () => {
    const user = await h.client.addUser(tenantId, {
      username: 'editor1',
      password: 'secret123',
      role: 'ADMIN',
    });
    const { status, body } = await update(user.userId, { username: 'editor_一号' });
    assert.equal(status, 200);
    assert.equal(body.msg, null);
    assert.deepEqual(body.data, {
      userId: user.userId,
      username: 'editor_一号',
      password: '',
      role: 'ADMIN',
    });
    const again = await h.client.updateUser(tenantId, user.userId, { password: 'new-secret1' });
    assert.equal(again.username, 'editor_一号');
    assert.equal(again.password, '');
  });

  test('update with none of the fields, or a null, is a 400', async () => {
    const user = await h.client.addUser(tenantId, {
      username: 'editor2',
      password: 'secret123',
      role: 'ADMIN',
    });
    const empty = await update(user.userId, { nickname: 'x' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.code, 'missing-field');
    const nulled = await update(user.userId, { username: null });
    assert.equal(nulled.status, 400);
    assert.equal(nulled.body.code, 'invalid-field');
  });

  test("update to another administrator's username is a 409; keeping one's own is fine", async () => {
    const user = await h.client.addUser(tenantId, {
      username: 'editor3',
      password: 'secret123',
      role: 'ADMIN',
    });
    assert.equal((await update(user.userId, { username: 'founder' })).status, 409);
    assert.equal((await update(user.userId, { username: 'EDITOR3' })).status, 200);
  });

  test('update of an unknown user is a 404', async () => {
    const { status, body } = await update('no-such-user', { role: 'ADMIN' });
    assert.equal(status, 404);
    assert.equal(body.code, 'user-not-found');
  });
});
