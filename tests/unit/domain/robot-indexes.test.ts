/**
 * The indexes loaded on demand (domain/robot-indexes.ts): one load for asks at once, writes that
 * land during a load kept and applied, the least recently asked let go within the budget, never
 * one a request holds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RobotIndexes, bytesForRules } from '../../../electron/service/domain/robot-indexes';
import type { IndexLoader } from '../../../electron/service/domain/robot-indexes';
import { createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchableRule } from '../../../electron/service/matching/types';

const rule = (ruleId: string, question = ruleId): MatchableRule => ({
  ruleId,
  ruleName: ruleId,
  questions: [question],
  active: true,
  effectBeginMs: null,
  effectEndMs: null,
});

/** A loader whose loads finish when the test says, each with the rules the "store" has then. */
function gatedLoader(store: Map<string, MatchableRule[]>) {
  const gates: (() => void)[] = [];
  let loads = 0;
  const loader: IndexLoader = {
    async load(key) {
      loads++;
      const rules = [...(store.get(key) ?? [])];
      await new Promise<void>((resolve) => gates.push(resolve));
      const index = createRobotIndex();
      for (const r of rules) index.upsert(r);
      return index;
    },
  };
  return { loader, open: () => gates.splice(0).forEach((go) => go()), loads: () => loads };
}

/** Acquires `key`, letting its gated load finish. */
async function acquireOpened(
  indexes: RobotIndexes,
  gated: ReturnType<typeof gatedLoader>,
  key: string,
) {
  const lease = indexes.acquire(key);
  await new Promise((resolve) => setImmediate(resolve));
  gated.open();
  return lease;
}

test('two asks at once load once; a write during the load is applied to what it loaded', async () => {
  const store = new Map([['1/a', [rule('r1', 'hello there')]]]);
  const gated = gatedLoader(store);
  const indexes = new RobotIndexes(createRobotIndex, { budgetBytes: 1e9, loader: gated.loader });
  const first = indexes.acquire('1/a');
  const second = indexes.acquire('1/a');
  await new Promise((resolve) => setImmediate(resolve));
  // Committed after the load read the store: only the update carries it.
  indexes.update('1/a', (index) => index.upsert(rule('r2', 'good morning')));
  gated.open();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(gated.loads(), 1);
  assert.equal(a?.index, b?.index);
  assert.equal(a?.index.size, 2);
  a?.release();
  b?.release();
});

test('a robot not in memory takes no update; the least recently asked is let go, never a held one', async () => {
  const store = new Map([
    ['1/a', [rule('a1')]],
    ['1/b', [rule('b1')]],
    ['1/c', [rule('c1')]],
  ]);
  const gated = gatedLoader(store);
  const budget = Math.floor(bytesForRules(1) * 2.5);
  const indexes = new RobotIndexes(createRobotIndex, { budgetBytes: budget, loader: gated.loader });
  const take = (key: string) => acquireOpened(indexes, gated, key);
  const a = await take('1/a');
  (await take('1/b'))?.release();
  const c = await take('1/c');
  // a is held: b goes though it was asked later.
  assert.ok(indexes.peek('1/a'));
  assert.equal(indexes.peek('1/b'), undefined);
  assert.ok(indexes.peek('1/c'));
  indexes.update('1/b', () => assert.fail('no index of b to update'));
  a?.release();
  c?.release();
  // b stays counted until V8 collects it (decision 185): a may go as well, never c, asked last.
  assert.ok(indexes.peek('1/c'));
  assert.ok(indexes.status().evictions >= 1);
  assert.ok(indexes.status().bytes <= budget);
});

test('a robot dropped during its load (deleted) keeps nothing', async () => {
  const gated = gatedLoader(new Map([['1/a', [rule('a1')]]]));
  const indexes = new RobotIndexes(createRobotIndex, { budgetBytes: 1e9, loader: gated.loader });
  const lease = indexes.acquire('1/a');
  await new Promise((resolve) => setImmediate(resolve));
  indexes.drop('1/a');
  gated.open();
  assert.equal(await lease, null);
  assert.equal(indexes.peek('1/a'), undefined);
});

