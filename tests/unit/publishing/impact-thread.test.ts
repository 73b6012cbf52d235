import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { test } from 'node:test';
import { toMatchableRule } from '../../../electron/service/domain/rule-views';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { RobotIndex } from '../../../electron/service/matching/types';
import {
  compareInSlices,
  compareSides,
  reachOf,
} from '../../../electron/service/publishing/impact';
import type { ImpactSide, Replay } from '../../../electron/service/publishing/impact';
import {
  compareOnWorker,
  impactWorkerFits,
} from '../../../electron/service/publishing/impact-thread';
import type { StoredRule } from '../../../electron/service/store/contract/records';
import { impactSide, storedRule } from '../../helpers/impact-sides';
import { prng } from '../../helpers/prng';

const NOW = Date.UTC(2026, 0, 1);
const SETTINGS = DEFAULT_MATCH_SETTINGS;
const SYNONYMS = [['refund', 'money back']];

function replay(
  a: ImpactSide,
  b: ImpactSide,
  questions: Replay['questions'],
  reach: Replay['reach'],
): Replay {
  return { a, b, questions, reach, at: NOW, settings: SETTINGS };
}

/**
 * A published robot and a draft of it (answers, phrasings and validity changed, a rule removed
 * and one added), both self-calibrated, and a log of questions over their words.
 */
function scenario(seed: number, synonyms: readonly (readonly string[])[]) {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const words = Array.from({ length: 90 }, (_, i) => `w${(i * 7919) % 997}x${i % 13}`);
  const frame = ['how', 'can', 'i', 'my', 'refund', 'money back', 'what'];
  const han = Array.from({ length: 60 }, (_, i) => String.fromCodePoint(0x4e00 + 41 * i));
  const phrase = () =>
    random() < 0.6
      ? [pick(frame), ...Array.from({ length: 1 + int(3) }, () => pick(words))].join(' ')
      : Array.from({ length: 3 + int(4) }, () => pick(han)).join('');
  const rule = (id: string, seq: number): StoredRule =>
    storedRule(seq, id, {
      ruleName: `${phrase()} ${id}`,
      active: random() < 0.95,
      questions: Array.from({ length: 1 + int(3) }, phrase),
    });
  const before = Array.from({ length: 100 }, (_, i) => rule(`r${i}`, i));
  const after = before.map((old, i) => {
    if (i % 9 === 0) return { ...old, answer: `${old.answer}+` };
    if (i % 23 === 1) return { ...old, questions: [...old.questions.slice(1), phrase()] };
    if (i % 31 === 2) return { ...old, active: !old.active };
    return old;
  });
  after.splice(50, 1);
  after.push(rule(`new${seed}`, 1000));
  const indexOf = (rules: readonly StoredRule[]): RobotIndex => {
    const index = createRobotIndex({ synonyms });
    for (const stored of rules) index.upsert(toMatchableRule(stored));
    index.selfCalibrate?.(NOW);
    index.close?.();
    return index;
  };
  const a = indexOf(before);
  const b = indexOf(after);
  const log = Array.from({ length: 400 }, (_, i) => {
    const source = pick(i % 2 === 0 ? after : before);
    const text = pick([source.ruleName, ...source.questions]);
    const question = int(3) === 0 ? text.split(' ').slice(1).join(' ') || text : text;
    return { text: i % 5 === 0 ? phrase() : question, asks: 1 + int(6) };
  });
  return {
    before,
    after,
    a: impactSide('published', a, before),
    b: impactSide('draft', b, after),
    log,
  };
}

test('the worker counts exactly what the loop counts (filtered and full replays, with synonyms and calibration)', async () => {
  let changed = 0;
  for (const [seed, synonyms] of [
    [1, []],
    [2, SYNONYMS],
  ] as const) {
    const { before, after, a, b, log } = scenario(seed, synonyms);
    const plan = await reachOf(
      { index: a.index, stored: before },
      { index: b.index, stored: after },
    );
    for (const filter of [plan, null]) {
      const progress: [number, number][] = [];
      const watch = { progress: (done: number, total: number) => progress.push([done, total]) };
      const off = await compareOnWorker(replay(a, b, log, filter), watch);
      assert.ok(off !== null, `seed ${seed}: the worker ran`);
      const on = await compareInSlices(replay(a, b, log, filter));
      assert.deepEqual(off, on, `seed ${seed}, ${filter === null ? 'full' : 'filtered'}`);
      assert.deepEqual(progress.at(-1), [log.length, log.length]);
      for (const kind of Object.values(on.kinds)) changed += kind.questions;
      if (filter === null) assert.equal(off.matched, log.length);
    }
  }
  // Not vacuous: answers changed, and examples carry the sides' rule names.
  assert.ok(changed > 0);
});

