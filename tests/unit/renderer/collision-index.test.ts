/**
 * The collision report by rule (the grid's marker, its dialog) and by answer (the try pane):
 * both rules of a finding are marked, a finding is said once, grouped by cause, and the try pane
 * lists only the findings between the rule answered (or recommended) and a rule competing for
 * the question.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type {
  CollisionFinding,
  RobotCollisions,
  TryCandidate,
  TryResult,
} from '../../../electron/service/console-types';
import {
  collisionsByRule,
  collisionsForAnswer,
  groupByCause,
} from '../../../renderer/features/collisions/collision-index';

const finding = (f: Omit<CollisionFinding, 'otherQuestion'> & { otherQuestion?: string }) => ({
  otherQuestion: f.question,
  ...f,
});

const REPORT: RobotCollisions = {
  probed: 12,
  complete: true,
  checkedAt: '2026-11-24T00:00:00.000Z',
  reused: false,
  findings: [
    finding({
      cause: 'asked-unanswered',
      ruleId: 'contact',
      ruleName: '联系客服',
      question: '怎么联系客服',
      otherRuleId: 'human',
      otherRuleName: '人工客服',
      score: 1,
    }),
    finding({
      cause: 'reads-like-other',
      ruleId: 'refund',
      ruleName: '退款',
      question: '发票怎么开具',
      otherRuleId: 'invoice',
      otherRuleName: '发票',
      otherQuestion: '发票怎么开',
      score: 0.8,
    }),
    finding({
      cause: 'near-duplicate',
      ruleId: 'lost',
      ruleName: '挂失',
      question: '我的银行卡丢了怎么办',
      otherRuleId: 'card',
      otherRuleName: '银行卡丢失',
      otherQuestion: '我的银行卡丢了该怎么办',
      score: 0.95,
    }),
    finding({
      cause: 'reads-like-other',
      ruleId: 'refund',
      ruleName: '退款',
      question: '退款退到哪里',
      otherRuleId: 'lost',
      otherRuleName: '挂失',
      score: 0.5,
    }),
  ],
};

const candidate = (ruleId: string, score: number): TryCandidate => ({
  ruleId,
  ruleName: ruleId,
  question: ruleId,
  score,
  parts: {},
});

function tried(
  decision: TryResult['decision'],
  candidates: TryCandidate[],
  items: string[] = [],
): TryResult {
  return {
    result: {
      answerType: decision === 'recommend' ? 'RECOMMEND' : 'BESTMATCH',
      answerContentType: 'TEXT',
      answer: '',
      score: candidates[0]?.score ?? 0,
      items:
        decision === 'recommend'
          ? items.map((ruleId) => ({ ruleId, question: ruleId, score: 0.5 }))
          : null,
      module: decision === 'none' ? 'NONE' : 'KB',
    },
    decision,
    candidates,
  };
}

test('both rules of a finding are marked, each from its side, with one key', () => {
  const byRule = collisionsByRule(REPORT);
  assert.deepEqual(
    [...byRule.keys()].sort(),
    ['card', 'contact', 'human', 'invoice', 'lost', 'refund'].sort(),
  );
  const [fromRefund] = byRule.get('refund') ?? [];
  const [fromInvoice] = byRule.get('invoice') ?? [];
  assert.equal(fromRefund?.otherRuleName, '发票');
  assert.equal(fromInvoice?.otherRuleId, 'refund');
  assert.equal(fromInvoice?.otherRuleName, '退款');
  assert.equal(fromRefund?.key, fromInvoice?.key);
  assert.equal(fromRefund?.finding, fromInvoice?.finding);
});

test('a rule’s collisions are grouped by cause, facts before risks', () => {
  const lost = collisionsByRule(REPORT).get('lost') ?? [];
  assert.deepEqual(
    groupByCause(lost).map((g) => [g.cause, g.collisions.length]),
    [
      ['reads-like-other', 1],
      ['near-duplicate', 1],
    ],
  );
});

test('the try pane: only findings between the rule answered and a rule competing for the question', () => {
  const byRule = collisionsByRule(REPORT);
  // 退款 answered, 发票 a close runner-up: their finding only, not 退款's with 挂失.
  const answered = collisionsForAnswer(
    byRule,
    tried('bestmatch', [candidate('refund', 0.97), candidate('invoice', 0.4)]),
  );
  assert.deepEqual(
    answered.map((c) => c.finding.question),
    ['发票怎么开具'],
  );
  // A runner-up's findings with others than the answer are not about this answer.
  const runnerUp = collisionsForAnswer(
    byRule,
    tried('bestmatch', [candidate('hours', 0.97), candidate('refund', 0.4)]),
  );
  assert.deepEqual(runnerUp, []);
  // Two rules recommended for the question: the finding between them, said once.
  const recommended = collisionsForAnswer(
    byRule,
    tried('recommend', [candidate('contact', 1), candidate('human', 1)], ['contact', 'human']),
  );
  assert.deepEqual(
    recommended.map((c) => [c.finding.cause, c.finding.ruleId]),
    [['asked-unanswered', 'contact']],
  );
  // No rule's answer (the fallback): nothing.
  assert.deepEqual(collisionsForAnswer(byRule, tried('none', [candidate('refund', 0.05)])), []);
});

test('an empty report marks nothing', () => {
  const none = collisionsByRule({
    probed: 0,
    complete: true,
    findings: [],
    checkedAt: '2026-11-24T00:00:00.000Z',
    reused: false,
  });
  assert.equal(none.size, 0);
});
