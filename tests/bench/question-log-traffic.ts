/**
 * A busy robot's day of questions for the question log's volume bench (question-log-volume.ts):
 * deterministic (seeded) asks as `ask()` logs them, with the items a RECOMMEND showed, over the
 * last 24 hours. About 55% answered, 5% answered barely (low score), 18% RECOMMEND (some followed
 * by the user choosing an item), 17% fallback, 3% small talk, 2% menu replies; 200k user ids;
 * missed questions drawn from a pool of 30k (many asked again and again), in English and Chinese.
 */
import type { AskResult } from '../../electron/service/api-types';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import { prng } from '../helpers/prng';
import { typedVariant } from './typed-questions';

export interface TrafficRule {
  ruleId: string;
  questions: readonly string[];
}

export interface TrafficAsk {
  entry: LoggedQuestion;
  items: AskResult['items'];
}

const DAY_MS = 86_400_000;
const USERS = 200_000;

const EN_WORDS = (
  'parcel gift voucher student discount weather parking lunch printer wifi password ' +
  'insurance mortgage pension crypto bitcoin shares dividend tax-free holiday weekend ' +
  'complaint manager phone email letter fax loyalty cashback overdraft cheque'
).split(' ');
const ZH_WORDS = (
  '数字人民币 收据 开箱验货 货到付款 花呗 分期 发票抬头 停车 午休 打印机 无线网 保险 养老金 ' +
  '股票 分红 节假日 周末 投诉 经理 电话 邮件 积分 返现 透支 支票 学生 折扣 礼品卡'
).split(' ');
const EN_MISS = [
  'do you accept {a}',
  'is there a {a} {b}',
  'can i get {a} with {b}',
  'where do i find the {a}',
  'what about {a} on {b}',
];
const ZH_MISS = ['支持{a}吗', '能开{a}吗', '{a}和{b}有什么区别', '怎么办理{a}', '{a}在哪里'];
const SMALL_TALK = ['hello', 'thanks', '你好', '谢谢', 'bye', 'good morning'];

/** 30k distinct missed questions. */
function missPool(random: () => number): string[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const pool = new Set<string>();
  while (pool.size < 30_000) {
    const zh = random() < 0.5;
    const template = pick(zh ? ZH_MISS : EN_MISS);
    const words = zh ? ZH_WORDS : EN_WORDS;
    const suffix =
      random() < 0.3 ? (zh ? pick(['', '？', '呢', '啊']) : pick(['', '?', ' please'])) : '';
    pool.add(
      template.replace('{a}', pick(words)).replace('{b}', pick(words)) +
        suffix +
        (random() < 0.4 ? ` ${Math.floor(random() * 40)}` : ''),
    );
  }
  return [...pool];
}

/** An index skewed towards the start of a list (a few items asked very often). */
function skewed(random: () => number, length: number): number {
  return Math.min(length - 1, Math.floor(length * random() ** 3));
}

/**
 * `count` asks ending at `end`, oldest first, as the recorder gets them. `robotLowScore` is under
 * the robot's inbox threshold (bestmatchThreshold + 0.03).
 */
export function* traffic(
  rules: readonly TrafficRule[],
  count: number,
  end: number,
  seed = 7,
): Generator<TrafficAsk> {
  const random = prng(seed);
  const misses = missPool(random);
  const start = end - DAY_MS + 1;
  const step = (DAY_MS - 1) / count;
  const rule = () => rules[skewed(random, rules.length)] as TrafficRule;
  /** The user who got a RECOMMEND and will choose from it, with the items. */
  let pending: { userId: string; items: NonNullable<AskResult['items']> } | null = null;
  for (let i = 0; i < count; i++) {
    const at = Math.floor(start + i * step);
    const base = {
      at,
      userId: `user-${Math.floor(random() * USERS)}`,
      channel: 'API',
      version: null,
      source: random() < 0.01 ? ('try' as const) : ('api' as const),
      chosenFrom: null,
      menuEntry: null,
    };
    if (pending && random() < 0.5) {
      // A choice from the RECOMMEND the user was just shown.
      const item = pending.items[Math.floor(random() * pending.items.length)];
      const chosen = { ...base, userId: pending.userId, source: 'api' as const };
      pending = null;
      if (item) {
        yield {
          entry: {
            ...chosen,
            question: item.question,
            answerType: 'BESTMATCH',
            module: 'KB',
            score: 1,
            ruleId: item.ruleId,
            recommended: [],
          },
          items: null,
        };
        continue;
      }
    }
    const kind = random();
    if (kind < 0.6) {
      const answered = rule();
      const phrasing = answered.questions[Math.floor(random() * answered.questions.length)] ?? '';
      const low = kind >= 0.55;
      yield {
        entry: {
          ...base,
          question: low ? typedVariant(phrasing, i) : phrasing,
          answerType: 'BESTMATCH',
          module: 'KB',
          score: low ? 0.94 + random() * 0.029 : random() < 0.7 ? 1 : 0.975 + random() * 0.02,
          ruleId: answered.ruleId,
          recommended: [],
        },
        items: null,
      };
    } else if (kind < 0.78) {
      const size = 3 + Math.floor(random() * 3);
      const items = Array.from({ length: size }, (_, k) => {
        const item = rule();
        return {
          ruleId: item.ruleId,
          question: item.questions[0] ?? '',
          score: Math.floor((0.8 - k * 0.08 - random() * 0.05) * 10_000) / 10_000,
        };
      });
      const asked = typedVariant(rule().questions[0] ?? '', i + 1);
      yield {
        entry: {
          ...base,
          question: asked.split(' ').slice(0, 3).join(' '),
          answerType: 'RECOMMEND',
          module: 'KB',
          score: items[0]?.score ?? 0,
          ruleId: null,
          recommended: items.map((item) => item.ruleId),
        },
        items,
      };
      if (base.source === 'api' && random() < 0.3) pending = { userId: base.userId, items };
    } else if (kind < 0.95) {
      yield {
        entry: {
          ...base,
          question: misses[skewed(random, misses.length)] ?? '',
          answerType: 'BESTMATCH',
          module: 'NONE',
          score: 0,
          ruleId: null,
          recommended: [],
        },
        items: null,
      };
    } else if (kind < 0.98) {
      yield {
        entry: {
          ...base,
          question: SMALL_TALK[Math.floor(random() * SMALL_TALK.length)] ?? '',
          answerType: 'BESTMATCH',
          module: 'CHAT',
          score: 0.9,
          ruleId: null,
          recommended: [],
        },
        items: null,
      };
    } else {
      const number = 1 + Math.floor(random() * 3);
      yield {
        entry: {
          ...base,
          question: String(number),
          answerType: 'BESTMATCH',
          module: 'KB',
          score: 1,
          ruleId: rule().ruleId,
          recommended: [],
          menuEntry: number,
        },
        items: null,
      };
    }
  }
}
