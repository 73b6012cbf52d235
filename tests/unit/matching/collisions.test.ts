/**
 * The collision report: what it says about asking is what asking gives (each phrasing is asked
 * as the API asks it), rules told apart by a template's slot word are not in conflict, and the
 * risks the leave-one-out self-test sees are reported as risks, by cause.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../../electron/service/matching/index';
import type {
  MatchableRule,
  MatchSettings,
  RobotIndex,
  RuleCollision,
} from '../../../electron/service/matching/types';
import { PLANTED, shopKnowledgeBase } from '../../fixtures/shop-kb';
import { claimHolds } from '../../helpers/collision-claims';
import { matchableRule } from '../../helpers/matchable-rule';

/** Rule names are unique in a robot; here each is the rule's first phrasing. */
const rule = (ruleId: string, questions: string[], extra: Partial<MatchableRule> = {}) =>
  matchableRule(ruleId, questions, { ruleName: questions[0] ?? ruleId, ...extra });

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

function assertNoFalseClaim(
  index: RobotIndex,
  findings: readonly RuleCollision[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
): number {
  let claims = 0;
  for (const finding of findings) {
    const holds = claimHolds(index, finding, settings, NOW);
    if (holds === null) continue;
    claims += 1;
    assert.ok(holds, `false claim: ${JSON.stringify(finding)}`);
  }
  return claims;
}

const pair = (f: RuleCollision) => [f.ruleId, f.otherRuleId].sort().join('+');

test('a phrasing in the wrong rule is a risk, never a claim that asking it gets the other rule', async () => {
  const index = kb();
  const report = await index.collisions({ nowMs: NOW });
  assert.equal(report.complete, true);
  assert.equal(report.probed, 13);
  // Asked as written, 发票怎么开具 gets its own rule (an exact phrasing): nothing says otherwise.
  const decision = index.match('发票怎么开具', NOW, DEFAULT_MATCH_SETTINGS);
  assert.equal(decision.kind === 'bestmatch' && decision.top.ruleId, 'refund');
  const misplaced = report.findings.filter((f) => f.question === '发票怎么开具');
  assert.ok(misplaced.length > 0, JSON.stringify(report.findings));
  for (const finding of misplaced) {
    assert.ok(['reads-like-other', 'near-duplicate'].includes(finding.cause), finding.cause);
    assert.equal(finding.otherRuleId, 'invoice');
    assert.equal(finding.asked, undefined);
  }
  assert.ok(!report.findings.some((f) => f.cause === 'asked-elsewhere'));
  assert.ok(!report.findings.some((f) => f.ruleId === 'hours' || f.otherRuleId === 'hours'));
  assertNoFalseClaim(index, report.findings);
});

test('near-duplicate rules are reported once per pair, as alike as 0.9 or more', async () => {
  const report = await kb().collisions({ nowMs: NOW });
  const duplicates = report.findings.filter((f) => f.cause === 'near-duplicate');
  const pairs = duplicates.map(pair);
  assert.ok(pairs.includes('card-lost+lost-card'), JSON.stringify(duplicates));
  assert.equal(new Set(pairs).size, pairs.length);
  for (const duplicate of duplicates) assert.ok(duplicate.score >= 0.9);
  // Facts first, then risks; by score within a cause.
  const order = report.findings.map((f) => f.cause);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => causeRank(a) - causeRank(b)),
  );
});

const causeRank = (cause: RuleCollision['cause']) =>
  [
    'asked-elsewhere',
    'asked-unanswered',
    'slot-unnamed',
    'reads-like-other',
    'near-duplicate',
  ].indexOf(cause);

test('a phrasing two rules share is a fact, checked by asking: once, with both rules', async () => {
  const index = kb();
  index.upsert(rule('hours-copy', ['营业时间是什么时候？', '周末开门吗']));
  const report = await index.collisions({ nowMs: NOW });
  const shared = report.findings.filter((f) => f.cause === 'asked-unanswered');
  assert.equal(shared.length, 1, JSON.stringify(report.findings));
  assert.deepEqual(pair(shared[0] as RuleCollision), 'hours+hours-copy');
  assert.equal(shared[0]?.score, 1);
  assert.equal(shared[0]?.asked?.decision, 'recommend');
  assert.ok(assertNoFalseClaim(index, report.findings) >= 1);
});

test('a phrasing holding its own rule’s negative keyword gets the other rule’s answer, with the robot’s settings', async () => {
  const index = createRobotIndex();
  // The robot answers outright from 0.85: the check asks with its settings, not the defaults.
  const settings = { ...DEFAULT_MATCH_SETTINGS, bestmatchThreshold: 0.85 };
  index.upsert(
    rule('pay', ['支持哪些支付方式', '能用微信支付吗', '支持花呗分期付款吗'], {
      negativeKeywords: ['花呗'],
    }),
  );
  index.upsert(rule('huabei', ['花呗分期付款支持吗', '支持花呗分期吗', '花呗分期怎么操作']));
  const asDefault = await index.collisions({ nowMs: NOW });
  assert.equal(asDefault.findings.find((f) => f.ruleId === 'pay')?.cause, 'asked-unanswered');
  const report = await index.collisions({ nowMs: NOW, settings });
  const elsewhere = report.findings.find((f) => f.cause === 'asked-elsewhere');
  assert.ok(elsewhere, JSON.stringify(report.findings));
  assert.equal(elsewhere.ruleId, 'pay');
  assert.equal(elsewhere.question, '支持花呗分期付款吗');
  assert.equal(elsewhere.otherRuleId, 'huabei');
  assert.equal(elsewhere.keyword, '花呗');
  assert.deepEqual(elsewhere.asked, {
    question: '支持花呗分期付款吗',
    decision: 'bestmatch',
    ruleId: 'huabei',
  });
  assert.ok(assertNoFalseClaim(index, report.findings, settings) >= 1);
});

