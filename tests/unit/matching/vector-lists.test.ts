/**
 * The inverted lists over the embedding channel's rows (vector-lists.ts): the kernel's probe of
 * listed rows (by place, or gathered densely in any order) equals the full scan's dot products;
 * a search through trained lists finds the rules an exact search finds (recall@10 against brute
 * force on clustered vectors);
 * the training's own check of its recall sets the lists probed, and keeps searches exact where
 * the lists do not earn their place (uniform random vectors); rules added, edited and removed
 * after training are filed and unfiled at once; in many dimensions, rows filed through a shortlist
 * of centroids are found as well; a training stepped in small slices while rows
 * come and go hands over lists that file every row once; once trained, each list's rows lie in
 * one block of slots, read in one call, with exactly the cosines of the rows gathered one by one
 * (rows filed since included), and a layout stepped in slices leaves every search whole.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleVectors } from '../../../electron/service/matching/rule-vectors';
import { VectorMemory } from '../../../electron/service/matching/vector-kernel';
import { ListLayout } from '../../../electron/service/matching/vector-lists';
import { VectorSpace, quantize } from '../../../electron/service/matching/vector-space';
import type { QuantizedVector } from '../../../electron/service/matching/vector-space';
import { prng } from '../../helpers/prng';

const NOW = 1_000;

const unit = (values: number[]): number[] => {
  const norm = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0)) || 1;
  return values.map((v) => v / norm);
};

/** Gaussian-ish noise (sum of uniforms) in `dimensions`. */
const noise = (random: () => number, dimensions: number): number[] =>
  Array.from({ length: dimensions }, () => random() + random() + random() - 1.5);

interface Data {
  space: VectorSpace;
  vectors: RuleVectors;
  /** Each rule's direction (clustered) and its texts. */
  rules: Map<string, string[]>;
  random: () => number;
  make: () => number[];
}

/**
 * `rules` rules of 3 phrasings in `dimensions`; clustered: each rule near one of `topics` topic
 * directions and its phrasings near the rule; else every vector uniform.
 */
