/**
 * What an attempt counts against and whether it may go on (sign-in/attempt-plan.ts), before any
 * password is hashed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  accountSubject,
  addressSubject,
  pairSubject,
  planAttempt,
} from '../../../electron/service/sign-in/attempt-plan';
import { DEFAULT_SIGN_IN_POLICY } from '../../../electron/service/sign-in/policy';

const now = 1_000_000_000;
const policy = DEFAULT_SIGN_IN_POLICY;
const times = (count: number) => Array.from({ length: count }, (_, i) => now - 60_000 + i);
const A = '203.0.113.1';

test('a fresh attempt goes on and records against the address, each account and each pair', () => {
  const plan = planAttempt(new Map(), A, [{ account: '1/u', known: false }], policy, now);
  assert.deepEqual(plan, {
    status: 'go',
    tried: [{ account: '1/u', known: false }],
    record: [addressSubject(A), accountSubject('1/u'), pairSubject(A, '1/u')],
  });
});

test('an account over its limit is left out, unless the address is one it signed in from', () => {
  const failures = new Map([[accountSubject('1/u'), times(policy.failuresPerAccount)]]);
  const candidates = [
    { account: '1/u', known: false },
    { account: '2/u', known: false },
  ];
  const plan = planAttempt(failures, A, candidates, policy, now);
  assert.equal(plan.status, 'go');
  assert.deepEqual(plan.status === 'go' && plan.tried.map((c) => c.account), ['2/u']);
  const alone = planAttempt(failures, A, [{ account: '1/u', known: false }], policy, now);
  assert.equal(alone.status, 'wait');
  const known = planAttempt(failures, A, [{ account: '1/u', known: true }], policy, now);
  assert.equal(known.status, 'go', 'the account limit spares its known addresses');
});

test('the pair and the address wait whatever the account knows', () => {
  const pair = new Map([[pairSubject(A, '1/u'), times(policy.failuresPerPair)]]);
  assert.equal(planAttempt(pair, A, [{ account: '1/u', known: true }], policy, now).status, 'wait');
  const address = new Map([[addressSubject(A), times(policy.failuresPerAddress)]]);
  const plan = planAttempt(address, A, [{ account: '1/u', known: true }], policy, now);
  // A minute after the last failure (one minute less 19 ms ago): 19 ms to go.
  assert.deepEqual(plan, { status: 'wait', waitMs: 19 });
});
