import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareInSlices, reachOf } from '../../../electron/service/publishing/impact';
import { ReplayPlan } from '../../../electron/service/publishing/impact-bound';
import { decideOf } from '../../../electron/service/publishing/impact-compare';
import type { Replay } from '../../../electron/service/publishing/impact';
import { fromOutcomesFor } from '../../../electron/service/publishing/impact-from-cache';
import {
  compareOnWorker,
  impactWorkerBytes,
} from '../../../electron/service/publishing/impact-thread';
import { warmSide } from '../../../electron/service/publishing/impact-warm';
import { impactSide } from '../../helpers/impact-sides';
import { HOUR, NOW, SETTINGS, indexOf, plainReplay, scenario } from '../../helpers/impact-scenario';

test('after the published side is warmed, the first preview asks the draft only and counts exactly what a plain replay counts', async () => {
  const { before, after, questions } = scenario(11, 5);
  const distinct = new Set(questions.map((question) => question.text)).size;
  const b = impactSide('draft', indexOf(after), after);
  const first = impactSide('published', indexOf(before), before);
  const plan = await reachOf(
    { index: first.index, stored: before },
    { index: b.index, stored: after },
  );
  for (const reach of [null, plan]) {
    const what = reach === null ? 'every question' : 'filtered';
    // A published side of its own each time: nothing kept from the previous round.
    const a = reach === null ? first : impactSide('published', indexOf(before), before);
    const replay = (at: number, known = fromOutcomesFor(a.index, at, SETTINGS)): Replay => ({
      a,
      b,
      questions,
      reach,
      at,
      settings: SETTINGS,
      known,
    });
    const cold = await compareInSlices(replay(NOW, null));
    const expected = reach === null ? await plainReplay(a, b, questions, NOW) : cold.kinds;
    assert.deepEqual(cold.kinds, expected, `the reference (${what})`);
    assert.ok(cold.fromAsked > 0, 'a cold preview asks the published side');
    const changed = Object.values(expected).reduce((sum, kind) => sum + kind.questions, 0);
    assert.ok(changed > 20, `not vacuous: ${changed} questions change answer (${what})`);

    const warmed = await warmSide(a.index, questions, NOW, SETTINGS, new AbortController().signal, {
      workers: 1,
    });
    assert.equal(warmed.asked, questions.length, 'the warm-up asked every question once');
    assert.equal(warmed.kept, distinct, 'and kept every distinct question’s outcome');
    const again = await warmSide(a.index, questions, NOW, SETTINGS, new AbortController().signal);
    assert.equal(again.asked, 0, 'a second warm-up has nothing left to ask');

    // Later, as the editor would preview: on the loop, then on two workers.
    const onLoop = await compareInSlices(replay(NOW + HOUR));
    assert.equal(onLoop.fromAsked, 0, `the preview asked the draft only (${what})`);
    assert.deepEqual(onLoop.kinds, expected, `on the loop (${what})`);
    // Kept outcomes replace the score ceiling's test (decision 191): never more asked.
    assert.ok(onLoop.matched <= cold.matched, 'no more questions asked of the draft');
    const onWorkers = await compareOnWorker(replay(NOW + HOUR), {}, { workers: 2 });
    assert.ok(onWorkers !== null, 'the workers ran');
    assert.equal(onWorkers.fromAsked, 0, `on workers too (${what})`);
    assert.deepEqual(onWorkers.kinds, expected, `on workers (${what})`);
  }
});

test('a warmed preview tests a question by its kept published outcome, not by the score ceiling: the draft is asked only what a changed answer answers, and the count is a plain replay’s', async () => {
  // Answers alone changed, 40 rules of them: below CEILING_RULES, where a cold preview bounds
  // each question by the changed rules' ceiling.
  const { before, after, questions } = scenario(13, 6, true);
  const a = impactSide('published', indexOf(before), before);
  const b = impactSide('draft', indexOf(after), after);
  const plan = await reachOf({ index: a.index, stored: before }, { index: b.index, stored: after });
  assert.ok(plan instanceof ReplayPlan && plan.answers.length === 40, 'the ceiling’s case');
  const changedAnswers = new Set(plan.answers);
  const answeredByChanged = questions.filter((question) => {
    const decision = decideOf(a.index, question.text, NOW, SETTINGS);
    return decision.kind === 'bestmatch' && changedAnswers.has(decision.top.ruleId);
  }).length;
  const expected = await plainReplay(a, b, questions, NOW);
  const replay = (known: Replay['known']): Replay => ({
    a,
    b,
    questions,
    reach: plan,
    at: NOW,
    settings: SETTINGS,
    known,
  });
  const cold = await compareInSlices(replay(null));
  assert.deepEqual(cold.kinds, expected, 'the cold preview');
  assert.ok(
    cold.matched > answeredByChanged,
    `not vacuous: the ceiling lets ${cold.matched - answeredByChanged} more questions through`,
  );

  await warmSide(a.index, questions, NOW, SETTINGS, new AbortController().signal, { workers: 1 });
  const onLoop = await compareInSlices(replay(fromOutcomesFor(a.index, NOW, SETTINGS)));
  assert.equal(onLoop.fromAsked, 0, 'the published side was not asked');
  assert.deepEqual(onLoop.kinds, expected, 'on the loop');
  assert.equal(onLoop.matched, answeredByChanged, 'the draft asked only what may change');
  // What each run's workers hold is counted in the node's budget: both sides cold, the draft
  // alone once every published outcome is kept (the published side is not written out).
  const reserved: number[] = [];
  const reserve = (bytes: number) => {
    reserved.push(bytes);
    return { release: () => {} };
  };
  const coldOnWorkers = await compareOnWorker(replay(null), {}, { workers: 1, reserve });
  assert.ok(coldOnWorkers !== null, 'the cold workers ran');
  assert.deepEqual(coldOnWorkers.kinds, expected, 'cold, on workers');
  const onWorkers = await compareOnWorker(
    replay(fromOutcomesFor(a.index, NOW, SETTINGS)),
    {},
    { workers: 1, reserve },
  );
  assert.ok(onWorkers !== null, 'the workers ran');
  assert.deepEqual(onWorkers.kinds, expected, 'on workers');
  assert.equal(onWorkers.matched, answeredByChanged, 'on workers too');
  assert.equal(onWorkers.fromAsked, 0, 'nothing asked of the published side on workers');
  const [both, draftOnly] = reserved as [number, number];
  const sideBytes = both - draftOnly;
  assert.ok(
    sideBytes > 0.3 * (both - impactWorkerBytes(0)),
    `the published side was not sent: ${draftOnly} bytes held against ${both}`,
  );
});
