import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getEventListeners } from 'node:events';
import { forEachInSlices, nextTurn, pause } from '../../electron/service/time-slices';

test('batch works waiting at once take turns, one slice per turn of the event loop', async () => {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const slices: string[] = [];
  const turns: number[] = [];
  const work = async (name: string) => {
    for (let step = 0; step < 3; step++) {
      slices.push(`${name}${step}`);
      turns.push(turn);
      await nextTurn();
    }
  };
  await Promise.all([work('a'), work('b'), work('c')]);
  ticking = false;
  assert.deepEqual(slices, ['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'b2', 'c2']);
  // a0, b0 and c0 ran at once, before any turn; every later slice in a turn of its own.
  assert.equal(new Set(turns.slice(2)).size, turns.length - 2);
});

test('forEachInSlices visits every item in order', async () => {
  const seen: number[] = [];
  await forEachInSlices(
    Array.from({ length: 50 }, (_, i) => i),
    (item) => seen.push(item),
    0,
  );
  assert.deepEqual(
    seen,
    Array.from({ length: 50 }, (_, i) => i),
  );
});

test('pause leaves no listener on its signal, and ends at once when it aborts', async () => {
  const closing = new AbortController();
  // pause keeps no timer alive: this one keeps the test's process up meanwhile.
  const alive = setInterval(() => undefined, 1000);
  try {
    // A warm-up polls every 500 ms for up to a minute with the service's one closing signal.
    for (let i = 0; i < 20; i++) await pause(1, closing.signal);
    assert.equal(getEventListeners(closing.signal, 'abort').length, 0);
    const waiting = pause(3_600_000, closing.signal);
    closing.abort();
    await waiting;
    assert.equal(getEventListeners(closing.signal, 'abort').length, 0);
  } finally {
    clearInterval(alive);
  }
});
