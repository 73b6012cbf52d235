/**
 * `npm test`'s summary counts what the runners report, suites skipped as a whole included: on
 * PostgreSQL four suites print `# SKIP` (embedded files only) while node's own `# skipped` count,
 * of tests only, says 0.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { countTests } from '../test-counts.mjs';

const FILES = {
  'a.test.mjs': `import { describe, test } from 'node:test';
describe('embedded only', { skip: 'not on PostgreSQL' }, () => { test('x', () => {}); test('y', () => {}); });
describe('outer', () => {
  describe('inner', { skip: 'no tmpfs here' }, () => { test('z', () => {}); });
  test('runs', () => {});
});
test('skipped test', { skip: 'why' }, () => {});`,
  'b.test.mjs': `import { test } from 'node:test';
test('passes', () => {});
test('fails', () => { throw new Error('no'); });`,
};

test("a suite skipped as a whole counts as a skip, beside the runner's own counts", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kbstudio-counts-'));
  try {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
    // Without the variable the runner sets for its own children (they would report to it).
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(
      process.execPath,
      ['--test', '--test-reporter=tap', 'a.test.mjs', 'b.test.mjs'],
      { cwd: dir, encoding: 'utf8', env },
    );
    const output = run.stdout;
    assert.match(output, /^# skipped 1$/m, 'node counts the skipped test only');
    assert.deepEqual(countTests('node', output), { passed: 2, failed: 1, skipped: 3 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Playwright's list reporter", () => {
  const output = '\n  2 skipped\n  40 passed (3.1m)\n';
  assert.deepEqual(countTests('playwright', output), { passed: 40, failed: 0, skipped: 2 });
});
