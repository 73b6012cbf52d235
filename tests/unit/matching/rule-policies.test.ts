import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import { loadRobotIndex, saveRobotIndex } from '../../../electron/service/matching/index';
import { containsKey } from '../../../electron/service/matching/rule-policies';
import type { MatchableRule } from '../../../electron/service/matching/types';

const rule = (ruleId: string, questions: string[], more: Partial<MatchableRule> = {}) => ({
  ruleId,
  ruleName: ruleId,
  questions,
  active: true,
  effectBeginMs: null,
  effectEndMs: null,
  ...more,
});

test('containment is on word boundaries in spaced scripts, anywhere in Han text', () => {
  assert.ok(containsKey('can i talk to a human agent', 'human agent'));
  assert.ok(!containsKey('inhuman agents', 'human agent'));
  assert.ok(containsKey('我要转人工客服', '转人工'));
  assert.ok(containsKey('a card b', 'card'));
  assert.ok(!containsKey('discard', 'card'));
  assert.ok(!containsKey('anything', ''));
});

test('policies decide, survive a saved index, and cost nothing when absent', () => {
  const index = createRobotIndex();
  index.upsert(rule('hours', ['opening hours'], { matchPolicy: 'exact' }));
  index.upsert(rule('agent', ['转人工', 'human agent'], { matchPolicy: 'contains' }));
  index.upsert(
    rule('cancel', ['how do I cancel my order'], { negativeKeywords: ['subscription'] }),
  );
  index.upsert(rule('off', ['转人工服务'], { matchPolicy: 'contains', active: false }));
  const ask = (question: string, at = 0) => index.match(question, at, DEFAULT_MATCH_SETTINGS);

  const exact = ask('Opening hours!');
  assert.equal(exact.kind, 'bestmatch');
  assert.equal(exact.kind === 'bestmatch' && exact.top.ruleId, 'hours');
  assert.ok(!ask('opening hours on sunday').candidates.some((c) => c.ruleId === 'hours'));

  const contains = ask('机器人听不懂，我要转人工服务');
  assert.equal(contains.kind === 'bestmatch' && contains.top.ruleId, 'agent');
  assert.equal(contains.kind === 'bestmatch' && contains.top.keyword, '转人工');

  const refused = ask('how do I cancel my order subscription');
  assert.ok(!refused.candidates.some((c) => c.ruleId === 'cancel'));
  assert.deepEqual(refused.excluded, [{ ruleId: 'cancel', keyword: 'subscription' }]);

  const reopened = loadRobotIndex(saveRobotIndex(index) as Uint8Array<ArrayBuffer>);
  assert.ok(reopened);
  const again = reopened.match('我要转人工', 0, DEFAULT_MATCH_SETTINGS);
  assert.equal(again.kind === 'bestmatch' && again.top.ruleId, 'agent');
  assert.equal(
    reopened.match('opening hours on sunday', 0, DEFAULT_MATCH_SETTINGS).kind === 'bestmatch' &&
      true,
    false,
  );

  // Back to the default: a similarity candidate again.
  index.upsert(rule('hours', ['opening hours']));
  assert.ok(ask('what are your opening hours').candidates.some((c) => c.ruleId === 'hours'));
});
