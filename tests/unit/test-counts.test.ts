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
import { countTests, failedTests } from '../test-counts.mjs';

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

test('the failed tests are named with where they are and why, each once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kbstudio-failures-'));
  try {
    writeFileSync(
      join(dir, 'c.test.mjs'),
      `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
test('passes', () => {});
test('fails', () => { throw new Error('no'); });
describe('outer', () => { test('inner fails', () => { assert.equal(1, 2); }); test('ok', () => {}); });`,
    );
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'c.test.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      env,
    });
    const where = join(dir, 'c.test.mjs');
    assert.deepEqual(failedTests('node', run.stdout), [
      `fails (${where}:4:1): no`,
      `inner fails (${where}:5:27): Expected values to be strictly equal:`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Playwright's failed tests", () => {
  const output = [
    '  ✓  1 tests/e2e/a.spec.ts:3:5 › en › works (1.0s)',
    '  ✘  2 tests/e2e/a.spec.ts:9:5 › zh-CN › breaks (2.0s)',
    '  1 failed',
  ].join('\n');
  assert.deepEqual(failedTests('playwright', output), [
    'tests/e2e/a.spec.ts:9:5 › zh-CN › breaks (2.0s)',
  ]);
});