test('an index let go of or dropped stops its self-test (its timer would keep it in memory)', async () => {
  const gated = gatedLoader(
    new Map([
      ['1/a', [rule('a1')]],
      ['1/b', [rule('b1')]],
      ['1/c', [rule('c1')]],
    ]),
  );
  const indexes = new RobotIndexes(createRobotIndex, {
    budgetBytes: Math.floor(bytesForRules(1) * 1.5),
    loader: gated.loader,
  });
  const take = async (key: string) => {
    const lease = indexes.acquire(key);
    await new Promise((resolve) => setImmediate(resolve));
    gated.open();
    (await lease)?.release();
    return indexes.peek(key);
  };
  const a = await take('1/a');
  // Written to after the load: a self-test waits in the background.
  indexes.update('1/a', (index) => index.upsert(rule('a2')));
  assert.equal(a?.calibration?.pending, true);
  await take('1/b');
  assert.equal(indexes.peek('1/a'), undefined);
  assert.equal(a?.calibration?.pending, false);
  const b = indexes.peek('1/b');
  indexes.update('1/b', (index) => index.upsert(rule('b2')));
  assert.equal(b?.calibration?.pending, true);
  indexes.drop('1/b');
  assert.equal(b?.calibration?.pending, false);
});

test('a reservation lets go of indexes no request holds, is refused without letting any go when they cannot make room, and frees its bytes once released', async () => {
  const store = new Map([
    ['1/a', [rule('a1')]],
    ['1/b', [rule('b1')]],
  ]);
  const gated = gatedLoader(store);
  const one = bytesForRules(1);
  const indexes = new RobotIndexes(createRobotIndex, {
    budgetBytes: 3 * one,
    loader: gated.loader,
  });
  const take = (key: string) => acquireOpened(indexes, gated, key);
  const a = await take('1/a');
  (await take('1/b'))?.release();
  // a is held: even letting b go leaves too little room for two indexes' worth.
  assert.equal(indexes.reserve(2.5 * one), null);
  assert.ok(indexes.peek('1/b'), 'a refused reservation lets nothing go');
  assert.equal(indexes.status().reservedBytes, 0);
  // Room for one more once b goes: b (least recently asked, not held) is let go.
  const reservation = indexes.reserve(1.5 * one);
  assert.ok(reservation);
  assert.equal(indexes.peek('1/b'), undefined);
  assert.ok(indexes.peek('1/a'));
  assert.equal(indexes.status().reservedBytes, 1.5 * one);
  // A forced one is counted past the budget; a load meanwhile lets the others go, not a held one.
  const forced = indexes.reserve(10 * one, true);
  assert.ok(forced);
  assert.equal(indexes.status().reservedBytes, 11.5 * one);
  reservation.release();
  reservation.release();
  forced.release();
  assert.equal(indexes.status().reservedBytes, 0);
  a?.release();
  // Without a budget every reservation succeeds and counts nothing.
  const free = new RobotIndexes(createRobotIndex);
  assert.ok(free.reserve(1e12));
  assert.equal(free.status().reservedBytes, 0);
});

test('without a budget, an index deferred until asked is built once when asked, with the writes during its build, then kept', async () => {
  const store = new Map([['1/copy', [rule('c1', 'hello there')]]]);
  const gated = gatedLoader(store);
  const indexes = new RobotIndexes(createRobotIndex);
  indexes.deferUntilAsked('1/copy', (key) => gated.loader.load(key));
  // Before it is asked: nothing built, a write reaches only the store, nothing to save.
  store.set('1/copy', [...(store.get('1/copy') ?? []), rule('c2', 'good evening')]);
  indexes.update('1/copy', (index) => index.upsert(rule('c2', 'good evening')));
  assert.equal(indexes.inMemory('1/copy'), undefined);
  assert.deepEqual(indexes.loadedKeys(), []);
  const first = indexes.acquire('1/copy');
  const second = indexes.acquire('1/copy');
  await new Promise((resolve) => setImmediate(resolve));
  indexes.update('1/copy', (index) => index.upsert(rule('c3', 'good morning')));
  gated.open();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(gated.loads(), 1);
  assert.equal(a?.index, b?.index);
  assert.equal(a?.index.size, 3);
  // From now on an index like those built at start: updated in place, never loaded again.
  indexes.update('1/copy', (index) => index.upsert(rule('c4', 'good night')));
  assert.equal(indexes.inMemory('1/copy')?.size, 4);
  assert.equal((await indexes.acquire('1/copy'))?.index, a?.index);
  assert.equal(gated.loads(), 1);
  assert.deepEqual(indexes.recentKeys(), [], 'no budget: nothing to let go of');
});

