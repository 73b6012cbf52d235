import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeText } from '../../../electron/service/matching/normalize';
import { similarPhrasings } from '../../../electron/service/simgen/similar-phrasings';

test('proposals: synonyms, particles, word order, Traditional Chinese, typos', () => {
  const zh = similarPhrasings(['怎么退货', '登录密码忘了怎么办']);
  for (const expected of [
    '如何退货',
    '请问怎么退货',
    '退货怎么办',
    '怎麼退貨',
    '登陆密码忘了怎么办',
  ]) {
    assert.ok(zh.includes(expected), `${expected} in ${zh.join(' / ')}`);
  }
  assert.ok(!zh.some((text) => text.includes('如何办')), '怎么办 is one expression');
  const en = similarPhrasings(['How do I change my delivery address?']);
  for (const expected of [
    'How can I change my delivery address?',
    'How do I change my shipping address?',
    'How do I change my delivery adress',
  ]) {
    assert.ok(en.includes(expected), `${expected} in ${en.join(' / ')}`);
  }
});

test('never a phrasing the rule or the robot has, never twice, at most the limit', () => {
  const taken = new Set([normalizeText('如何退货')]);
  const made = similarPhrasings(['怎么退货', '怎样退货'], { taken, limit: 3 });
  assert.ok(made.length <= 3);
  assert.ok(!made.includes('如何退货'));
  assert.ok(!made.includes('怎样退货'));
  assert.equal(new Set(made).size, made.length);
  const withSynonyms = similarPhrasings(['充值失败'], { synonyms: [['充值', '充钱']] });
  assert.ok(withSynonyms.includes('充钱失败'));
});
