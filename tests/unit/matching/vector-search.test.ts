/**
 * The embedding channel's exact search: the SIMD kernel's dot products equal the JavaScript
 * loop's and a plain sum's (dimensions not a multiple of 16, through growth), and a search finds
 * exactly the rules a brute-force scan finds — same order, same cosines — with texts shared by
 * rules, rules switched off or out of their window, a phrasing left out, rows freed and reused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleVectors } from '../../../electron/service/matching/rule-vectors';
import type { VectorHit } from '../../../electron/service/matching/rule-vectors';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { VectorMemory } from '../../../electron/service/matching/vector-kernel';
import { VectorSpace, quantize } from '../../../electron/service/matching/vector-space';
import type { QuantizedVector } from '../../../electron/service/matching/vector-space';
import { prng } from '../../helpers/prng';

const randomVector = (random: () => number, dimensions: number): number[] =>
  Array.from({ length: dimensions }, () => random() * 2 - 1);

test('the SIMD kernel and the JavaScript loop compute the same dot products', () => {
  const random = prng(11);
  for (const dimensions of [1, 16, 37, 384]) {
    const simd = new VectorMemory(dimensions);
    const plain = new VectorMemory(dimensions, false);
    assert.equal(simd.accelerated, true, 'Node 20 has WebAssembly SIMD');
    assert.equal(plain.accelerated, false);
    const rows = 300;
    simd.ensure(rows);
    plain.ensure(rows);
    const data: Int8Array[] = [];
    for (let r = 0; r < rows; r += 1) {
      const values = Int8Array.from({ length: dimensions }, () => Math.round(random() * 254 - 127));
      data.push(values);
      simd.rows.set(values, r * simd.stride);
      plain.rows.set(values, r * plain.stride);
    }
    const query = Int8Array.from({ length: dimensions }, () => Math.round(random() * 254 - 127));
    simd.query.set(query);
    plain.query.set(query);
    const a = Array.from(simd.dots(rows).subarray(0, rows));
    const b = Array.from(plain.dots(rows).subarray(0, rows));
    const expected = data.map((row) => row.reduce((sum, v, d) => sum + v * (query[d] ?? 0), 0));
    assert.deepEqual(a, expected, `SIMD at ${dimensions} dimensions`);
    assert.deepEqual(b, expected, `JavaScript at ${dimensions} dimensions`);
  }
});

interface Fixture {
  space: VectorSpace;
  vectors: RuleVectors;
  rules: Map<string, MatchableRule>;
  stored: Map<string, QuantizedVector>;
}

function fixture(seed: number, dimensions: number, count: number): Fixture {
  const random = prng(seed);
  const space = new VectorSpace();
  const vectors = new RuleVectors(space);
  const rules = new Map<string, MatchableRule>();
  const shared = ['shared one', 'shared two', 'shared three'];
  for (let i = 0; i < count; i += 1) {
    const questions = Array.from({ length: 1 + Math.floor(random() * 5) }, (_, j) => `q${i}.${j}`);
    if (random() < 0.1) questions.push(shared[Math.floor(random() * shared.length)] ?? '');
    const rule: MatchableRule = {
      ruleId: `r${i}`,
      ruleName: `rule ${i}`,
      questions,
      active: random() > 0.1,
      effectBeginMs: random() < 0.05 ? 2_000 : null,
      effectEndMs: random() < 0.05 ? 500 : null,
    };
    rules.set(rule.ruleId, rule);
    vectors.upsert(rule);
  }
  // Some rules removed and written again (rows freed and reused).
  for (let i = 0; i < count; i += 7) {
    const rule = rules.get(`r${i}`);
    vectors.remove(`r${i}`);
    if (rule && i % 14 === 0) {
      const again = { ...rule, questions: [...rule.questions, `again ${i}`] };
      rules.set(again.ruleId, again);
      vectors.upsert(again);
    } else rules.delete(`r${i}`);
  }
  const stored = new Map<string, QuantizedVector>();
  const texts = space.takeMissing(Infinity);
  // A few texts never get a vector.
  for (const text of texts.slice(3)) {
    const vector = quantize(randomVector(random, dimensions));
    stored.set(text, vector);
    space.set(text, vector);
  }
  return { space, vectors, rules, stored };
}

const dot = (a: QuantizedVector, b: QuantizedVector): number =>
  a.values.reduce((sum, v, d) => sum + v * (b.values[d] ?? 0), 0) * a.scale * b.scale;

/** Every eligible rule's best phrasing, by brute force. */
function bruteForce(
  f: Fixture,
  query: QuantizedVector,
  nowMs: number,
  leftOut?: { ruleId: string; text: string },
): VectorHit[] {
  const out: VectorHit[] = [];
  for (const rule of f.rules.values()) {
    const eligible =
      rule.active &&
      !(nowMs < (rule.effectBeginMs ?? -Infinity)) &&
      !(nowMs > (rule.effectEndMs ?? Infinity));
    if (!eligible) continue;
    let best: VectorHit | undefined;
    for (const text of new Set([rule.ruleName, ...rule.questions])) {
      if (leftOut && leftOut.ruleId === rule.ruleId && leftOut.text === text) continue;
      const vector = f.stored.get(text);
      if (!vector) continue;
      const cosine = dot(query, vector);
      if (!best || cosine > best.cosine) best = { ruleId: rule.ruleId, question: text, cosine };
    }
    if (best) out.push(best);
  }
  return out.sort((a, b) => b.cosine - a.cosine);
}

