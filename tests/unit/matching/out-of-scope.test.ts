/**
 * Questions the knowledge base does not cover get the fallback (NONE), not a list of unrelated
 * rules; a one-character question is a fragment, never a confident answer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { matchableRule as rule } from '../../helpers/matchable-rule';

const NOW = Date.UTC(2026, 10, 23);

function kb(rules: MatchableRule[]) {
  const index = createRobotIndex();
  for (const r of rules) index.upsert(r);
  index.selfCalibrate(NOW);
  return index;
}

const shop = () =>
  kb([
    rule('gift', ['Do you sell gift cards?', 'Can I buy a gift card?']),
    rule('hours', ['What are your opening hours?', 'When are you open?']),
    rule('shipping', ['How long does shipping take?', 'When will my order arrive?']),
    rule('returns', ['How do I return an item?', 'Can I send something back?']),
    rule('payment', ['Which payment methods do you accept?', 'Can I pay with PayPal?']),
  ]);

const service = () =>
  kb([
    rule('refund', ['怎么退款', '退款多久到账', '申请退款']),
    rule('hours', ['你们几点开门', '营业时间是什么时候']),
    rule('card', ['我的银行卡丢了', '银行卡挂失']),
    rule('invoice', ['怎么开发票', '发票什么时候寄出']),
    rule('shipping', ['快递到哪了', '什么时候发货']),
    rule('returns', ['我要退货', '退货流程是什么']),
  ]);

test('a product the shop does not sell gets the fallback, not its gift cards', () => {
  const index = shop();
  for (const question of ['Do you sell laptops?', 'can i buy laptops']) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.equal(decision.kind, 'none', question);
  }
  // What it does sell is still found.
  const gift = index.match('Do you sell gift vouchers?', NOW, DEFAULT_MATCH_SETTINGS);
  assert.notEqual(gift.kind, 'none');
  assert.equal(gift.candidates[0]?.ruleId, 'gift');
});

test('a complaint against rules that share only the question frame (我要) gets the fallback', () => {
  const decision = service().match('我要投诉', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(decision.kind, 'none');
  for (const candidate of decision.candidates) assert.ok(candidate.score < 0.1, candidate.ruleId);
});

test('a one-character question is never BESTMATCH, nor scored as if it were', () => {
  const index = service();
  for (const question of ['退', '卡', '票']) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.notEqual(decision.kind, 'bestmatch', question);
    for (const candidate of decision.candidates) assert.ok(candidate.score <= 0.5, question);
  }
  // Even under a lenient robot setting.
  const lenient = { ...DEFAULT_MATCH_SETTINGS, bestmatchThreshold: 0.6, margin: 0 };
  assert.notEqual(index.match('退', NOW, lenient).kind, 'bestmatch');
  // A one-term question that is a rule's phrasing is still an exact match.
  const exact = kb([rule('refund', ['退款', '怎么退款'])]).match(
    '退款',
    NOW,
    DEFAULT_MATCH_SETTINGS,
  );
  assert.equal(exact.kind, 'bestmatch');
});

test('in-scope paraphrases keep their answers', () => {
  const index = service();
  const refund = index.match('退款要多久才能到账', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(refund.candidates[0]?.ruleId, 'refund');
  assert.notEqual(refund.kind, 'none');
  const hours = shop().match('what time are you open', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(hours.candidates[0]?.ruleId, 'hours');
  assert.notEqual(hours.kind, 'none');
});
