import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  CREDENTIALS_FILE,
  loadCredentials,
  readCredentialsFile,
} from '../../../electron/service/auth/credentials';

function withDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'credentials-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const expected = { customerId: 'c1', adminKey: 'ak', adminSecret: 'as' };

test('new credentials are written with the wire spelling: adminkey, adminsecret', () => {
  withDir((dir) => {
    const made = loadCredentials(dir, null);
    const stored = JSON.parse(readFileSync(join(dir, CREDENTIALS_FILE), 'utf8')) as object;
    assert.deepEqual(stored, {
      customerId: made.customerId,
      adminkey: made.adminKey,
      adminsecret: made.adminSecret,
    });
    assert.deepEqual(readCredentialsFile(dir), made);
  });
});

test('files of either spelling are read', () => {
  for (const file of [
    { customerId: 'c1', adminkey: 'ak', adminsecret: 'as' },
    { customerId: 'c1', adminKey: 'ak', adminSecret: 'as' },
  ]) {
    withDir((dir) => {
      writeFileSync(join(dir, CREDENTIALS_FILE), JSON.stringify(file));
      assert.deepEqual(readCredentialsFile(dir), expected);
      assert.deepEqual(loadCredentials(dir, null), expected, 'kept, not regenerated');
    });
  }
});
