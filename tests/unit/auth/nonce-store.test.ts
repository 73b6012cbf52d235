import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NonceStore } from '../../../electron/service/auth/nonce-store';

const WINDOW = 300_000;
const t0 = 1_763_800_000_000;

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'nonces-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a signature is used once while its timestamp is in the window, and forgotten after', () => {
  const used = new NonceStore(WINDOW);
  assert.equal(used.use('sig-1', t0, t0), true);
  assert.equal(used.use('sig-1', t0, t0 + 1000), false);
  assert.equal(used.use('sig-1', t0, t0 + WINDOW), false);
  assert.equal(used.use('sig-2', t0, t0 + 1000), true);
  // Past the window of its timestamp it could not be accepted anyway: its memory is dropped.
  assert.equal(used.use('sig-1', t0, t0 + WINDOW + 2 * 60_000), true);
});

test('signatures timestamped ahead of the clock are remembered until their own window ends', () => {
  const used = new NonceStore(WINDOW);
  const ahead = t0 + 250_000;
  assert.equal(used.use('sig', ahead, t0), true);
  assert.equal(used.use('sig', ahead, t0 + 500_000), false);
});

test('saved signatures are restored once, and the file speaks only for the run that wrote it', () => {
  withDir((dir) => {
    const path = join(dir, 'nonces.json');
    const first = new NonceStore(WINDOW);
    first.use('used', t0, t0);
    first.save(path, t0 + 1000);
    const second = new NonceStore(WINDOW);
    assert.equal(second.restore(path, t0 + 2000), true);
    assert.equal(second.notBefore, 0);
    assert.equal(second.use('used', t0, t0 + 3000), false);
    assert.equal(second.use('other', t0, t0 + 3000), true);
    assert.equal(new NonceStore(WINDOW).restore(path, t0), false);
  });
});

test('a version-1 file (used nonces) refuses requests signed before that stop', () => {
  withDir((dir) => {
    const path = join(dir, 'nonces.json');
    const savedAt = t0 + 1000;
    writeFileSync(path, JSON.stringify({ savedAt, entries: [[29396666, ['ak\nn1']]] }));
    const store = new NonceStore(WINDOW);
    assert.equal(store.restore(path, t0 + 5000), true);
    assert.equal(store.notBefore, savedAt);
  });
});

test('an unreadable file refuses requests signed before the start', () => {
  withDir((dir) => {
    const path = join(dir, 'nonces.json');
    writeFileSync(path, '{"version":2,"entr');
    const store = new NonceStore(WINDOW);
    assert.equal(store.restore(path, t0), false);
    assert.equal(store.notBefore, t0);
  });
});
