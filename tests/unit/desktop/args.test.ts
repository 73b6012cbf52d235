import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { parseDesktopArgs, resolveDataDir } from '../../../electron/desktop/args';

describe('parseDesktopArgs', () => {
  test('reads --name value and --name=value, ignoring Electron and Chromium arguments', () => {
    const argv = ['.', '--no-sandbox', '--data', 'kb', '--port=9000', '--user-data-dir=/u'];
    assert.deepEqual(parseDesktopArgs(argv), { data: 'kb', port: 9000, userDataDir: '/u' });
    assert.deepEqual(parseDesktopArgs(['dist/main.cjs', '--inspect=9229']), {});
  });

  test('port 0 (a free one) is allowed; anything but 0 to 65535 is refused', () => {
    assert.equal(parseDesktopArgs(['--port', '0']).port, 0);
    for (const bad of ['-1', '65536', '80.5', 'http', ' 80'])
      assert.throws(() => parseDesktopArgs([`--port=${bad}`]), /--port must be 0 to 65535/);
  });

  test('an option without its value is refused', () => {
    assert.throws(() => parseDesktopArgs(['--data']), /--data needs a value/);
    assert.throws(() => parseDesktopArgs(['--data=']), /--data needs a value/);
  });
});

describe('resolveDataDir', () => {
  const base = { userDataPath: '/home/ann/.config/KB Studio', cwd: '/work' };

  test('--data wins, relative to the working directory', () => {
    const env = { KB_DATA_DIR: '/env/kb' };
    assert.deepEqual(resolveDataDir({ ...base, env, flag: 'kb' }), {
      dir: resolve('/work', 'kb'),
      source: 'flag',
    });
    assert.equal(resolveDataDir({ ...base, env, flag: '/abs/kb' }).dir, '/abs/kb');
  });

  test('then KB_DATA_DIR (blank counts as unset)', () => {
    assert.deepEqual(resolveDataDir({ ...base, env: { KB_DATA_DIR: '/env/kb' } }), {
      dir: '/env/kb',
      source: 'env',
    });
    assert.equal(resolveDataDir({ ...base, env: { KB_DATA_DIR: '  ' } }).source, 'default');
  });

  test('by default, "data" in the userData folder', () => {
    assert.deepEqual(resolveDataDir({ ...base, env: {} }), {
      dir: join(base.userDataPath, 'data'),
      source: 'default',
    });
  });
});