test('two workers sharing the questions count exactly what the loop counts, examples in the same order', async () => {
  const { before, after, a, b, log } = scenario(3, SYNONYMS);
  // Past two chunks of 2,048, so that each worker asks some; few distinct ask counts, so that
  // the examples kept among equals depend on the questions' order.
  const many = Array.from({ length: 5000 }, (_, i) => {
    const question = log[i % log.length] as Replay['questions'][number];
    return {
      text: i < log.length ? question.text : `${question.text} w${i % 89}`,
      asks: 1 + (i % 3),
    };
  });
  const plan = await reachOf({ index: a.index, stored: before }, { index: b.index, stored: after });
  for (const filter of [plan, null]) {
    const reserved: number[] = [];
    const reserve = (bytes: number) => {
      reserved.push(bytes);
      return { release: () => undefined };
    };
    const progress: number[] = [];
    const watch = { progress: (done: number) => progress.push(done) };
    const one = await compareOnWorker(replay(a, b, many, filter), {}, { workers: 1, reserve });
    const two = await compareOnWorker(replay(a, b, many, filter), watch, { workers: 2, reserve });
    assert.equal(reserved.length, 2);
    assert.equal(reserved[1], 2 * (reserved[0] as number), 'two workers ran (and were counted)');
    const on = await compareInSlices(replay(a, b, many, filter));
    assert.deepEqual(one, on);
    assert.deepEqual(two, on, filter === null ? 'full' : 'filtered');
    assert.equal(progress.at(-1), many.length);
    const examples = Object.values(on.kinds).flatMap((kind) => kind.examples);
    assert.ok(examples.length > 10, 'examples kept');
  }
});

test('the replay’s workers run below the event loop’s priority, the loop’s own unchanged', async () => {
  const { a, b, log } = scenario(4, []);
  const ours = getPriority();
  const nices: (number | null)[] = [];
  const counted = await compareOnWorker(
    replay(a, b, log, null),
    {},
    {
      onReady: (nice) => nices.push(nice),
    },
  );
  assert.ok(counted !== null);
  assert.equal(nices.length, 1);
  if (process.platform === 'linux') assert.equal(nices[0], 10);
  assert.equal(getPriority(), ours, 'the event loop’s thread keeps its priority');
});

test('the loop replays when the worker cannot start, has no memory to run, or the index is not the engine’s', async () => {
  const { before, after, a, b, log } = scenario(5, []);
  const plan = await reachOf({ index: a.index, stored: before }, { index: b.index, stored: after });
  const on = await compareInSlices(replay(a, b, log, plan));
  const missing = new URL('./no-such-impact-worker.js', import.meta.url);
  assert.equal(await compareOnWorker(replay(a, b, log, plan), {}, { url: missing }), null);
  assert.deepEqual(
    await compareSides(replay(a, b, log, plan), {}, { url: missing, workerMinQuestions: 0 }),
    on,
  );
  assert.equal(await compareOnWorker(replay(a, b, log, plan), {}, { freeBytes: 0 }), null);
  // A node's memory budget with no room for the worker: the loop replays.
  assert.equal(await compareOnWorker(replay(a, b, log, plan), {}, { reserve: () => null }), null);
  let reserved = 0;
  let most = 0;
  const reserve = (bytes: number) => {
    reserved += bytes;
    most = Math.max(most, reserved);
    return { release: () => void (reserved -= bytes) };
  };
  assert.deepEqual(await compareOnWorker(replay(a, b, log, plan), {}, { reserve }), on);
  assert.ok(most > 0, 'the worker counted its memory');
  assert.equal(reserved, 0, 'and gave it back');
  assert.equal(impactWorkerFits(1000, 3999), false);
  assert.equal(impactWorkerFits(1000, 4000), true);
  const standIn: RobotIndex = {
    size: 0,
    upsert: () => undefined,
    remove: () => undefined,
    prepare: () => undefined,
    match: () => ({ kind: 'none', candidates: [] }),
  };
  const other = { ...a, index: standIn };
  assert.equal(await compareOnWorker(replay(other, b, log, plan)), null);
});

test('a preview cancelled while the worker asks rejects with the reason, and stops it', async () => {
  const { a, b, log } = scenario(7, []);
  const abort = new AbortController();
  const reason = new Error('the robot changed');
  const watch = {
    signal: abort.signal,
    progress: (done: number) => {
      if (done > 0) abort.abort(reason);
    },
  };
  await assert.rejects(compareOnWorker(replay(a, b, log, null), watch), reason);
});
