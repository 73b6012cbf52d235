import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toMatchableRule } from '../../../electron/service/domain/rule-views';
import { compareInSlices, reachOf } from '../../../electron/service/publishing/impact';
import type { Comparison, Replay } from '../../../electron/service/publishing/impact';
import { fromOutcomesFor } from '../../../electron/service/publishing/impact-from-cache';
import { compareOnWorker } from '../../../electron/service/publishing/impact-thread';
import type { StoredRule } from '../../../electron/service/store/contract/records';
import { impactSide } from '../../helpers/impact-sides';
import { HOUR, NOW, SETTINGS, indexOf, plainReplay, scenario } from '../../helpers/impact-scenario';

const kindsOf = (comparison: Comparison | null) => {
  assert.ok(comparison !== null, 'the worker ran');
  return comparison.kinds;
};

test('previews that keep the published side’s outcomes count exactly what replays without them count, on the loop and on workers', async () => {
  for (const answerEvery of [3, 17]) {
    const { before, after, questions } = scenario(answerEvery, answerEvery);
    const plan = await reachOf(
      { index: indexOf(before), stored: before },
      { index: indexOf(after), stored: after },
    );
    for (const reach of [plan, null]) {
      const what = `every ${answerEvery}th answer, ${reach === null ? 'every question' : 'filtered'}`;
      const a = impactSide('published', indexOf(before), before);
      const b = impactSide('draft', indexOf(after), after);
      const replay = (at: number, known = fromOutcomesFor(a.index, at, SETTINGS)): Replay => ({
        a,
        b,
        questions,
        reach,
        at,
        settings: SETTINGS,
        known,
      });
      // The reference: each question asked of both sides, one at a time, nothing kept.
      const expected =
        reach === null
          ? await plainReplay(a, b, questions, NOW)
          : (await compareInSlices(replay(NOW, null))).kinds;
      const changed = Object.values(expected).reduce((sum, kind) => sum + kind.questions, 0);
      assert.ok(changed > 20, `not vacuous: ${changed} questions change answer (${what})`);
      const first = replay(NOW);
      assert.deepEqual((await compareInSlices(first)).kinds, expected, `first preview, ${what}`);
      const kept = first.known?.size ?? 0;
      assert.ok(kept > 0, 'the published side’s outcomes were kept');
      const second = replay(NOW + HOUR);
      assert.equal(second.known, first.known, 'the second preview reads them');
      assert.deepEqual((await compareInSlices(second)).kinds, expected, `second, ${what}`);
      assert.deepEqual(kindsOf(await compareOnWorker(second, {}, { workers: 2 })), expected);
      assert.equal(second.known?.size, kept, 'nothing left to work out');
      // Workers work out what the loop did not know, the same, and hand it back.
      const other = impactSide('published', indexOf(before), before);
      const fresh: Replay = {
        ...second,
        a: other,
        known: fromOutcomesFor(other.index, NOW, SETTINGS),
      };
      assert.deepEqual(kindsOf(await compareOnWorker(fresh, {}, { workers: 2 })), expected);
      assert.equal(fresh.known?.size, kept, `the workers’ outcomes were kept (${what})`);
      assert.deepEqual((await compareInSlices(fresh)).kinds, expected, 'and read back');
    }
  }
});

test('the kept outcomes are not read after the published side changes or a rule enters its window', async () => {
  const { before, after, questions } = scenario(5, 3);
  const published = indexOf(before);
  const a = impactSide('published', published, before);
  const b = impactSide('draft', indexOf(after), after);
  const reach = await reachOf(
    { index: published, stored: before },
    { index: b.index, stored: after },
  );
  const preview = async (at: number, keep = true) =>
    (
      await compareInSlices({
        a,
        b,
        questions,
        reach,
        at,
        settings: SETTINGS,
        known: keep ? fromOutcomesFor(published, at, SETTINGS) : null,
      })
    ).kinds;
  const unwritten = await preview(NOW);
  assert.deepEqual(unwritten, await preview(NOW, false));
  // Questions whose answer the draft changes, taken by other rules of the published side: their
  // phrasing, word for word, on rules whose answer the draft keeps.
  const [first, second] = unwritten.otherAnswer.examples;
  assert.ok(first !== undefined && second !== undefined);
  const keeps = before.filter((_rule, i) => i % 3 !== 0);
  const taker = { ...(keeps[0] as StoredRule) };
  taker.questions = [...taker.questions, first.question];
  published.upsert(toMatchableRule(taker));
  const written = await preview(NOW, false);
  assert.notDeepEqual(written, unwritten, 'the write changes the count');
  assert.deepEqual(await preview(NOW), written, 'after a write');
  // A rule that enters its window an hour on: until then the kept outcomes hold; after, not.
  const later = { ...(keeps[1] as StoredRule), effectBegin: new Date(NOW + HOUR).toISOString() };
  later.questions = [...later.questions, second.question];
  published.upsert(toMatchableRule(later));
  assert.deepEqual(await preview(NOW), await preview(NOW, false));
  const entered = await preview(NOW + 2 * HOUR, false);
  assert.notDeepEqual(entered, await preview(NOW, false), 'the window changes the count');
  assert.deepEqual(await preview(NOW + 2 * HOUR), entered, 'after the rule entered its window');
});
