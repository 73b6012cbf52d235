import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NonceStore } from '../../../electron/service/auth/nonce-store';

const TEN_MINUTES = 600_000;

test('a nonce is used once within its memory, and free again after it', () => {
  const nonces = new NonceStore(TEN_MINUTES);
  const t0 = 1_763_800_000_000;
  assert.equal(nonces.use('k\nn1', t0), true);
  assert.equal(nonces.use('k\nn1', t0 + 1000), false);
  assert.equal(nonces.use('k\nn1', t0 + TEN_MINUTES - 1000), false);
  assert.equal(nonces.use('k\nn2', t0 + 1000), true);
  assert.equal(nonces.use('k\nn1', t0 + TEN_MINUTES + 2 * 60_000), true);
});

test('saved nonces are restored once, and the file speaks only for the run that wrote it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nonces-'));
  try {
    const path = join(dir, 'nonces.json');
    const t0 = 1_763_800_000_000;
    const first = new NonceStore(TEN_MINUTES);
    first.use('k\nused', t0);
    first.save(path, t0 + 1000);
    const second = new NonceStore(TEN_MINUTES);
    assert.equal(second.restore(path, t0 + 2000), true);
    assert.equal(second.use('k\nused', t0 + 3000), false);
    assert.equal(new NonceStore(TEN_MINUTES).restore(path, t0), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
