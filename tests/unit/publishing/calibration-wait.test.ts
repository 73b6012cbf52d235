/**
 * When an impact preview waits for the self-tests (decision 206): a side never fitted, or
 * offsets that differ while one is fitted again; not a draft refitting after an edit with the
 * published side's offset in force. Real indexes of the matcher.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchableRule, RobotIndex } from '../../../electron/service/matching/types';
import {
  calibrationSettled,
  calibrationUnsettled,
} from '../../../electron/service/publishing/calibration-wait';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet'.split(' ');
/** Rules sharing a phrasing with the next: their self-test lowers the scores (offset -4). */
const rules: MatchableRule[] = WORDS.map((word, i) => ({
  ruleId: `r${i}`,
  ruleName: `Price ${i}`,
  questions: [
    `what is the price of ${word} today`,
    `what is the price of ${WORDS[(i + 1) % WORDS.length] as string} today`,
  ],
  active: true,
  effectBeginMs: null,
  effectEndMs: null,
}));

function built(): RobotIndex {
  const index = createRobotIndex();
  for (const rule of rules) index.upsert(rule);
  return index;
}

test('a side never fitted is waited for, a draft refitting with the same offset is not', async () => {
  const published = built();
  published.selfCalibrate?.(Date.now());
  assert.equal(published.calibration?.offset, -4);
  const version = built();
  assert.deepEqual(
    [version.calibration?.pending, version.calibration?.probes, version.calibration?.offset],
    [true, 0, 0],
  );
  assert.equal(calibrationUnsettled(version, published), true);
  assert.equal(calibrationUnsettled(published, version), true);
  version.selfCalibrate?.(Date.now());
  assert.equal(calibrationUnsettled(version, published), false);

  // An edit: the draft's self-test reruns, the offset fitted before still in force and equal.
  const draft = built();
  draft.selfCalibrate?.(Date.now());
  draft.upsert({ ...(rules[0] as MatchableRule), questions: ['what is the price of alpha'] });
  assert.equal(draft.calibration?.pending, true);
  assert.equal(calibrationUnsettled(published, draft), false);
  for (const index of [published, version, draft]) index.close?.();
});

test('the wait ends by the self-test, by its bound, or by the signal', async () => {
  // The self-test's timers and the wait's keep no process alive: this interval does meanwhile.
  const alive = setInterval(() => undefined, 1000);
  try {
    const published = built();
    published.selfCalibrate?.(Date.now());
    // The scheduler runs the new index's self-test a second after its last write.
    const version = built();
    await calibrationSettled(version, published);
    assert.equal(calibrationUnsettled(version, published), false);
    assert.equal(version.calibration?.offset, -4);

    // Its self-test starts a second after the last write: the wait ends at its bound first.
    const fresh = built();
    await calibrationSettled(fresh, published, undefined, 50);
    assert.equal(calibrationUnsettled(fresh, published), true);
    const stop = new AbortController();
    stop.abort();
    await calibrationSettled(fresh, published, stop.signal);
    assert.equal(calibrationUnsettled(fresh, published), true);
    for (const index of [published, version, fresh]) index.close?.();
  } finally {
    clearInterval(alive);
  }
});
