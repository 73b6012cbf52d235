/**
 * Deterministic synthetic rules for benchmarks: `count` rules of 5 phrasings each, mixing English
 * and Chinese words from a fixed vocabulary, driven by a seeded PRNG (the same seed gives the same
 * rules on every machine).
 */
import type { RuleInput } from '../../electron/service/api-types';
import {
  createRobotIndex,
  type SynonymAwareRobotIndex,
} from '../../electron/service/matching/index';
import type { MatchableRule, RobotIndex } from '../../electron/service/matching/types';
import { prng } from '../helpers/prng';

const EN = (
  'account card transfer refund password reset balance fee limit payment statement loan ' +
  'interest rate branch online mobile app login verify identity address change close open ' +
  'deposit withdraw cash atm pin block unblock lost stolen travel abroad currency exchange ' +
  'salary tax invoice receipt order delivery return warranty repair member points coupon'
).split(' ');
const ZH = (
  '账户 银行卡 转账 退款 密码 重置 余额 手续费 限额 支付 账单 贷款 利率 网点 手机 登录 验证 ' +
  '身份 地址 修改 注销 开户 存款 取款 现金 挂失 冻结 解冻 出国 外币 兑换 工资 发票 订单 ' +
  '快递 退货 保修 维修 会员 积分 优惠券 营业 时间 怎么 如何 为什么 可以 需要'
).split(' ');
const TEMPLATES_EN = [
  'how do i {a} my {b}',
  'can i {a} {b} {c}',
  'why is my {b} {a}',
  '{a} {b} not working',
  'what is the {b} for {c}',
];
const TEMPLATES_ZH = [
  '怎么{a}{b}',
  '{b}{a}需要多久',
  '为什么{b}不能{a}',
  '如何{a}{b}{c}',
  '{b}的{c}是多少',
];

export function generateRules(count: number, seed: number): RuleInput[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const chinese = i % 2 === 1;
    const words = chinese ? ZH : EN;
    const slots = { a: pick(words), b: pick(words), c: pick(words) };
    const questions = (chinese ? TEMPLATES_ZH : TEMPLATES_EN).map(
      (template) =>
        `${template.replace(/\{(a|b|c)\}/g, (_m, k: 'a' | 'b' | 'c') => (random() < 0.8 ? slots[k] : pick(words)))} ${chinese ? `编号${i}` : `no ${i}`}`,
    );
    return {
      ruleName: `${chinese ? '规则' : 'rule'} ${i}`,
      questions,
      answerContentType: 'TEXT' as const,
      answer: `${chinese ? '答案' : 'Answer'} ${i}: ${slots.a} ${slots.b}`,
    };
  });
}

/** Generated rules as a matching index holds them: ids `r0`…, active, with no time window. */
export function matchableRules(rules: readonly RuleInput[]): MatchableRule[] {
  return rules.map((rule, i) => ({
    ruleId: `r${i}`,
    ruleName: rule.ruleName,
    questions: rule.questions,
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
  }));
}

/** Upserts `rules` into `index` one by one, as an import applies them; returns the index. */
export function fillIndex<I extends RobotIndex>(index: I, rules: readonly MatchableRule[]): I {
  for (const rule of rules) index.upsert(rule);
  return index;
}

/** A matching index of `rules` alone, outside any service, without background self-tests. */
export function standaloneIndex(rules: readonly RuleInput[]): SynonymAwareRobotIndex {
  return fillIndex(createRobotIndex({ selfCalibration: false }), matchableRules(rules));
}
