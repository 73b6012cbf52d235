/**
 * Repeated questions are answered from the recent-question cache; the cache must never give an
 * answer the index would not give now: after a write, across an effective-window boundary, under
 * other settings.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchDecision } from '../../../electron/service/matching/types';
import { matchableRule as rule } from '../../helpers/matchable-rule';

const NOW = Date.UTC(2026, 10, 23, 12);

const topOf = (decision: MatchDecision) =>
  decision.kind === 'bestmatch' ? decision.top.ruleId : decision.kind;

test('a repeated question gets the same answer, and a write changes it at once', () => {
  const index = createRobotIndex();
  index.upsert(rule('hours', ['你们几点开门', 'What are your opening hours?']));
  index.upsert(rule('refund', ['怎么退款']));
  const first = index.match('你们几点开门', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(topOf(first), 'hours');
  assert.deepEqual(index.match('你们几点开门', NOW, DEFAULT_MATCH_SETTINGS), first);
  index.upsert(rule('hours', ['营业时间']));
  index.upsert(rule('open', ['你们几点开门']));
  assert.equal(topOf(index.match('你们几点开门', NOW, DEFAULT_MATCH_SETTINGS)), 'open');
  index.remove('open');
  assert.notEqual(topOf(index.match('你们几点开门', NOW, DEFAULT_MATCH_SETTINGS)), 'open');
});

test('an answer asked before a rule enters or leaves its window is not reused after', () => {
  const index = createRobotIndex();
  const start = NOW + 60_000;
  const end = NOW + 120_000;
  index.upsert(rule('sale', ['双十一有什么活动'], { effectBeginMs: start, effectEndMs: end }));
  index.upsert(rule('other', ['有什么活动吗']));
  const ask = (at: number) => topOf(index.match('双十一有什么活动', at, DEFAULT_MATCH_SETTINGS));
  assert.notEqual(ask(NOW), 'sale');
  assert.equal(ask(start), 'sale');
  assert.equal(ask(start + 1), 'sale');
  assert.equal(ask(end), 'sale');
  assert.notEqual(ask(end + 1), 'sale');
  // And back in time (a clock set back): still right.
  assert.equal(ask(start + 2), 'sale');
  assert.notEqual(ask(NOW - 1), 'sale');
});

test('the decision follows the settings of each call', () => {
  const index = createRobotIndex();
  index.upsert(rule('reset', ['How do I reset my password?']));
  index.upsert(rule('change', ['How do I change my password?']));
  const question = 'password reset how';
  const strict = index.match(question, NOW, {
    ...DEFAULT_MATCH_SETTINGS,
    bestmatchThreshold: 0.99,
  });
  const lax = index.match(question, NOW, {
    ...DEFAULT_MATCH_SETTINGS,
    bestmatchThreshold: 0.01,
    recommendThreshold: 0.01,
    margin: 0,
  });
  assert.notEqual(strict.kind, 'bestmatch');
  assert.equal(lax.kind, 'bestmatch');
});
