// The counts of a test runner's output, for `npm test`'s summary (tests/run-all.mjs).

/** The last number a pattern captures in the output (the runner's own summary), else 0. */
function last(output, re) {
  const all = [...output.matchAll(re)];
  return all.length ? Number(all.at(-1)[1]) : 0;
}

/**
 * Suites skipped as a whole (`describe(name, { skip: reason })`): node's runner prints them
 * `ok N - name # SKIP reason` with `type: 'suite'`, but leaves them out of its `# skipped`
 * count, which is of tests only (their tests are never listed). Each counts as one skip.
 */
const SKIPPED_SUITE =
  /^[ \t]*ok \d+ - [^\n]*# SKIP\b[^\n]*\n[ \t]*---\n(?:[ \t]+\w+:[^\n]*\n)*?[ \t]+type: 'suite'\n/gm;

/**
 * `{ passed, failed, skipped }` of the output of node's test runner (`kind` 'node', TAP) or of
 * Playwright's list reporter ('playwright').
 */
export function countTests(kind, output) {
  if (kind === 'node')
    return {
      passed: last(output, /^# pass (\d+)/gm),
      failed: last(output, /^# fail (\d+)/gm),
      skipped: last(output, /^# skipped (\d+)/gm) + [...output.matchAll(SKIPPED_SUITE)].length,
    };
  return {
    passed: last(output, /^\s*(\d+) passed/gm),
    failed: last(output, /^\s*(\d+) failed/gm),
    skipped: last(output, /^\s*(\d+) skipped/gm),
  };
}
