/**
 * The vector lists trained in a worker thread (decision 126): for a fixed seed the worker hands
 * over the very lists a training on the loop makes (same rows under the same lists, same check),
 * the space answers meanwhile (exactly: the lists are not in use before their first training),
 * rows that come and go during the training are filed, and a worker that cannot start leaves the
 * training to the loop, with the same lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkerTrainingPort } from '../../../electron/service/embedding/list-training-port';
import { RuleVectors } from '../../../electron/service/matching/rule-vectors';
import { ListLayout } from '../../../electron/service/matching/vector-lists';
import type { TrainingPort } from '../../../electron/service/matching/vector-lists';
import { VectorSpace, quantize } from '../../../electron/service/matching/vector-space';
import { prng } from '../../helpers/prng';

const NOW = 1_000;

const unit = (values: number[]): number[] => {
  const norm = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0)) || 1;
  return values.map((v) => v / norm);
};

/** `rules` rules of 3 phrasings near one of 30 topics, in 40 dimensions (always the same). */
function clustered(rules: number) {
  const random = prng(9);
  const noise = () => Array.from({ length: 40 }, () => random() + random() + random() - 1.5);
  const topics = Array.from({ length: 30 }, () => unit(noise()));
  const near = (centre: number[], spread: number) => {
    const shift = noise();
    return unit(centre.map((v, d) => v + spread * (shift[d] ?? 0)));
  };
  const make = () => near(topics[Math.floor(random() * topics.length)] ?? [], 0.2);
  const space = new VectorSpace(40, 0);
  const vectors = new RuleVectors(space);
  const upsert = (ruleId: string, texts: string[]) =>
    vectors.upsert({
      ruleId,
      ruleName: texts[0] ?? '',
      questions: texts.slice(1),
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  for (let i = 0; i < rules; i += 1) {
    const direction = make();
    const texts = [0, 1, 2].map((j) => `r${i} t${j}`);
    upsert(`r${i}`, texts);
    for (const text of texts) space.set(text, quantize(near(direction, 0.15)));
  }
  return { space, vectors, make, upsert };
}

type Data = ReturnType<typeof clustered>;

/** Each list's rows, as sorted arrays. */
const listsOf = (d: Data): number[][] =>
  Array.from({ length: d.space.lists.lists }, (_, list) =>
    [...d.space.lists.membersOf(list).subarray(0, d.space.lists.sizeOf(list))].sort(
      (a, b) => a - b,
    ),
  );

/** The next turn of the event loop (the worker's answers come in as messages). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Steps the training run through `port` until it hands over, asking between steps. */
async function trainThrough(d: Data, port: () => TrainingPort, between: () => void) {
  const run = d.space.lists.trainingRun(port);
  assert.ok(run && !(run instanceof ListLayout));
  let steps = 0;
  while (!run.step(2)) {
    steps += 1;
    between();
    await turn();
  }
  d.space.lists.trainingRun()?.step(Infinity);
  return { run, steps };
}

test('a worker thread trains the very lists the loop does, and the space answers meanwhile', async () => {
  const inLoop = clustered(1200);
  inLoop.space.lists.train();
  assert.equal(inLoop.space.lists.usable, true);

  const inWorker = clustered(1200);
  const query = quantize(inWorker.make());
  let asked = 0;
  const { run, steps } = await trainThrough(
    inWorker,
    () => new WorkerTrainingPort(),
    () => {
      // Before the first training's lists are in, every search is the exact one.
      const search = inWorker.vectors.search(query, 10, NOW);
      assert.equal(search.compared, inWorker.space.rows);
      assert.equal(search.hits.length, 10);
      asked += 1;
    },
  );
  assert.ok(run instanceof Object && 'inWorker' in run && run.inWorker, 'trained in a worker');
  assert.ok(steps > 0 && asked === steps, `${steps} steps`);
  assert.equal(inWorker.space.lists.usable, true);
  assert.equal(inWorker.space.lists.laidOut, true);
  assert.deepEqual(inWorker.space.lists.check, inLoop.space.lists.check);
  assert.deepEqual(listsOf(inWorker), listsOf(inLoop));
  for (let i = 0; i < 20; i += 1) {
    const q = quantize(inLoop.make());
    assert.deepEqual(
      inWorker.vectors.search(q, 10, NOW).hits,
      inLoop.vectors.search(q, 10, NOW).hits,
    );
  }
});

test('rows that come and go while a worker trains are filed; a worker that fails leaves it to the loop', async () => {
  const d = clustered(900);
  let changes = 0;
  let steps = 0;
  await trainThrough(
    d,
    () => new WorkerTrainingPort(),
    () => {
      steps += 1;
      if (steps % 10 !== 1) return;
      changes += 1;
      d.vectors.remove(`r${changes * 3}`);
      d.upsert(`late${changes}`, [`late ${changes}`]);
      d.space.set(`late ${changes}`, quantize(d.make()));
    },
  );
  assert.ok(changes > 0);
  const { held, filed } = d.space.lists.counts;
  assert.equal(filed, held);
  assert.equal(held, 2700 + changes - 3 * Math.min(changes, 299));
  for (let j = 1; j <= changes; j += 1) {
    const vector = d.space.vectorOf(d.space.rowOfText(`late ${j}`));
    assert.equal(d.vectors.search(vector, 10, NOW).hits[0]?.ruleId, `late${j}`);
  }

  const inLoop = clustered(600);
  inLoop.space.lists.train();
  const failing = clustered(600);
  const missing = new URL('./no-such-worker.js', import.meta.url);
  const { run } = await trainThrough(
    failing,
    () => new WorkerTrainingPort(missing),
    () => {},
  );
  assert.equal(run instanceof Object && 'inWorker' in run && run.inWorker, false, 'on the loop');
  assert.deepEqual(listsOf(failing), listsOf(inLoop));
});
