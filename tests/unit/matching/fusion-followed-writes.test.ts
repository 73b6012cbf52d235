/**
 * A write reaches the vectors only in the embedder's turn (decision 160): until then the rule
 * is left out of the semantic channel, never found by the vectors of texts it no longer has, and
 * once the writes are followed and the new texts embedded, the fused answers are those of a
 * channel started afresh on the same rules.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import { SemanticIndex } from '../../../electron/service/matching/semantic-index';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { VectorSpace, quantize } from '../../../electron/service/matching/vector-space';
import { knownQualityVector } from '../../helpers/embedding-server';
import { madeUpWord, prng } from '../../helpers/prng';

const NOW = Date.UTC(2025, 0, 1);
const DIMENSIONS = 32;

/** A search's hits, rules of the same cosine by id. */
const hitsOf = (semantic: SemanticIndex, vector: number[]) =>
  semantic
    .search(vector, NOW)
    .hits.sort((a, b) => b.cosine - a.cosine || a.ruleId.localeCompare(b.ruleId));

function robot() {
  const random = prng(7);
  const labels = new Map<string, string>();
  const phrase = (label: string) => {
    const text = Array.from({ length: 3 }, () => madeUpWord(random)).join(' ');
    labels.set(text, label);
    labels.set(`${text} please`, label);
    return text;
  };
  const rule = (ruleId: string, questions: string[]): MatchableRule => ({
    ruleId,
    ruleName: questions[0] ?? '',
    questions,
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
  });
  const rules = Array.from({ length: 40 }, (_, i) =>
    rule(`rule-${i}`, [phrase(`rule-${i}`), phrase(`rule-${i}`)]),
  );
  const index = createRobotIndex();
  for (const written of rules) index.upsert(written);
  index.selfCalibrate(NOW);
  const vectorOf = (text: string) => knownQualityVector(text, labels.get(text), 0.8, DIMENSIONS);
  const embed = (space: VectorSpace) => {
    for (const text of space.takeMissing(Infinity)) space.set(text, quantize(vectorOf(text)));
  };
  return { index, rules, rule, phrase, vectorOf, embed };
}

test('a rule written after its vectors were applied is never found by its old vectors', () => {
  const { index, rules, rule, phrase, vectorOf, embed } = robot();
  const space = new VectorSpace(DIMENSIONS);
  let told = 0;
  const semantic = new SemanticIndex(index, space, () => (told += 1));
  embed(space);
  assert.equal(told, 0, 'the rules held when attached are not writes');
  const [edited, removed] = rules as [MatchableRule, MatchableRule];
  const oldQuestion = `${edited.questions[0]} please`;
  const removedQuestion = `${removed.questions[0]} please`;
  const before = semantic.search(vectorOf(oldQuestion), NOW);
  assert.equal(before.hits[0]?.ruleId, edited.ruleId, 'found by its phrasing before the edit');

  // Rephrased on another topic entirely, and another rule deleted: neither is followed yet.
  index.upsert(rule(edited.ruleId, [phrase('elsewhere'), phrase('elsewhere')]));
  index.remove(removed.ruleId);
  assert.equal(told, 2);
  assert.equal(semantic.unfollowed, 2);
  assert.equal(semantic.complete, false);
  for (const question of [oldQuestion, removedQuestion]) {
    const search = semantic.search(vectorOf(question), NOW);
    const found = search.hits.map((hit) => hit.ruleId);
    assert.ok(!found.includes(edited.ruleId), `${question}: the edited rule's old vectors`);
    assert.ok(!found.includes(removed.ruleId), `${question}: the deleted rule's vectors`);
    assert.equal(search.cosineOf(edited.ruleId), undefined);
    assert.equal(search.cosineOf(removed.ruleId), undefined);
  }

  // Followed (in steps, as the embedder does) and embedded: the vectors say what the rules do.
  let steps = 0;
  while (!semantic.followWrites(() => steps++ % 2 === 1));
  assert.equal(semantic.unfollowed, 0);
  embed(space);
  assert.equal(semantic.complete, true);
  const after = semantic.search(vectorOf(oldQuestion), NOW);
  assert.notEqual(after.hits[0]?.ruleId, edited.ruleId);
  assert.equal(after.cosineOf(removed.ruleId), undefined);
  semantic.close();
});

test('once the writes are followed the fused answers are those of a fresh start', () => {
  const { index, rules, rule, phrase, vectorOf, embed } = robot();
  const space = new VectorSpace(DIMENSIONS);
  const semantic = new SemanticIndex(index, space);
  embed(space);
  semantic.calibrate(NOW, DEFAULT_MATCH_SETTINGS);
  const questions = rules.map((written) => `${written.questions[0]} please`);
  // Edits, a rename to a phrasing another rule has, deletes and new rules, some written twice.
  for (let i = 0; i < 12; i += 1) {
    const written = rules[i] as MatchableRule;
    if (i % 4 === 0) index.remove(written.ruleId);
    else if (i % 4 === 1) {
      index.upsert(rule(written.ruleId, [phrase(written.ruleId), phrase(written.ruleId)]));
    } else if (i % 4 === 2) {
      index.upsert(rule(written.ruleId, [...written.questions, rules[20 + i]?.questions[0] ?? '']));
    } else index.upsert({ ...written, active: false });
    const added = rule(`new-${i}`, [phrase(`new-${i}`)]);
    index.upsert(added);
    if (i % 3 === 0) index.upsert(rule(added.ruleId, [...added.questions, phrase(`new-${i}`)]));
    questions.push(`${added.questions[0]} please`);
  }
  index.selfCalibrate(NOW);
  while (!semantic.followWrites());
  embed(space);
  semantic.calibrate(NOW, DEFAULT_MATCH_SETTINGS);

  const fresh = new SemanticIndex(index, new VectorSpace(DIMENSIONS));
  embed(fresh.space);
  fresh.calibrate(NOW, DEFAULT_MATCH_SETTINGS);
  assert.deepEqual(semantic.calibration, fresh.calibration);
  assert.deepEqual(semantic.vectors.coverage(), fresh.vectors.coverage());
  for (const question of questions) {
    const vector = vectorOf(question);
    // The channel itself (the fusion may weigh it little on rules this easy to tell apart); a
    // phrasing two rules share gives both the same cosine, in the order they came to hold it.
    assert.deepEqual(hitsOf(semantic, vector), hitsOf(fresh, vector), question);
    const followed = index.match(question, NOW, DEFAULT_MATCH_SETTINGS, semantic.channel(vector));
    const started = index.match(question, NOW, DEFAULT_MATCH_SETTINGS, fresh.channel(vector));
    assert.deepEqual(followed, started, question);
  }
  semantic.close();
  fresh.close();
});