test('a search finds the rules a brute-force scan finds, in the same order', () => {
  const dimensions = 48;
  const f = fixture(5, dimensions, 400);
  const random = prng(99);
  for (let i = 0; i < 40; i += 1) {
    const query = quantize(randomVector(random, dimensions));
    const nowMs = i % 2 === 0 ? 1_000 : 3_000;
    const k = i % 3 === 0 ? 10 : 50;
    const expected = bruteForce(f, query, nowMs);
    const search = f.vectors.search(query, k, nowMs);
    assert.equal(search.hits.length, Math.min(k, expected.length));
    for (const [rank, hit] of search.hits.entries()) {
      const want = expected[rank];
      assert.ok(want, `rank ${rank}`);
      assert.ok(
        Math.abs(hit.cosine - want.cosine) < 1e-5,
        `rank ${rank}: ${hit.cosine} ${want.cosine}`,
      );
      const tied = [rank - 1, rank + 1].some(
        (other) => Math.abs(want.cosine - (expected[other]?.cosine ?? -2)) < 1e-5,
      );
      if (!tied) assert.equal(hit.ruleId, want.ruleId, `rank ${rank}`);
    }
    // Every rule's cosine, read after the search, is its best phrasing's.
    const byRule = new Map(expected.map((hit) => [hit.ruleId, hit]));
    for (const ruleId of f.rules.keys()) {
      const got = search.cosineOf(ruleId);
      const want = byRule.get(ruleId);
      assert.equal(got === undefined, want === undefined, ruleId);
      if (got && want) assert.ok(Math.abs(got.cosine - want.cosine) < 1e-5, ruleId);
    }
  }
});

test('a phrasing left out counts for no rule of its own but stays with the others', () => {
  const dimensions = 32;
  const f = fixture(8, dimensions, 200);
  const sharedRules = [...f.rules.values()].filter(
    (rule) => rule.active && rule.questions.some((q) => q.startsWith('shared')),
  );
  let checked = 0;
  for (const rule of [...f.rules.values()].slice(0, 60).concat(sharedRules)) {
    for (const text of rule.questions) {
      const row = f.space.rowOfText(text);
      if (row < 0 || !f.space.has(row)) continue;
      const query = f.space.vectorOf(row);
      const leftOut = { ruleId: rule.ruleId, text };
      const expected = bruteForce(f, query, 1_000, leftOut);
      const search = f.vectors.search(query, 10, 1_000, { ruleId: rule.ruleId, row });
      // Same cosines in the same order; the same rules unless the tenth ties with the next.
      const top = expected.slice(0, 10);
      assert.equal(search.hits.length, top.length);
      for (const [rank, hit] of search.hits.entries()) {
        assert.ok(Math.abs(hit.cosine - (top[rank]?.cosine ?? -2)) < 1e-5, `rank ${rank}`);
      }
      if (Math.abs((top[9]?.cosine ?? -2) - (expected[10]?.cosine ?? -2)) > 1e-5) {
        const ids = (hits: VectorHit[]) => hits.map((hit) => hit.ruleId).sort();
        assert.deepEqual(ids(search.hits), ids(top));
      }
      const own = expected.find((hit) => hit.ruleId === rule.ruleId)?.cosine ?? -2;
      assert.ok(Math.abs((search.cosineOf(rule.ruleId)?.cosine ?? -2) - own) < 1e-5);
      checked += 1;
    }
  }
  assert.ok(checked > 100, `${checked} phrasings left out`);
});

test('a search finds rules beyond the first rows taken when near rules are switched off', () => {
  const dimensions = 16;
  const space = new VectorSpace(dimensions);
  const vectors = new RuleVectors(space);
  const near = Array.from({ length: dimensions }, (_, d) => (d === 0 ? 1 : 0));
  // 200 rules switched off hold the nearest phrasings; the eligible ones are farther.
  for (let i = 0; i < 200; i += 1) {
    vectors.upsert({
      ruleId: `off${i}`,
      ruleName: `off ${i}`,
      questions: [],
      active: false,
      effectBeginMs: null,
      effectEndMs: null,
    });
    space.set(`off ${i}`, quantize(near.map((v, d) => v + (d === 1 ? i / 1000 : 0))));
  }
  for (let i = 0; i < 12; i += 1) {
    vectors.upsert({
      ruleId: `on${i}`,
      ruleName: `on ${i}`,
      questions: [],
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
    space.set(`on ${i}`, quantize(near.map((v, d) => v + (d === 2 ? 1 + i / 10 : 0))));
  }
  const search = vectors.search(quantize(near), 10, 0);
  assert.deepEqual(
    search.hits.map((hit) => hit.ruleId),
    Array.from({ length: 10 }, (_, i) => `on${i}`),
  );
  assert.equal(search.cosineOf('off3'), undefined, 'a rule switched off has no cosine');
});
