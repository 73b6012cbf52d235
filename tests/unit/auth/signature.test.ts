import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalString,
  computeSign,
  constantTimeEqual,
  signaturesMatch,
} from '../../../electron/service/auth/signature';

// The contract's fixed vectors (contract.md, "Signatures").
const base = {
  adminkey: 'ak-demo',
  adminsecret: 'secret-demo',
  customerId: 'cust-demo',
  timestamp: '1763800000000',
};

test('method 1 matches the contract vector', () => {
  assert.equal(
    computeSign(1, { ...base, nonce: 'n0nce-1', uri: '/v1/openapi/register/init' }),
    '0c253e870d1d1b24e7a29c065d733bfe',
  );
});

test('method 2 matches the contract vector', () => {
  assert.equal(
    computeSign(2, {
      ...base,
      nonce: 'n0nce-2',
      robotsecret: 'robot-secret-demo',
      uri: '/v1/openapi/tenants/12/robots/default/robot/ask',
    }),
    'ae3ee4433298acd59600d020bd02c9a9',
  );
});

test('the canonical string has the pairs in the contract order, no spaces', () => {
  assert.equal(
    canonicalString(2, { ...base, nonce: 'n', robotsecret: 'rs', uri: '/u' }),
    'adminkey:ak-demo,adminsecret:secret-demo,customerId:cust-demo,nonce:n,robotsecret:rs,timestamp:1763800000000,uri:/u',
  );
  assert.throws(() => canonicalString(2, { ...base, nonce: 'n', uri: '/u' }), /robot secret/);
});

test('any change of input changes the signature', () => {
  const sign = computeSign(1, { ...base, nonce: 'n', uri: '/v1/openapi/register/init' });
  assert.notEqual(computeSign(1, { ...base, nonce: 'n', uri: '/v1/openapi/register/init/' }), sign);
  assert.notEqual(computeSign(1, { ...base, nonce: 'm', uri: '/v1/openapi/register/init' }), sign);
});

test('signatures compare case-insensitively; secrets exactly', () => {
  assert.ok(
    signaturesMatch('0c253e870d1d1b24e7a29c065d733bfe', '0C253E870D1D1B24E7A29C065D733BFE'),
  );
  assert.ok(
    !signaturesMatch('0c253e870d1d1b24e7a29c065d733bfe', '0c253e870d1d1b24e7a29c065d733bff'),
  );
  assert.ok(!signaturesMatch('0c253e870d1d1b24e7a29c065d733bfe', '0c253e'));
  assert.ok(constantTimeEqual('Key-A', 'Key-A'));
  assert.ok(!constantTimeEqual('Key-A', 'key-a'));
  assert.ok(!constantTimeEqual('Key-A', 'Key-AB'));
});
