import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RobotCollisions } from '../../../electron/service/console-types';
import { collisionsByRule } from '../../../renderer/features/collisions/collision-index';

const REPORT: RobotCollisions = {
  probed: 12,
  complete: true,
  checkedAt: '2026-11-24T00:00:00.000Z',
  reused: false,
  conflicts: [
    {
      ruleId: 'refund',
      ruleName: '退款',
      question: '发票怎么开具',
      otherRuleId: 'invoice',
      otherRuleName: '发票',
      otherQuestion: '发票怎么开',
      otherScore: 0.8,
      ownScore: 0.3,
    },
  ],
  duplicates: [
    {
      ruleIds: ['lost', 'card'],
      ruleNames: ['挂失', '银行卡丢失'],
      questions: ['我的银行卡丢了怎么办', '我的银行卡丢了该怎么办'],
      score: 0.95,
    },
  ],
};

test('both rules of a conflict and of a near-duplicate pair are marked, each from its side', () => {
  const byRule = collisionsByRule(REPORT);
  assert.deepEqual([...byRule.keys()].sort(), ['card', 'invoice', 'lost', 'refund']);
  const [loses] = byRule.get('refund') ?? [];
  const [takes] = byRule.get('invoice') ?? [];
  assert.equal(loses?.kind, 'loses');
  assert.equal(loses?.question, '发票怎么开具');
  assert.equal(loses?.otherRuleName, '发票');
  assert.equal(takes?.kind, 'takes');
  assert.equal(takes?.question, '发票怎么开');
  assert.equal(takes?.otherQuestion, '发票怎么开具');
  assert.equal(takes?.otherRuleId, 'refund');
  // One finding, said once where both rules are listed together (the try pane).
  assert.equal(loses?.finding, takes?.finding);
  const [lost] = byRule.get('lost') ?? [];
  const [card] = byRule.get('card') ?? [];
  assert.equal(lost?.kind, 'duplicate');
  assert.equal(lost?.otherQuestion, '我的银行卡丢了该怎么办');
  assert.equal(card?.otherRuleName, '挂失');
  assert.equal(lost?.finding, card?.finding);
  assert.notEqual(lost?.finding, loses?.finding);
});

test('an empty report marks nothing', () => {
  const none = collisionsByRule({
    probed: 0,
    complete: true,
    conflicts: [],
    duplicates: [],
    checkedAt: '2026-11-24T00:00:00.000Z',
    reused: false,
  });
  assert.equal(none.size, 0);
});
