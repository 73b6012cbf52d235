/**
 * The matcher's obligations toward the contract, whatever its scoring: exact phrasings score 1
 * and win, only active rules in their window are ever returned, writes are followed at once,
 * scores stay in 0..1, RECOMMEND lists distinct rules in order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import { normalizeText } from '../../../electron/service/matching/normalize';
import type { MatchDecision, MatchableRule } from '../../../electron/service/matching/types';
import { matchableRule as rule } from '../../helpers/matchable-rule';

const NOW = Date.UTC(2026, 10, 22);

function kb(rules: MatchableRule[]) {
  const index = createRobotIndex();
  for (const r of rules) index.upsert(r);
  return index;
}

const returned = (decision: MatchDecision): string[] =>
  decision.kind === 'bestmatch'
    ? [decision.top.ruleId]
    : decision.kind === 'recommend'
      ? decision.items.map((item) => item.ruleId)
      : [];

const FAQ = [
  rule('refund', ['怎么退款', '退款多久到账', 'How long does a refund take?']),
  rule('hours', ['你们几点开门', '營業時間是什麼時候']),
  rule('reset', ['How do I reset my password?', 'I forgot my password']),
  rule('change', ['How do I change my password?']),
  rule('card', ['我的银行卡丢了', 'I lost my card']),
];

test('normalisation: width, case, punctuation, emoji, Traditional to Simplified', () => {
  assert.equal(normalizeText('ＨＥＬＬＯ，World！😀'), normalizeText('hello world'));
  assert.equal(normalizeText('營業時間'), normalizeText('营业时间'));
  assert.notEqual(normalizeText('not working'), normalizeText('working'));
});

test('a question equal to a phrasing after normalisation scores exactly 1 and is BESTMATCH', () => {
  const index = kb(FAQ);
  for (const [question, ruleId] of [
    ['怎么退款', 'refund'],
    ['营业时间是什么时候？', 'hours'],
    ['how do I RESET my password', 'reset'],
    ['ＩＬＯＳＴ my card'.replace('ＩＬＯＳＴ', 'I lost'), 'card'],
  ] as const) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.equal(decision.kind, 'bestmatch', question);
    if (decision.kind === 'bestmatch') {
      assert.equal(decision.top.ruleId, ruleId, question);
      assert.equal(decision.top.score, 1, question);
    }
  }
});

test('paraphrases and small typos still reach the right rule first', () => {
  const index = kb(FAQ);
  for (const [question, ruleId] of [
    ['refund take how long', 'refund'],
    ['I forgot my pasword', 'reset'],
    ['银行卡丢了怎么办', 'card'],
  ] as const) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.equal(decision.candidates[0]?.ruleId, ruleId, question);
  }
});

test('inactive rules and rules outside their window are never returned, even on an exact phrasing', () => {
  const index = kb([
    rule('off', ['怎么退款'], { active: false }),
    rule('future', ['你们几点开门'], { effectBeginMs: NOW + 1000 }),
    rule('past', ['I lost my card'], { effectEndMs: NOW - 1000 }),
    rule('open', ['I forgot my password'], { effectBeginMs: NOW - 1000, effectEndMs: NOW + 1000 }),
  ]);
  for (const question of ['怎么退款', '你们几点开门', 'I lost my card']) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.ok(
      returned(decision).every((id) => id === 'open'),
      question,
    );
    assert.ok(
      decision.candidates.every((c) => c.ruleId === 'open'),
      question,
    );
  }
  assert.deepEqual(returned(index.match('I forgot my password', NOW, DEFAULT_MATCH_SETTINGS)), [
    'open',
  ]);
});

test('upsert replaces a rule: its old phrasings stop matching it, its new ones do', () => {
  const index = kb(FAQ);
  index.upsert(rule('card', ['发票怎么开']));
  const old = index.match('I lost my card', NOW, DEFAULT_MATCH_SETTINGS);
  assert.ok(!returned(old).includes('card'));
  assert.ok(old.candidates.every((c) => c.ruleId !== 'card' || c.score < 1));
  const now = index.match('发票怎么开', NOW, DEFAULT_MATCH_SETTINGS);
  assert.deepEqual(returned(now), ['card']);
  assert.equal(index.size, FAQ.length);
});

test('remove forgets a rule; removing and adding it back restores its exact match', () => {
  const index = kb(FAQ);
  index.remove('card');
  assert.equal(index.size, FAQ.length - 1);
  assert.ok(!returned(index.match('I lost my card', NOW, DEFAULT_MATCH_SETTINGS)).includes('card'));
  index.remove('no-such-rule');
  index.upsert(rule('card', ['我的银行卡丢了', 'I lost my card']));
  const decision = index.match('I lost my card', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(decision.kind, 'bestmatch');
  assert.deepEqual(returned(decision), ['card']);
});

test('RECOMMEND lists at most N distinct rules by descending score; every score is in 0..1', () => {
  const index = kb(FAQ);
  const settings = { ...DEFAULT_MATCH_SETTINGS, maxRecommend: 1 };
  for (const question of ['how do i password', 'password', '退款 银行卡', 'xyz', '是什么']) {
    for (const s of [DEFAULT_MATCH_SETTINGS, settings]) {
      const decision = index.match(question, NOW, s);
      for (const candidate of decision.candidates) {
        assert.ok(candidate.score >= 0 && candidate.score <= 1, `${question}: ${candidate.score}`);
      }
      if (decision.kind === 'recommend') {
        const ids = decision.items.map((item) => item.ruleId);
        assert.ok(ids.length >= 1 && ids.length <= s.maxRecommend, question);
        assert.equal(new Set(ids).size, ids.length, question);
        const scores = decision.items.map((item) => item.score);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
          question,
        );
      }
    }
  }
});

test('a near tie is RECOMMEND of both rules when the margin asks for it', () => {
  const index = kb(FAQ);
  const ambiguous = index.match('how do i password', NOW, DEFAULT_MATCH_SETTINGS);
  assert.notEqual(ambiguous.kind, 'none');
  assert.deepEqual(
    new Set(ambiguous.candidates.slice(0, 2).map((c) => c.ruleId)),
    new Set(['reset', 'change']),
  );
  const strict = index.match('how do i password', NOW, {
    ...DEFAULT_MATCH_SETTINGS,
    margin: 0.9,
    recommendThreshold: 0.1,
  });
  assert.equal(strict.kind, 'recommend');
  assert.deepEqual(new Set(returned(strict).slice(0, 2)), new Set(['reset', 'change']));
});

test('a question in words the knowledge base has never seen is NONE', () => {
  const index = kb(FAQ);
  assert.equal(index.match('zebra quantum', NOW, DEFAULT_MATCH_SETTINGS).kind, 'none');
});

// One shared phrase ("是什么") with an otherwise unknown question used to reach BESTMATCH: the
// calibration now takes coverage as a logarithm and learns from such questions.
/** A shop's FAQ of realistic size: the FAQ above among forty other topics. */
function shopFaq() {
  const topics = [
    '发票',
    '运费',
    '优惠券',
    '积分',
    '会员',
    '快递',
    '退货',
    '换货',
    '保修',
    '发货',
    '订单',
    '地址',
    '支付',
    '分期',
    '赠品',
    '库存',
    '尺码',
    '颜色',
    '预售',
    '定金',
    '门店',
    '客服',
    '投诉',
    '评价',
    '包装',
    '自提',
    '海外',
    '关税',
    '礼品卡',
    '充值',
    '余额',
    '提现',
    '实名',
    '登录',
    '注册',
    '绑定',
    '解绑',
    '注销',
    '隐私',
    '协议',
  ];
  return kb([
    ...FAQ,
    ...topics.map((topic, i) =>
      rule(`t${i}`, [`${topic}怎么办理`, `${topic}有什么规定`, `关于${topic}的问题`]),
    ),
  ]);
}

test('an unrelated question sharing only a common phrase with one rule is NONE', () => {
  const question = '量子色动力学的渐近自由是什么';
  assert.equal(shopFaq().match(question, NOW, DEFAULT_MATCH_SETTINGS).kind, 'none');
  // With only five rules there is too little to tell chance from a match: a "did you mean" at
  // most, never an answer.
  const tiny = kb(FAQ).match(question, NOW, DEFAULT_MATCH_SETTINGS);
  assert.notEqual(tiny.kind, 'bestmatch');
  for (const candidate of tiny.candidates) assert.ok(candidate.score < 0.5);
});
