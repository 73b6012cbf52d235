import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenApiClient, newNonce } from '../../../electron/client/openapi-client';
import { computeSign } from '../../../electron/service/auth/signature';

const config = {
  baseUrl: 'http://127.0.0.1:1',
  customerId: 'cust-demo',
  adminKey: 'ak-demo',
  adminSecret: 'secret-demo',
};

test('the client (js-md5, browser-safe) signs exactly as the service verifies (node:crypto)', () => {
  const client = new OpenApiClient({ ...config, now: () => 1763800000000 });
  for (const [method, path] of [
    [1, '/v1/openapi/register/init'],
    [2, '/v1/openapi/tenants/12/robots/default/robot/ask'],
  ] as const) {
    const url = new URL(
      client.signedUrl(path, {
        signMethod: method,
        robotSecret: 'robot-secret-demo',
        query: { page: 3 },
      }),
    );
    const q = Object.fromEntries(url.searchParams);
    assert.equal(url.pathname, path);
    assert.equal(q.timestamp, '1763800000000');
    assert.equal(q.page, '3');
    assert.equal(
      q.sign,
      computeSign(method, {
        adminkey: 'ak-demo',
        adminsecret: 'secret-demo',
        customerId: 'cust-demo',
        nonce: q.nonce ?? '',
        timestamp: '1763800000000',
        uri: path,
        robotsecret: 'robot-secret-demo',
      }),
    );
  }
});

test('nonces are well-formed and do not repeat', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    const nonce = newNonce();
    assert.match(nonce, /^[A-Za-z0-9_-]{16}$/);
    seen.add(nonce);
  }
  assert.equal(seen.size, 1000);
});
