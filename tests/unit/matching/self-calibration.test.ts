/**
 * Each robot calibrates itself on its own rules (leave-one-out self-test): a knowledge base of
 * near-identical one-phrasing rules lowers its scores, a clean one keeps them; the calibration
 * is refitted in the background after writes, without blocking questions, and travels with the
 * saved index.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import {
  DEFAULT_MATCH_SETTINGS,
  createRobotIndex,
  loadRobotIndex,
  saveRobotIndex,
} from '../../../electron/service/matching/index';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { matchableRule } from '../../helpers/matchable-rule';

/** Rule names are unique in a robot; here each is the rule's first phrasing. */
const rule = (ruleId: string, questions: string[]) =>
  matchableRule(ruleId, questions, { ruleName: questions[0] ?? ruleId });

const NOW = Date.UTC(2026, 10, 23);

/** Distinct topics, several phrasings each: phrasings find their own rule. */
function cleanRules(): MatchableRule[] {
  const topics = ['退款', '发票', '快递', '会员', '积分', '优惠券', '密码', '地址', '评价', '门店'];
  return topics.map((topic, i) =>
    rule(`t${i}`, [
      `${topic}怎么办理`,
      `${topic}的规定是什么`,
      `我想问一下${topic}`,
      `${topic}相关问题`,
    ]),
  );
}

/** One phrasing per rule, each a near copy of another rule: a wrong rule often leads by far. */
function crowdedRules(): MatchableRule[] {
  const subjects = ['肺炎', '感冒', '哮喘', '支气管炎', '肺气肿', '胸膜炎'];
  const asks = ['怎么治疗', '吃什么药', '会传染吗', '有什么症状', '需要住院吗', '能治好吗'];
  return subjects.flatMap((subject, i) =>
    asks.flatMap((ask, j) => [
      rule(`r${i}-${j}a`, [`${subject}${ask}`]),
      rule(`r${i}-${j}b`, [`小孩${subject}${ask}呢`]),
    ]),
  );
}

function index(rules: MatchableRule[]) {
  const built = createRobotIndex();
  for (const r of rules) built.upsert(r);
  return built;
}

test('a knowledge base whose own phrasings land on wrong rules lowers its scores', () => {
  const crowded = index(crowdedRules());
  const before = crowded.match('小孩肺炎怎么治疗啊', NOW, DEFAULT_MATCH_SETTINGS);
  crowded.selfCalibrate(NOW);
  const state = crowded.calibration;
  assert.ok(state.offset < 0, `offset ${state.offset}`);
  assert.ok(state.current);
  assert.equal(state.probes, 72);
  const after = crowded.match('小孩肺炎怎么治疗啊', NOW, DEFAULT_MATCH_SETTINGS);
  // The same ranking, lower confidence; scores are explained with the offset.
  assert.equal(after.candidates[0]?.ruleId, before.candidates[0]?.ruleId);
  assert.ok((after.candidates[0]?.score ?? 1) < (before.candidates[0]?.score ?? 0));
  assert.equal(after.candidates[0]?.parts.offset, state.offset);
});

test('a knowledge base of well separated rules keeps the offline calibration', () => {
  const clean = index(cleanRules());
  clean.selfCalibrate(NOW);
  assert.equal(clean.calibration.offset, 0);
  assert.equal(clean.match('发票怎么开', NOW, DEFAULT_MATCH_SETTINGS).candidates[0]?.ruleId, 't1');
});

test('writes make the calibration stale and schedule a background self-test that follows them', async () => {
  const built = index(cleanRules());
  built.selfCalibrate(NOW);
  assert.ok(built.calibration.current);
  for (const r of crowdedRules()) built.upsert(r);
  assert.equal(built.calibration.current, false);
  assert.ok(built.calibration.pending);
  // Questions are answered at once meanwhile, with the calibration in force.
  assert.notEqual(built.match('发票怎么开', NOW, DEFAULT_MATCH_SETTINGS).kind, undefined);
  const deadline = Date.now() + 10_000;
  while (!built.calibration.current && Date.now() < deadline) await sleep(50);
  assert.ok(built.calibration.current, 'the background self-test finished');
  assert.equal(built.calibration.pending, false);
  assert.ok(built.calibration.offset < 0);
});

test('the calibration is saved with the index and opened with it', () => {
  const built = index(crowdedRules());
  built.selfCalibrate(NOW);
  const opened = loadRobotIndex(saveRobotIndex(built) as Uint8Array<ArrayBuffer>);
  assert.ok(opened);
  assert.deepEqual(opened.calibration, { ...built.calibration, pending: false });
  const question = '哮喘吃什么药好';
  assert.deepEqual(
    opened.match(question, NOW, DEFAULT_MATCH_SETTINGS),
    built.match(question, NOW, DEFAULT_MATCH_SETTINGS),
  );
  // A stale calibration opens stale and is refitted in the background.
  built.upsert(rule('extra', ['新的问题']));
  const stale = loadRobotIndex(saveRobotIndex(built) as Uint8Array<ArrayBuffer>);
  assert.equal(stale?.calibration.current, false);
  assert.equal(stale?.calibration.pending, true);
});
