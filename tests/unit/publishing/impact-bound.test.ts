import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { RobotIndex } from '../../../electron/service/matching/types';
import { toMatchableRule } from '../../../electron/service/domain/rule-views';
import { compareSides, reachOf } from '../../../electron/service/publishing/impact';
import { ReplayPlan } from '../../../electron/service/publishing/impact-bound';
import type { StoredRule } from '../../../electron/service/store/contract/records';
import { replayBetween, storedRule } from '../../helpers/impact-sides';
import { prng } from '../../helpers/prng';

const NOW = Date.UTC(2026, 0, 1);
const SETTINGS = DEFAULT_MATCH_SETTINGS;

/** A random knowledge base over a small vocabulary (frame-like words repeat everywhere). */
function world(seed: number) {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const letters = 'abcdefghiklmnoprstuw';
  const words = Array.from({ length: 120 }, () =>
    Array.from({ length: 3 + int(5) }, () => pick([...letters])).join(''),
  );
  const frame = ['how', 'can', 'i', 'my', 'do', 'what', 'is', 'the'];
  const han = Array.from({ length: 80 }, (_, i) => String.fromCodePoint(0x4e00 + 37 * i + int(30)));
  const phrase = () =>
    random() < 0.6
      ? [pick(frame), ...Array.from({ length: 1 + int(4) }, () => pick(words))].join(' ')
      : Array.from({ length: 3 + int(5) }, () => pick(han)).join('');
  let seq = 0;
  const rule = (id: string): StoredRule =>
    storedRule(seq++, id, {
      ruleName: `${phrase()} ${id}`,
      active: random() < 0.95,
      questions: Array.from({ length: 1 + int(4) }, phrase),
    });
  const answerEdit = (old: StoredRule): StoredRule => ({ ...old, answer: `${old.answer}+` });
  const anyEdit = (old: StoredRule): StoredRule => {
    const what = int(4);
    if (what === 0) return { ...old, questions: [...old.questions.slice(1), phrase()] };
    if (what === 1) return answerEdit(old);
    if (what === 2) return { ...old, active: !old.active };
    return { ...old, questions: old.questions.map((q) => (random() < 0.5 ? q : phrase())) };
  };
  /** A customer's question: a phrasing, a phrasing with a slip or a word less, or at random. */
  const question = (source: string): string => {
    const kind = int(5);
    if (kind <= 1) return source;
    if (kind === 2) {
      const chars = [...source];
      const k = int(Math.max(1, chars.length - 1));
      [chars[k], chars[k + 1]] = [chars[k + 1] ?? '', chars[k] ?? ''];
      return chars.join('');
    }
    if (kind === 3) return source.split(' ').slice(1).join(' ') || source.slice(1);
    return phrase();
  };
  return { random, int, pick, rule, answerEdit, anyEdit, question };
}

const matchable = (rule: StoredRule) => toMatchableRule(rule);

function indexOf(rules: readonly StoredRule[], selfCalibration: boolean): RobotIndex {
  const index = createRobotIndex({ selfCalibration });
  for (const rule of rules) index.upsert(matchable(rule));
  return index;
}

/**
 * A published side (built from its rules) and a draft (the published rules, then the edits
 * applied one by one, as an editor's draft index follows them), and a log of questions mostly
 * about the edited rules.
 */
function scenario(seed: number, edits: number, answersOnly: boolean, selfCalibration: boolean) {
  const w = world(seed);
  const before = Array.from({ length: 120 }, (_, i) => w.rule(`r${i}`));
  const after = [...before];
  const edited = new Set<number>();
  for (let k = 0; k < edits; k++) {
    const at = w.int(after.length);
    edited.add(at);
    const old = after[at] as StoredRule;
    after[at] = answersOnly ? w.answerEdit(old) : w.anyEdit(old);
  }
  const a = indexOf(before, selfCalibration);
  const b = indexOf(before, selfCalibration);
  for (const at of edited) b.upsert(matchable(after[at] as StoredRule));
  if (!answersOnly) {
    const gone = after.splice(w.int(after.length), 1)[0] as StoredRule;
    b.remove(gone.ruleId);
    const added = w.rule(`new${seed}`);
    after.push(added);
    b.upsert(matchable(added));
  }
  if (selfCalibration) {
    a.selfCalibrate?.(NOW);
    b.selfCalibrate?.(NOW);
  }
  const targets = [...edited].map((at) => after[at] as StoredRule);
  const log = Array.from({ length: 500 }, (_, i) => {
    const rule = i % 2 === 0 && targets.length > 0 ? w.pick(targets) : w.pick(before);
    return { text: w.question(w.pick([rule.ruleName, ...rule.questions])), asks: 1 + w.int(5) };
  });
  return { before, after, a, b, log };
}

