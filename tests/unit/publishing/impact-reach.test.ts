import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { RobotIndex } from '../../../electron/service/matching/types';
import { toMatchableRule } from '../../../electron/service/domain/rule-views';
import { compareSides, reachOf } from '../../../electron/service/publishing/impact';
import type { StoredRule } from '../../../electron/service/store/contract/records';
import { replayBetween, storedRule } from '../../helpers/impact-sides';
import { prng } from '../../helpers/prng';

const NOW = Date.UTC(2026, 0, 1);

/** A random knowledge base of English-like words and Han characters, and how to vary it. */
function world(seed: number) {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const letters = 'abcdefghiklmnoprstuw';
  const words = Array.from({ length: 300 }, () =>
    Array.from({ length: 4 + int(5) }, () => pick([...letters])).join(''),
  );
  const han = Array.from({ length: 200 }, (_, i) =>
    String.fromCodePoint(0x4e00 + 37 * i + int(30)),
  );
  const phrase = () =>
    random() < 0.5
      ? Array.from({ length: 2 + int(4) }, () => pick(words)).join(' ')
      : Array.from({ length: 3 + int(6) }, () => pick(han)).join('');
  let seq = 0;
  const rule = (id: string): StoredRule =>
    storedRule(seq++, id, {
      ruleName: `${phrase()} ${id}`,
      questions: Array.from({ length: 1 + int(4) }, phrase),
    });
  /** A rule edited as an editor would: phrasings, answer, validity. */
  const edit = (old: StoredRule): StoredRule => {
    const what = int(4);
    if (what === 0) return { ...old, questions: [...old.questions.slice(1), phrase()] };
    if (what === 1) return { ...old, answer: `${old.answer} (new)` };
    if (what === 2) return { ...old, active: !old.active };
    return { ...old, questions: old.questions.map((q) => (random() < 0.5 ? q : phrase())) };
  };
  /** A customer's question: a phrasing typed with a slip, a word dropped, or words at random. */
  const question = (rules: readonly StoredRule[]): string => {
    const source = pick(pick(rules).questions);
    const kind = int(4);
    if (kind === 0) return source;
    if (kind === 1) {
      const chars = [...source];
      const k = int(Math.max(1, chars.length - 1));
      [chars[k], chars[k + 1]] = [chars[k + 1] ?? '', chars[k] ?? ''];
      return chars.join('');
    }
    if (kind === 2) return source.split(' ').slice(1).join(' ') || source.slice(1);
    return phrase();
  };
  return { random, int, pick, rule, edit, question };
}

function indexOf(rules: readonly StoredRule[]): RobotIndex {
  const index = createRobotIndex({ selfCalibration: false });
  for (const rule of rules) index.upsert(toMatchableRule(rule));
  return index;
}

test('the questions no changed rule reaches keep their answer: the fast path counts what the full replay counts', async () => {
  let skipped = 0;
  let changedSeen = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const w = world(seed);
    const before = Array.from({ length: 150 }, (_, i) => w.rule(`r${i}`));
    // A few rules edited (a usual publish) in half the seeds, many in the others; some removed
    // and some added.
    const edits = seed % 2 === 0 ? 3 : 40;
    const after = before.map((rule) => rule);
    for (let k = 0; k < edits; k++) {
      const at = w.int(after.length);
      after[at] = w.edit(after[at] as StoredRule);
    }
    after.splice(w.int(after.length), 1);
    after.push(w.rule(`new${seed}`));
    const log = Array.from({ length: 600 }, (_, i) => ({
      text: w.question(i % 3 === 0 ? after : before),
      asks: 1 + w.int(5),
    }));
    const [a, b] = [indexOf(before), indexOf(after)];
    const replay = replayBetween([a, before], [b, after], log, NOW, DEFAULT_MATCH_SETTINGS);
    const reach = await reachOf({ index: a, stored: before }, { index: b, stored: after });
    assert.ok(reach, `seed ${seed}: the fast path applies`);
    const fast = await compareSides(replay(reach));
    const full = await compareSides(replay(null));
    assert.equal(full.matched, log.length);
    skipped += log.length - fast.matched;
    for (const kind of Object.keys(full.kinds) as (keyof typeof full.kinds)[]) {
      changedSeen += full.kinds[kind].questions;
      assert.deepEqual(fast.kinds[kind], full.kinds[kind], `seed ${seed}, ${kind}`);
    }
    assert.equal(fast.replayedAsks, full.replayedAsks);
  }
  // Not vacuous: answers changed, and the fast path left questions out.
  assert.ok(changedSeen > 0);
  assert.ok(skipped > 0);
});

test('other synonyms on one side replay every question', async () => {
  const w = world(99);
  const rules = Array.from({ length: 20 }, (_, i) => w.rule(`r${i}`));
  const a = indexOf(rules);
  const b = indexOf(rules);
  b.setSynonyms?.([['alpha', 'beta']]);
  assert.equal(await reachOf({ index: a, stored: rules }, { index: b, stored: rules }), null);
});

test('a changed rule found by substring replays every question', async () => {
  const w = world(7);
  const rules = Array.from({ length: 20 }, (_, i) => w.rule(`r${i}`));
  const changed = rules.map((rule, i) =>
    i === 3 ? { ...rule, matchPolicy: 'contains' as const } : rule,
  );
  const [a, b] = [indexOf(rules), indexOf(changed)];
  assert.equal(await reachOf({ index: a, stored: rules }, { index: b, stored: changed }), null);
});
