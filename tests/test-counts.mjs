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

/** At most this many failures are named in the summary (the rest are counted). */
const NAMED_FAILURES = 20;

/**
 * The failed tests of a runner's output, a line each (name, where, the error's first line), so
 * that the end of a long CI log says what failed: CI keeps only its last lines.
 */
export function failedTests(kind, output) {
  const lines = output.split('\n');
  const failures = [];
  if (kind === 'node') {
    for (let i = 0; i < lines.length; i++) {
      const head = /^([ \t]*)not ok \d+ - (.*)$/.exec(lines[i]);
      if (!head) continue;
      const details = yamlBlock(lines, i + 1, head[1].length);
      // A suite fails with its failed test: name the test, not the suite again.
      if (details.failureType === "'subtestsFailed'") continue;
      const where = details.location ? ` (${unquote(details.location)})` : '';
      const why = details.error ? `: ${unquote(details.error)}` : '';
      failures.push(`${head[2]}${where}${why}`);
    }
  } else {
    for (const line of lines) {
      const failed = /^\s*✘\s+\d+\s+(.*)$/.exec(line);
      if (failed) failures.push(failed[1].trim());
    }
  }
  const named = failures.slice(0, NAMED_FAILURES).map((line) => clip(line, 300));
  if (failures.length > named.length) named.push(`… and ${failures.length - named.length} more`);
  return named;
}

/** The `key: value` lines of the YAML block TAP prints after a test line indented `indent`. */
function yamlBlock(lines, start, indent) {
  const details = {};
  if (!/^\s*---\s*$/.test(lines[start] ?? '')) return details;
  for (let i = start + 1; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]); i++) {
    const field = /^([ \t]*)(\w+): (.*)$/.exec(lines[i]);
    // Only the block's own fields, not those of an error's nested `cause` or stack.
    if (!field || field[1].length !== indent + 2 || field[2] in details) continue;
    let value = field[3].trim();
    // A block scalar (`error: |-`): its first line says enough.
    if (/^[|>][-+]?$/.test(value)) value = (lines.slice(i + 1).find((l) => l.trim()) ?? '').trim();
    details[field[2]] = value;
  }
  return details;
}

function unquote(value) {
  return value.replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
}

function clip(text, most) {
  return text.length > most ? `${text.slice(0, most - 1)}…` : text;
}
