import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lockoutRemaining } from '../../../electron/service/sign-in/lockout';

const policy = { failureWindowMs: 15 * 60_000, allowed: 5, lockoutBaseMs: 60_000 };
const at = (...seconds: number[]) => seconds.map((s) => s * 1000);

test('fewer failures than allowed: no wait', () => {
  assert.equal(lockoutRemaining([], 0, policy), 0);
  assert.equal(lockoutRemaining(at(1, 2, 3, 4), 5000, policy), 0);
});

test('the allowed number of failures: the base lockout from the last one', () => {
  assert.equal(lockoutRemaining(at(1, 2, 3, 4, 5), 5000, policy), 60_000);
  assert.equal(lockoutRemaining(at(1, 2, 3, 4, 5), 35_000, policy), 30_000);
  assert.equal(lockoutRemaining(at(1, 2, 3, 4, 5), 65_000, policy), 0);
});

test('each further failure doubles the lockout, up to the window', () => {
  assert.equal(lockoutRemaining(at(1, 2, 3, 4, 5, 66), 66_000, policy), 120_000);
  assert.equal(lockoutRemaining(at(1, 2, 3, 4, 5, 66, 190), 190_000, policy), 240_000);
  const many = at(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  assert.equal(lockoutRemaining(many, 12_000, policy), policy.failureWindowMs);
});

test('failures older than the window do not count', () => {
  const old = at(1, 2, 3, 4, 5);
  assert.equal(lockoutRemaining(old, 5000 + policy.failureWindowMs, policy), 0);
  assert.equal(lockoutRemaining([...old, 1000 * 1000], 1000 * 1000, policy), 0);
});