async function boundEqualsFull(
  seed: number,
  edits: number,
  answersOnly: boolean,
  calibrated: boolean,
) {
  const { before, after, a, b, log } = scenario(seed, edits, answersOnly, calibrated);
  try {
    const replay = replayBetween([a, before], [b, after], log, NOW, SETTINGS);
    const plan = await reachOf({ index: a, stored: before }, { index: b, stored: after });
    if (plan === null) return null;
    assert.ok(plan instanceof ReplayPlan);
    const bound = await compareSides(replay(plan));
    const full = await compareSides(replay(null));
    assert.equal(full.matched, log.length);
    let changed = 0;
    for (const kind of Object.keys(full.kinds) as (keyof typeof full.kinds)[]) {
      changed += full.kinds[kind].questions;
      assert.deepEqual(bound.kinds[kind], full.kinds[kind], `seed ${seed}, ${kind}`);
    }
    assert.equal(bound.replayedAsks, full.replayedAsks);
    return { changed, skipped: log.length - bound.matched };
  } finally {
    a.close?.();
    b.close?.();
  }
}

test('answers changed alone: the bound path counts exactly what the full replay counts, asking few questions', async () => {
  let changed = 0;
  let skipped = 0;
  for (let seed = 1; seed <= 12; seed++) {
    // A few rules (a usual publish), 30 (bounded rule by rule), or past CEILING_RULES (the
    // from side asked once).
    const edits = seed % 2 === 0 ? 3 : seed % 4 === 1 ? 30 : 200;
    const result = await boundEqualsFull(seed, edits, true, seed % 3 === 0);
    assert.ok(result, `seed ${seed}: the same rules have the same calibration`);
    changed += result.changed;
    skipped += result.skipped;
  }
  // Not vacuous: answers changed, and most questions were not asked (none had a term left out).
  assert.ok(changed > 0);
  assert.ok(skipped > 12 * 500 * 0.3, `${skipped} questions left out`);
});

test('answers, phrasings and validity changed, rules added and removed: the bound path counts what the full replay counts', async () => {
  let changed = 0;
  for (let seed = 21; seed <= 30; seed++) {
    const result = await boundEqualsFull(seed, seed % 2 === 0 ? 3 : 30, false, false);
    assert.ok(result);
    changed += result.changed;
  }
  assert.ok(changed > 0);
});

test('the ceiling is never below the score a rule gets as the top candidate', () => {
  let tops = 0;
  for (let seed = 41; seed <= 46; seed++) {
    const w = world(seed);
    const rules = Array.from({ length: 150 }, (_, i) => w.rule(`r${i}`));
    const index = indexOf(rules, seed % 2 === 0);
    index.selfCalibrate?.(NOW);
    try {
      for (let i = 0; i < 400; i++) {
        const rule = w.pick(rules);
        const question = w.question(w.pick([rule.ruleName, ...rule.questions]));
        const decision = index.decide?.(question, NOW, SETTINGS);
        const top = decision?.candidates[0];
        if (!top) continue;
        tops++;
        // Tight (atLeast 0: fuse.js's similarity always computed, every rule scored); with
        // the threshold, the rules sharing no word are left out below it.
        const ceiling = index.scoreCeiling?.(question, [top.ruleId], NOW, 0);
        assert.ok(ceiling !== undefined && ceiling >= top.score, `${question}: ${ceiling}`);
        const threshold = SETTINGS.bestmatchThreshold;
        const loose = index.scoreCeiling?.(question, [top.ruleId], NOW, threshold);
        if (top.score >= threshold) assert.ok(loose !== undefined && loose >= top.score);
        const others = rules.filter(() => w.random() < 0.2).map((r) => r.ruleId);
        const best = Math.max(
          0,
          ...(decision?.candidates ?? [])
            .filter((c, k) => k === 0 && others.includes(c.ruleId))
            .map((c) => c.score),
        );
        const many = index.scoreCeiling?.(question, others, NOW, threshold);
        if (best >= threshold) assert.ok(many !== undefined && many >= best, question);
        // A rule that is not eligible can never answer.
        const inactive = rules.find((r) => !r.active);
        if (inactive) assert.equal(index.scoreCeiling?.(question, [inactive.ruleId], NOW), 0);
      }
    } finally {
      index.close?.();
    }
  }
  assert.ok(tops > 1000);
});

test('a policy in the index leaves the ceiling undecided: the question is asked', () => {
  const w = world(5);
  const rules = Array.from({ length: 20 }, (_, i) => w.rule(`r${i}`));
  const index = indexOf(rules, false);
  index.upsert({ ...matchable(rules[0] as StoredRule), matchPolicy: 'exact' });
  assert.equal(index.scoreCeiling?.('anything at all', ['r1'], NOW), undefined);
});
