import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RankedTop } from '../../../electron/service/store/embedded/question-log/ranked-top';
import { prng } from '../../helpers/prng';

/** Counts by key, ranked most first then by key, as a full sort reads them. */
function ranking(counts: ReadonlyMap<string, number>, limit: number): string[] {
  return [...counts]
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([key]) => key);
}

function ranked(
  counts: Map<string, number>,
  capacity: number,
  changesMax?: number,
  onWalk = () => undefined,
) {
  return new RankedTop<number>(
    {
      valueOf: (key) => {
        const count = counts.get(key) ?? 0;
        return count > 0 ? count : undefined;
      },
      order: (a, b) => b.value - a.value || (a.key < b.key ? -1 : 1),
      keys: () => {
        onWalk();
        return counts.keys();
      },
    },
    capacity,
    changesMax,
  );
}

test('the kept ranking equals a full sort after every kind of change, read between them', async () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const random = prng(seed);
    const counts = new Map<string, number>();
    const top = ranked(counts, 8, 40);
    for (let step = 0; step < 3000; step++) {
      const key = `k${Math.floor(random() ** 2 * 60)}`;
      const roll = random();
      // Mostly growth (asks), some decreases (a day pruned, an entry taken back), some deletes.
      const by = roll < 0.8 ? 1 : roll < 0.95 ? -Math.ceil(random() * 3) : -Infinity;
      const count = Math.max(0, (counts.get(key) ?? 0) + by);
      if (count > 0) counts.set(key, count);
      else counts.delete(key);
      top.touch(key);
      if (random() < 0.1) {
        const limit = 1 + Math.floor(random() * 12);
        const read = (await top.top(limit)).map((item) => item.key);
        assert.deepEqual(read, ranking(counts, limit), `seed ${seed}, step ${step}`);
      }
    }
  }
});

test('a read walks every key only when what it knows exactly falls short', async () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 100; i++) counts.set(`k${String(i).padStart(3, '0')}`, 100 - i);
  let walked = 0;
  const top = ranked(counts, 10, undefined, () => {
    walked += 1;
  });
  assert.deepEqual(
    (await top.top(3)).map((item) => item.key),
    ['k000', 'k001', 'k002'],
  );
  assert.equal(walked, 1, 'the first read walks');
  counts.set('k050', 1000);
  top.touch('k050');
  assert.equal((await top.top(3))[0]?.key, 'k050', 'a key that rose is placed');
  assert.equal(walked, 1, 'without walking');
  for (let i = 0; i < 9; i++) {
    const key = (await top.top(1))[0]?.key ?? '';
    counts.delete(key);
    top.touch(key);
  }
  await top.top(1);
  assert.equal(walked, 1, 'decreases within what is known: no walk');
  counts.delete((await top.top(1))[0]?.key ?? '');
  top.touch('k008');
  assert.deepEqual(
    (await top.top(2)).map((item) => item.key),
    ranking(counts, 2),
  );
  assert.equal(walked, 2, 'known exactly below the page: walks again');
});