function data(options: {
  seed: number;
  rules: number;
  dimensions: number;
  topics?: number;
  minRows?: number;
  /** Scales the noise around topics and rules (as much noise in all as at 48 dimensions). */
  spread?: number;
}): Data {
  const random = prng(options.seed);
  const { dimensions } = options;
  const topics = Array.from({ length: options.topics ?? 0 }, () => unit(noise(random, dimensions)));
  const near = (centre: number[], spread: number): number[] => {
    const shift = noise(random, dimensions);
    const scaled = spread * (options.spread ?? 1);
    return unit(centre.map((v, d) => v + scaled * (shift[d] ?? 0)));
  };
  const space = new VectorSpace(dimensions, options.minRows ?? 0);
  const vectors = new RuleVectors(space);
  const rules = new Map<string, string[]>();
  let text = 0;
  const make = (): number[] => {
    if (topics.length === 0) return noise(random, dimensions);
    const topic = topics[Math.floor(random() * topics.length)] ?? [];
    return near(topic, 0.2);
  };
  for (let i = 0; i < options.rules; i += 1) {
    const direction = make();
    const texts = [0, 1, 2].map(() => `t${(text += 1)}`);
    rules.set(`r${i}`, texts);
    vectors.upsert({
      ruleId: `r${i}`,
      ruleName: texts[0] ?? '',
      questions: texts.slice(1),
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
    for (const phrasing of texts) {
      space.set(phrasing, quantize(topics.length > 0 ? near(direction, 0.15) : make()));
    }
  }
  return { space, vectors, rules, random, make };
}

/** Recall@k of the rules found through the lists against the exact search's. */
function recall(d: Data, queries: QuantizedVector[], k = 10): number {
  let found = 0;
  let wanted = 0;
  for (const query of queries) {
    d.space.approximate = false;
    const exact = new Set(d.vectors.search(query, k, NOW).hits.map((hit) => hit.ruleId));
    d.space.approximate = true;
    const near = d.vectors.search(query, k, NOW);
    assert.ok(near.compared < d.space.rows, 'the lists were probed, not every row');
    for (const hit of near.hits) if (exact.has(hit.ruleId)) found += 1;
    wanted += exact.size;
  }
  return found / wanted;
}

test('the kernel scores listed rows exactly as the full scan does', () => {
  const random = prng(3);
  for (const simd of [true, false]) {
    const memory = new VectorMemory(40, simd);
    memory.ensure(200);
    for (let r = 0; r < 200; r += 1) {
      for (let d = 0; d < 40; d += 1) memory.rows[r * memory.stride + d] = random() * 254 - 127;
    }
    for (let d = 0; d < 40; d += 1) memory.query[d] = random() * 254 - 127;
    const full = Array.from(memory.dots(200).subarray(0, 200));
    const ids = Int32Array.from([5, 6, 7, 90, 3, 199, 100, 101]);
    memory.dots(0).fill(0);
    const listed = memory.dotsAt(ids, ids.length);
    for (const id of ids) assert.equal(listed[id], full[id], `row ${id}, simd ${simd}`);
    assert.equal(listed[4], 0, 'rows not listed are not scored');
  }
});

test('a gather scores rows in any order, four at a time or one, as the full scan does', () => {
  const random = prng(4);
  for (const simd of [true, false]) {
    const memory = new VectorMemory(72, simd);
    memory.ensure(300);
    for (let r = 0; r < 300; r += 1) {
      for (let d = 0; d < 72; d += 1) memory.rows[r * memory.stride + d] = random() * 254 - 127;
    }
    for (let d = 0; d < 72; d += 1) memory.query[d] = random() * 254 - 127;
    const full = Array.from(memory.dots(300).subarray(0, 300));
    // 4 × 5 + 3 ids: groups of four and a remainder, out of order and repeated.
    const ids = [
      299, 0, 17, 16, 250, 3, 3, 128, 64, 1, 2, 200, 199, 42, 43, 7, 8, 9, 10, 11, 12, 13, 298,
    ];
    for (const count of [ids.length, 4, 3, 0]) {
      memory.ids.set(ids.slice(0, count));
      const dense = Array.from(memory.gather(count).subarray(0, count));
      assert.deepEqual(
        dense,
        ids.slice(0, count).map((id) => full[id]),
        `${count} ids, simd ${simd}`,
      );
    }
  }
});

test('through the lists, a search finds the exact search’s rules on clustered vectors', () => {
  const d = data({ seed: 1, rules: 1500, dimensions: 48, topics: 40 });
  assert.equal(d.space.lists.usable, false, 'not before a training');
  d.space.lists.train();
  assert.equal(d.space.lists.usable, true);
  assert.equal(d.space.lists.lists, Math.round(Math.sqrt(4500)));
  assert.deepEqual(d.space.lists.counts, { held: 4500, filed: 4500 });
  // Questions near the rules' phrasings, and phrasings themselves.
  const queries = Array.from({ length: 60 }, (_, i) =>
    i % 2 === 0
      ? quantize(d.make())
      : d.space.vectorOf(d.space.rowOfText(`t${1 + Math.floor(d.random() * 4500)}`)),
  );
  const got = recall(d, queries);
  assert.ok(got >= 0.98, `recall@10 ${got}`);
  const check = d.space.lists.check;
  assert.ok(check && check.recall >= 0.98 && check.probes === d.space.lists.nprobe);
  // Any rule's best cosine read after a search through the lists (a lexical candidate's, whether
  // its rows were probed or not) is the exact search's.
  for (const query of queries.slice(0, 12)) {
    const near = d.vectors.search(query, 10, NOW);
    assert.ok(near.compared < d.space.rows);
    const got = [...d.rules.keys()].map((ruleId) => near.cosineOf(ruleId)?.cosine);
    d.space.approximate = false;
    const exact = d.vectors.search(query, 10, NOW);
    d.space.approximate = true;
    const want = [...d.rules.keys()].map((ruleId) => exact.cosineOf(ruleId)?.cosine);
    assert.deepEqual(got, want);
    for (const hit of near.hits) assert.equal(hit.cosine, exact.cosineOf(hit.ruleId)?.cosine);
  }
  // Every list probed: the search is exact.
  d.space.lists.probes = d.space.lists.lists;
  for (const query of queries) {
    const near = d.vectors.search(query, 10, NOW);
    assert.equal(near.compared, 4500);
    d.space.approximate = false;
    const exact = d.vectors.search(query, 10, NOW);
    d.space.approximate = true;
    assert.deepEqual(near.hits, exact.hits);
  }
});

test('in many dimensions rows are filed through a shortlist of centroids, and found as well', () => {
  // 256 dimensions: the nearest centroid is looked for among the 16 best on a quarter of them.
  const d = data({
    seed: 5,
    rules: 1200,
    dimensions: 256,
    topics: 40,
    spread: Math.sqrt(48 / 256),
  });
  d.space.lists.train();
  assert.equal(d.space.lists.usable, true);
  assert.deepEqual(d.space.lists.counts, { held: 3600, filed: 3600 });
  const queries = Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? quantize(d.make())
      : d.space.vectorOf(d.space.rowOfText(`t${1 + Math.floor(d.random() * 3600)}`)),
  );
  const got = recall(d, queries);
  assert.ok(got >= 0.98, `recall@10 ${got}`);
  // A rule added after the training is filed through the shortlist too, and found first.
  d.vectors.upsert({
    ruleId: 'late',
    ruleName: 'late text',
    questions: [],
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
  });
  const late = quantize(d.make());
  d.space.set('late text', late);
  assert.deepEqual(d.space.lists.counts, { held: 3601, filed: 3601 });
  assert.equal(d.vectors.search(late, 10, NOW).hits[0]?.ruleId, 'late');
});

test('on uniform random vectors the lists do not earn their place: searches stay exact', () => {
  const d = data({ seed: 2, rules: 1200, dimensions: 24 });
  d.space.lists.train();
  const check = d.space.lists.check;
  assert.ok(check && check.asked > 0, 'the training checked the lists');
  assert.equal(check.probes, 0, `recall ${check.recall}`);
  assert.equal(d.space.lists.usable, false);
  const search = d.vectors.search(quantize(d.make()), 10, NOW);
  assert.equal(search.compared, d.space.rows);
});

test('rules added, edited and removed after a training are filed and unfiled at once', () => {
  const d = data({ seed: 4, rules: 800, dimensions: 32, topics: 20 });
  d.space.lists.train();
  const trained = d.space.lists.lists;
  const upsert = (ruleId: string, texts: string[]) =>
    d.vectors.upsert({
      ruleId,
      ruleName: texts[0] ?? '',
      questions: texts.slice(1),
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  // New rules: each found first by its own phrasing.
  for (let i = 0; i < 30; i += 1) {
    upsert(`new${i}`, [`new text ${i}`]);
    const vector = quantize(d.make());
    d.space.set(`new text ${i}`, vector);
    const hits = d.vectors.search(vector, 10, NOW).hits;
    assert.equal(hits[0]?.ruleId, `new${i}`);
    assert.ok(Math.abs((hits[0]?.cosine ?? 0) - 1) < 1e-3);
  }
  // Edited: the old phrasing's row leaves its list, the new one is found.
  upsert('new0', ['edited text']);
  const edited = quantize(d.make());
  d.space.set('edited text', edited);
  assert.equal(d.vectors.search(edited, 10, NOW).hits[0]?.ruleId, 'new0');
  // Removed: never found again, however near the question.
  for (let i = 0; i < 800; i += 3) d.vectors.remove(`r${i}`);
  const removed = new Set(Array.from({ length: 267 }, (_, j) => `r${j * 3}`));
  for (let q = 0; q < 20; q += 1) {
    const row = d.space.rowOfText(`t${3 * 3 * q + 1}`);
    assert.equal(row, -1, 'a removed rule’s rows are freed');
    for (const hit of d.vectors.search(quantize(d.make()), 10, NOW).hits) {
      assert.ok(!removed.has(hit.ruleId), hit.ruleId);
    }
  }
  const held = 800 * 3 + 30 - 267 * 3;
  assert.deepEqual(d.space.lists.counts, { held, filed: held });
  assert.equal(d.space.lists.lists, trained, 'no training without a call');
});

test('a training stepped in slices follows the rows that come and go meanwhile', () => {
  const d = data({ seed: 5, rules: 600, dimensions: 32, topics: 16 });
  d.space.lists.train();
  assert.equal(d.space.lists.stale, false);
  // As many changes as rows trained on: a new training is due.
  for (let i = 0; i < 1800; i += 1) {
    const texts = [`more ${i}`];
    d.vectors.upsert({
      ruleId: `m${i}`,
      ruleName: texts[0] ?? '',
      questions: [],
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
    d.space.set(`more ${i}`, quantize(d.make()));
  }
  assert.equal(d.space.lists.stale, true);
  const run = d.space.lists.trainingRun();
  assert.ok(run);
  assert.equal(run.listCount, Math.round(Math.sqrt(3600)));
  let steps = 0;
  let i = 0;
  while (!run.step(0)) {
    steps += 1;
    // Rows come and go between the steps.
    if (steps % 50 === 0) {
      d.vectors.remove(`m${i}`);
      d.vectors.upsert({
        ruleId: `late${i}`,
        ruleName: `late ${i}`,
        questions: [],
        active: true,
        effectBeginMs: null,
        effectEndMs: null,
      });
      d.space.set(`late ${i}`, quantize(d.make()));
      i += 1;
    }
  }
  assert.ok(steps > 1000 && i > 10, `${steps} steps, ${i} changes`);
  assert.equal(d.space.lists.lists, run.listCount);
  assert.deepEqual(d.space.lists.counts, { held: 3600, filed: 3600 });
  assert.equal(d.space.lists.stale, false);
  const queries = Array.from({ length: 40 }, () => quantize(d.make()));
  const got = recall(d, queries);
  assert.ok(got >= 0.98, `recall@10 ${got}`);
  for (let j = 0; j < i; j += 1) {
    const vector = d.space.vectorOf(d.space.rowOfText(`late ${j}`));
    assert.equal(d.vectors.search(vector, 10, NOW).hits[0]?.ruleId, `late${j}`);
  }
});

test('below its size threshold the space searches every row', () => {
  const d = data({ seed: 6, rules: 300, dimensions: 16, topics: 8, minRows: 1000 });
  d.space.lists.train();
  assert.equal(d.space.lists.usable, false);
  assert.equal(d.space.lists.lists, 0);
  const search = d.vectors.search(quantize(d.make()), 10, NOW);
  assert.equal(search.compared, d.space.rows);
});

/** The search through the lists with each list's block read in one call, and with none. */
function bothWays(d: Data, query: QuantizedVector) {
  d.space.blocks = true;
  const laid = d.vectors.search(query, 10, NOW);
  d.space.blocks = false;
  const gathered = d.vectors.search(query, 10, NOW);
  d.space.blocks = true;
  return { laid, gathered };
}

/** Whether every row still filed under the list it was laid out with lies in that list's block. */
function blocksHoldTheirRows(d: Data): void {
  const lists = d.space.lists;
  for (let list = 0; list < lists.lists; list += 1) {
    const members = lists.membersOf(list).subarray(0, lists.sizeOf(list));
    const inBlock = [...members].filter((row) => {
      const slot = d.space.slotOf(row);
      return slot >= lists.blockStart(list) && slot < lists.blockEnd(list);
    });
    assert.equal(inBlock.length, members.length, `list ${list}`);
    assert.equal(lists.blockEnd(list) - lists.blockStart(list), members.length);
    for (const row of members) assert.equal(d.space.rowAt(d.space.slotOf(row)), row);
  }
}

test('once trained, each list’s rows lie in one block, read with the cosines of a gather', () => {
  const d = data({ seed: 7, rules: 1500, dimensions: 48, topics: 40 });
  d.space.lists.train();
  assert.equal(d.space.lists.usable, true);
  assert.equal(d.space.lists.laidOut, true);
  blocksHoldTheirRows(d);
  const queries = Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? quantize(d.make())
      : d.space.vectorOf(d.space.rowOfText(`t${1 + Math.floor(d.random() * 4500)}`)),
  );
  for (const query of queries) {
    const { laid, gathered } = bothWays(d, query);
    assert.ok(laid.compared < d.space.rows && laid.compared === gathered.compared);
    assert.deepEqual(laid.hits, gathered.hits);
  }
  assert.ok(recall(d, queries) >= 0.98);
  // Rules filed after the layout (read one by one), edited and removed: still the same search.
  const upsert = (ruleId: string, texts: string[]) =>
    d.vectors.upsert({
      ruleId,
      ruleName: texts[0] ?? '',
      questions: texts.slice(1),
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  for (let i = 0; i < 40; i += 1) {
    upsert(`new${i}`, [`new text ${i}`]);
    d.space.set(`new text ${i}`, quantize(d.make()));
  }
  for (let i = 0; i < 1500; i += 5) d.vectors.remove(`r${i}`);
  upsert('r1', ['edited r1']);
  d.space.set('edited r1', quantize(d.make()));
  for (let i = 0; i < 40; i += 1) {
    const vector = d.space.vectorOf(d.space.rowOfText(`new text ${i}`));
    const { laid, gathered } = bothWays(d, vector);
    assert.equal(laid.hits[0]?.ruleId, `new${i}`);
    assert.deepEqual(laid.hits, gathered.hits);
    for (const hit of laid.hits) assert.ok(!/^r\d*[05]$/.test(hit.ruleId), hit.ruleId);
  }
  for (const query of queries.filter((_, i) => i % 2 === 0)) {
    const { laid, gathered } = bothWays(d, query);
    assert.deepEqual(laid.hits, gathered.hits);
  }
});

test('a layout stepped in slices leaves every search whole while rows come and go', () => {
  const d = data({ seed: 8, rules: 700, dimensions: 32, topics: 16 });
  const training = d.space.lists.trainingRun();
  assert.ok(training && !(training instanceof ListLayout));
  training.step(Infinity);
  const layout = d.space.lists.trainingRun();
  assert.ok(layout instanceof ListLayout, 'the layout follows the training');
  assert.equal(d.space.lists.laidOut, false);
  // Every list probed: a search through the lists is then the exact one, at any point.
  d.space.lists.probes = d.space.lists.lists;
  const queries = Array.from({ length: 6 }, () => quantize(d.make()));
  let steps = 0;
  const same = () => {
    for (const query of queries) {
      const near = d.vectors.search(query, 10, NOW);
      d.space.approximate = false;
      const exact = d.vectors.search(query, 10, NOW);
      d.space.approximate = true;
      assert.deepEqual(near.hits, exact.hits, `after ${steps} steps`);
    }
  };
  while (!layout.step(0)) {
    steps += 1;
    same();
    d.vectors.remove(`r${steps * 7}`);
    d.vectors.upsert({
      ruleId: `late${steps}`,
      ruleName: `late ${steps}`,
      questions: [],
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
    d.space.set(`late ${steps}`, quantize(d.make()));
  }
  assert.ok(steps >= 4, `${steps} steps`);
  assert.equal(d.space.lists.laidOut, true);
  assert.equal(d.space.lists.trainingRun(), null, 'nothing more due');
  same();
  for (let j = 1; j <= steps; j += 1) {
    const vector = d.space.vectorOf(d.space.rowOfText(`late ${j}`));
    assert.equal(d.vectors.search(vector, 10, NOW).hits[0]?.ruleId, `late${j}`);
  }
});
