/** tests/test-counts.mjs */
export function countTests(
  kind: 'node' | 'playwright',
  output: string,
): { passed: number; failed: number; skipped: number };