test('asks to many robots not in memory run two loads at a time, each counted in the budget from its start', async () => {
  const keys = ['1/a', '1/b', '1/c', '1/d', '1/e'];
  const gated = gatedLoader(new Map(keys.map((key) => [key, [rule(`${key}-1`)]])));
  const one = bytesForRules(1);
  const budget = Math.floor(one * 2.5);
  /** What was counted (indexes and loads under way) each time a load began reading. */
  const countedAtStart: number[] = [];
  const loader: IndexLoader = {
    load(key) {
      // Called only once `indexes` below is made.
      const status = indexes.status();
      countedAtStart.push(status.bytes + status.reservedBytes);
      return gated.loader.load(key);
    },
    estimate: () => one,
  };
  const indexes = new RobotIndexes(createRobotIndex, { budgetBytes: budget, loader });
  // Two robots in memory, not held.
  for (const key of keys.slice(0, 2)) (await acquireOpened(indexes, gated, key))?.release();
  // Each answered as soon as it is loaded (a held index could not be let go).
  const asks = keys.slice(2).map(async (key) => {
    const lease = await indexes.acquire(key);
    lease?.release();
    return lease;
  });
  await new Promise((resolve) => setImmediate(resolve));
  // Three asked at once: two read, the third waits for a slot.
  assert.equal(gated.loads(), 4);
  // Room was made before the reads: the least recently asked robots went first.
  assert.equal(indexes.peek('1/a'), undefined);
  assert.equal(indexes.peek('1/b'), undefined);
  while (gated.loads() < 5) {
    gated.open();
    await new Promise((resolve) => setImmediate(resolve));
  }
  gated.open();
  for (const lease of await Promise.all(asks)) assert.ok(lease);
  // The fifth may start while a robot just loaded is still held by its ask (never let go).
  const beforeAnyHeld = countedAtStart.slice(0, 4);
  assert.ok(
    Math.max(...beforeAnyHeld) <= budget,
    `counted ${beforeAnyHeld.join(', ')} > ${budget}`,
  );
  assert.equal(indexes.status().reservedBytes, 0);
  assert.ok(indexes.status().bytes <= budget);
});

/** V8's collector, reachable without `--expose-gc` on the command line (a test needs it to run). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

test('an index let go of stays counted until V8 collects it, so the next loads let go of more; once collected the budget holds as many as before', async () => {
  const keys = ['1/a', '1/b', '1/c', '1/d', '1/e'];
  const gated = gatedLoader(new Map(keys.map((key) => [key, [rule(`${key}-1`)]])));
  const one = bytesForRules(1);
  const indexes = new RobotIndexes(createRobotIndex, {
    budgetBytes: Math.floor(one * 2.5),
    loader: gated.loader,
  });
  const take = async (key: string) => (await acquireOpened(indexes, gated, key))?.release();
  await take('1/a');
  // Kept alive, as an index awaiting V8's full collection is: its memory is not free yet (in an
  // object emptied later: a local of an async function outlives its last use).
  const awaitingCollection = { index: indexes.peek('1/a') };
  await take('1/b');
  await take('1/c');
  assert.equal(indexes.peek('1/a'), undefined);
  assert.equal(indexes.status().uncollectedBytes >= one, true);
  await take('1/d');
  // Two in memory would pass the budget with a's bytes still held: only d stays.
  assert.deepEqual(indexes.recentKeys(), ['1/d']);
  assert.ok(awaitingCollection.index);
  awaitingCollection.index = undefined;

  // Once nothing holds them, V8 collects them and the budget holds two robots again.
  const gc = collector();
  for (let tries = 0; tries < 200 && indexes.status().uncollectedBytes > 0; tries++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(indexes.status().uncollectedBytes, 0);
  await take('1/e');
  assert.deepEqual(indexes.recentKeys(), ['1/e', '1/d']);
});
