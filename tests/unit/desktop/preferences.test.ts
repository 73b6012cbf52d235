import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadPreferences, savePreferences } from '../../../electron/desktop/preferences';

describe('preferences', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kbstudio-prefs-'));
    file = join(dir, 'preferences.json');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('round trip of the API port', () => {
    savePreferences(file, { apiPort: 9100 });
    assert.deepEqual(loadPreferences(file), { apiPort: 9100 });
  });

  test('missing, corrupt or invalid values are ignored (the default port is used)', () => {
    rmSync(file, { force: true });
    assert.deepEqual(loadPreferences(file), {});
    for (const text of [
      '{',
      '"8787"',
      '{"apiPort":"8787"}',
      '{"apiPort":0}',
      '{"apiPort":70000}',
    ]) {
      writeFileSync(file, text);
      assert.deepEqual(loadPreferences(file), {}, text);
    }
  });
});
