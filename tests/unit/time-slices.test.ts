import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forEachInSlices, nextTurn } from '../../electron/service/time-slices';

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
