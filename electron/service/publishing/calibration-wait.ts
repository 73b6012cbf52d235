/**
 * A preview compares two sides' answers; each side's scores read its robot's calibration offset
 * (matching/self-calibration.ts). An index whose self-test has not run yet answers with the
 * previous offset (0 for an index just built), so a preview taken then counts every answer the
 * offset moves as changed: on a 10,000-rule robot previewed 30 s after a start, 19,945 of
 * 100,000 questions "changed" for 5 edited rules, against 14 once the self-test had run.
 * Waiting for the self-tests that matter compares the two sides as they will answer.
 * @module
 */
import type { RobotIndex } from '../matching/types';
import { pause } from '../time-slices';

/** How long a preview or a warm-up waits, at most, for the indexes' self-tests to settle. */
export const CALIBRATION_WAIT_MS = 60_000;
const CALIBRATION_POLL_MS = 250;

/** Whether `index` has a self-test waiting or under way. */
export const calibrating = (index: RobotIndex): boolean => index.calibration?.pending === true;

/**
 * Whether comparing `a` and `b` now could count what their self-tests will change: a side never
 * fitted (an index just built answers with offset 0, whatever its rules call for), or offsets
 * that differ while one of them is being fitted again. A draft whose self-test reruns after an
 * edit, with the published side's offset in force, is compared at once: under traffic a
 * self-test gives way to questions and takes ~40 s at 10,000 rules.
 */
export function calibrationUnsettled(a: RobotIndex, b: RobotIndex): boolean {
  const [x, y] = [a.calibration, b.calibration];
  if (x === undefined || y === undefined || (!x.pending && !y.pending)) return false;
  if ((x.pending && x.probes === 0) || (y.pending && y.probes === 0)) return true;
  return x.offset !== y.offset;
}

/**
 * Resolves once `a` and `b` can be compared as they will answer (`calibrationUnsettled`), or
 * after `waitMs` (the preview then counts with the offsets in force), or as soon as `signal`
 * aborts.
 */
export async function calibrationSettled(
  a: RobotIndex,
  b: RobotIndex,
  signal?: AbortSignal,
  waitMs = CALIBRATION_WAIT_MS,
): Promise<void> {
  const until = performance.now() + waitMs;
  while (calibrationUnsettled(a, b) && performance.now() < until && signal?.aborted !== true) {
    await pause(CALIBRATION_POLL_MS, signal);
  }
}
