/** tests/test-counts.mjs */
export function countTests(
  kind: 'node' | 'playwright',
  output: string,
): { passed: number; failed: number; skipped: number };

/** The failed tests of a runner's output, a line each: name, where, the error's first line. */
export function failedTests(kind: 'node' | 'playwright', output: string): string[];
