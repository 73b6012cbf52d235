/**
 * A question contained in a longer phrasing of a rule, whose extra words carry the rule's
 * intent, is a "did you mean" at best: it explains too little of the rule.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { matchableRule as rule } from '../../helpers/matchable-rule';

const NOW = Date.UTC(2026, 10, 23);

function kb(rules: MatchableRule[], options: { selfCalibration?: boolean } = {}) {
  const index = createRobotIndex(options);
  for (const r of rules) index.upsert(r);
  if (options.selfCalibration !== false) index.selfCalibrate(NOW);
  return index;
}

const assistantRules = (): MatchableRule[] => [
  rule('translation', [
    '你叫什么名字翻译成英文',
    '把早上好翻译成英文',
    '谢谢用日语怎么说',
    '苹果的英文是什么',
    '帮我翻译这句话',
  ]),
  rule('flight', [
    '帮我订一张杭州到上海的机票',
    '查一下明天去北京的航班',
    '订机票',
    '飞广州的航班',
  ]),
  rule('weather', ['今天天气怎么样', '明天会下雨吗', '北京的天气预报', '这周气温多少']),
  rule('alarm', ['明天早上七点叫我起床', '定一个八点的闹钟', '取消闹钟']),
  rule('music', ['放一首周杰伦的歌', '播放音乐', '来点轻音乐']),
];

test('a question contained in another intent’s longer phrasing is not BESTMATCH', () => {
  const index = kb(assistantRules());
  for (const [question, rival] of [
    ['你叫什么名字', 'translation'],
    ['杭州到上海', 'flight'],
  ] as const) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.notEqual(decision.kind, 'bestmatch', question);
    const top = decision.candidates[0];
    assert.equal(top?.ruleId, rival, question);
    assert.ok((top?.score ?? 1) <= 0.5, `${question}: ${top?.score}`);
    // Still offered: the rule is related, the user may mean it.
    assert.equal(decision.kind, 'recommend', question);
  }
});

test('questions that say what the rule is about keep their BESTMATCH', () => {
  const index = kb(assistantRules());
  for (const [question, ruleId] of [
    ['晚上好翻译成英文', 'translation'],
    ['帮我订一张去上海的机票', 'flight'],
    ['明天早上八点叫我起床', 'alarm'],
  ] as const) {
    const decision = index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
    assert.equal(decision.kind, 'bestmatch', question);
    if (decision.kind === 'bestmatch') assert.equal(decision.top.ruleId, ruleId, question);
  }
});

test('the limit is the knowledge base’s: an index of near-paraphrases (small talk) keeps its matches', () => {
  const index = kb(assistantRules(), { selfCalibration: false });
  const top = index.match('你叫什么名字', NOW, DEFAULT_MATCH_SETTINGS).candidates[0];
  assert.ok((top?.score ?? 0) > 0.5, String(top?.score));
});
