/**
 * The collision report: phrasings the engine finds closer to another rule than to their own,
 * and rules that are near duplicates of each other, from the same leave-one-out self-test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRobotIndex } from '../../../electron/service/matching/index';
import { matchableRule } from '../../helpers/matchable-rule';

/** Rule names are unique in a robot; here each is the rule's first phrasing. */
const rule = (ruleId: string, questions: string[]) =>
  matchableRule(ruleId, questions, { ruleName: questions[0] ?? ruleId });

const NOW = Date.UTC(2026, 10, 23);

function kb() {
  const index = createRobotIndex();
  index.upsert(rule('refund', ['怎么退款', '退款多久到账', '申请退款', '发票怎么开具']));
  index.upsert(rule('invoice', ['怎么开发票', '发票怎么开', '电子发票在哪里下载']));
  index.upsert(rule('hours', ['你们几点开门', '营业时间是什么时候']));
  index.upsert(rule('lost-card', ['我的银行卡丢了怎么办']));
  index.upsert(rule('card-lost', ['我的银行卡丢了该怎么办']));
  index.upsert(rule('reset', ['How do I reset my password?', 'I forgot my password']));
  return index;
}

test('a phrasing closer to another rule than to its own is reported with both rules', async () => {
  const report = await kb().collisions({ nowMs: NOW });
  assert.equal(report.complete, true);
  assert.equal(report.probed, 13);
  const misplaced = report.conflicts.find((c) => c.question === '发票怎么开具');
  assert.ok(misplaced, JSON.stringify(report.conflicts));
  assert.equal(misplaced.ruleId, 'refund');
  assert.equal(misplaced.otherRuleId, 'invoice');
  assert.ok(misplaced.otherScore > misplaced.ownScore);
  // Phrasings that find their own rule are not reported.
  assert.ok(!report.conflicts.some((c) => c.question === '申请退款'));
  assert.ok(!report.conflicts.some((c) => c.ruleId === 'hours'));
  // Sorted, most alike first.
  const scores = report.conflicts.map((c) => c.otherScore);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
});

test('near-duplicate rules are reported once per pair', async () => {
  const report = await kb().collisions({ nowMs: NOW });
  const pairs = report.duplicates.map((d) => [...d.ruleIds].sort().join('+'));
  assert.ok(pairs.includes('card-lost+lost-card'), JSON.stringify(report.duplicates));
  assert.equal(new Set(pairs).size, pairs.length);
  assert.ok(!pairs.some((pair) => pair.includes('hours')));
  for (const duplicate of report.duplicates) assert.ok(duplicate.score >= 0.9);
});

test('two rules with the same phrasing are duplicates at score 1', async () => {
  const index = kb();
  index.upsert(rule('hours-copy', ['营业时间是什么时候？', '周末开门吗']));
  const report = await index.collisions({ nowMs: NOW });
  const same = report.duplicates.find((d) => d.ruleIds.includes('hours-copy'));
  assert.ok(same);
  assert.equal(same.score, 1);
  assert.ok(same.ruleIds.includes('hours'));
});

test('a limit probes an even sample and says the report is incomplete', async () => {
  const report = await kb().collisions({ nowMs: NOW, limit: 4 });
  assert.equal(report.probed, 4);
  assert.equal(report.complete, false);
});