test('rules switched off are not checked', async () => {
  const index = kb();
  index.upsert(rule('hours-copy', ['营业时间是什么时候？', '周末开门吗'], { active: false }));
  const report = await index.collisions({ nowMs: NOW });
  assert.equal(report.probed, 13);
  assert.ok(!report.findings.some((f) => [f.ruleId, f.otherRuleId].includes('hours-copy')));
});

test('templated rules told apart by their product word are not in conflict', async () => {
  const index = createRobotIndex();
  const products = ['服装', '鞋靴', '箱包', '手机', '电脑', '家电'];
  const templates = [
    ['退货政策', '{p}可以退货吗', '{p}怎么退货', '{p}退货政策是什么', '买的{p}不想要了能退吗'],
    ['换货政策', '{p}可以换货吗', '{p}怎么换货', '{p}换货流程'],
    ['发货时间', '{p}什么时候发货', '{p}下单后多久发货', '{p}几天能发出'],
    ['保修政策', '{p}保修多久', '{p}坏了保修吗', '{p}的保修政策'],
  ];
  for (const [topic = '', ...phrasings] of templates) {
    for (const p of products) {
      index.upsert(
        matchableRule(
          `${p}${topic}`,
          phrasings.map((text) => text.replace('{p}', p)),
          {
            ruleName: `${p}${topic}`,
          },
        ),
      );
    }
  }
  const report = await index.collisions({ nowMs: NOW });
  const topicOf = (id: string) => id.slice(2);
  const siblings = report.findings.filter((f) => topicOf(f.ruleId) === topicOf(f.otherRuleId));
  assert.deepEqual(siblings, [], 'rules of one template, told apart by the product');
  assertNoFalseClaim(index, report.findings);
});

test('two rules told apart by a word: a finding only when the question without it gets one outright', async () => {
  const index = createRobotIndex();
  index.upsert(
    matchableRule(
      'transfer',
      ['How do I increase my transfer limit?', 'What is my daily transfer limit?'],
      { ruleName: 'Transfer limits' },
    ),
  );
  index.upsert(
    matchableRule(
      'credit',
      ['How do I increase my credit limit?', 'Can I get a higher credit limit?'],
      { ruleName: 'Credit limit increase' },
    ),
  );
  index.upsert(matchableRule('hours', ['When are you open?'], { ruleName: 'Opening hours' }));
  const report = await index.collisions({ nowMs: NOW });
  const slot = report.findings.find((f) => f.cause === 'slot-unnamed');
  if (slot) {
    // Checked: the question that says neither word gets the rule named, outright.
    assert.ok(
      slot.words?.includes('transfer') && slot.words.includes('credit'),
      slot.words?.join(),
    );
    assert.equal(slot.asked?.decision, 'bestmatch');
    assert.ok(!/transfer|credit/.test(slot.asked?.question ?? ''), slot.asked?.question);
  }
  // Never a risk between them: the word tells them apart.
  assert.ok(
    !report.findings.some(
      (f) =>
        pair(f) === 'credit+transfer' && ['reads-like-other', 'near-duplicate'].includes(f.cause),
    ),
    JSON.stringify(report.findings),
  );
  assertNoFalseClaim(index, report.findings);
});

test('the templated shop knowledge base: at most 10% of rules flagged, no false claim, the planted conflicts found', async () => {
  const { rules } = shopKnowledgeBase();
  assert.equal(rules.length, 300);
  const index = createRobotIndex();
  for (const r of rules) {
    index.upsert(
      matchableRule(r.ruleName, r.questions, {
        ruleName: r.ruleName,
        ...(r.negativeKeywords ? { negativeKeywords: r.negativeKeywords } : {}),
      }),
    );
  }
  index.selfCalibrate(NOW);
  const report = await index.collisions({ nowMs: NOW });
  const flagged = new Set(report.findings.flatMap((f) => [f.ruleId, f.otherRuleId]));
  assert.ok(flagged.size <= 30, `${flagged.size} rules flagged: ${[...flagged].join(' ')}`);
  assert.ok(assertNoFalseClaim(index, report.findings) > 0);
  const has = (cause: RuleCollision['cause'], a: string, b: string) =>
    report.findings.some((f) => f.cause === cause && pair(f) === [a, b].sort().join('+'));
  const [contact, human] = PLANTED.sharedPhrasing;
  assert.ok(has('asked-unanswered', contact, human), 'the phrasing two rules share');
  const excluded = report.findings.find(
    (f) => f.question === PLANTED.excludedByOwnKeyword.question,
  );
  assert.equal(excluded?.keyword, '分期', 'the phrasing its own negative keyword leaves out');
  const [address, delivery] = PLANTED.duplicate;
  assert.ok(has('near-duplicate', address, delivery), 'the rule written twice');
  const { ruleName, question, belongsTo } = PLANTED.misplaced;
  assert.ok(
    report.findings.some(
      (f) => f.ruleId === ruleName && f.question === question && f.otherRuleId === belongsTo,
    ),
    'the phrasing in the wrong rule',
  );
});

test('a limit probes an even sample and says the report is incomplete', async () => {
  const report = await kb().collisions({ nowMs: NOW, limit: 4 });
  assert.equal(report.probed, 4);
  assert.equal(report.complete, false);
});
