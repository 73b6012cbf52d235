/**
 * A published robot and a draft of it, the questions customers asked of it, and the plain
 * replay the impact preview's shortcuts must count exactly as (impact-from-cache.test.ts,
 * impact-warm.test.ts).
 */
import { toMatchableRule } from '../../electron/service/domain/rule-views';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../electron/service/matching/index';
import type { RobotIndex } from '../../electron/service/matching/types';
import type { ImpactSide, Replay } from '../../electron/service/publishing/impact';
import {
  ImpactTally,
  answerDiffers,
  decideOf,
  nameExamples,
} from '../../electron/service/publishing/impact-compare';
import { outcomeOf } from '../../electron/service/publishing/impact-outcome';
import type { StoredRule } from '../../electron/service/store/contract/records';
import { storedRule } from './impact-sides';
import { prng } from './prng';

export const NOW = Date.UTC(2026, 0, 1);
export const HOUR = 3_600_000;
export const SETTINGS = DEFAULT_MATCH_SETTINGS;

/**
 * A published robot of 240 rules and a draft of it: every `answerEvery`th rule's answer changed
 * (past 64 of them the filter asks the published side, below it bounds them rule by rule), and
 * unless `answersOnly`, a few phrasings changed, one rule removed and one added; and 3,000
 * questions over their words.
 */
export function scenario(seed: number, answerEvery: number, answersOnly = false) {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const words = Array.from({ length: 150 }, (_, i) => `w${(i * 7919) % 997}x${i % 13}`);
  const frame = ['how', 'can', 'i', 'my', 'what', 'do', 'you'];
  const han = Array.from({ length: 80 }, (_, i) => String.fromCodePoint(0x4e00 + 41 * i));
  const phrase = () =>
    random() < 0.6
      ? [pick(frame), ...Array.from({ length: 1 + int(3) }, () => pick(words))].join(' ')
      : Array.from({ length: 3 + int(4) }, () => pick(han)).join('');
  const rule = (id: string, seq: number): StoredRule =>
    storedRule(seq, id, {
      ruleName: `${phrase()} ${id}`,
      questions: Array.from({ length: 1 + int(3) }, phrase),
    });
  const before = Array.from({ length: 240 }, (_, i) => rule(`r${i}`, i));
  const after = before.map((old, i) => {
    if (i % answerEvery === 0) return { ...old, answer: `${old.answer}+` };
    if (i % 41 === 1 && !answersOnly) {
      return { ...old, questions: [...old.questions.slice(1), phrase()] };
    }
    return old;
  });
  if (!answersOnly) {
    after.splice(100, 1);
    after.push(rule(`new${seed}`, 1000));
  }
  const questions = Array.from({ length: 3000 }, (_, i) => {
    const source = pick(i % 2 === 0 ? after : before);
    const text = pick([source.ruleName, ...source.questions]);
    const cut = int(3) === 0 ? text.split(' ').slice(1).join(' ') || text : text;
    return {
      text: i % 7 === 0 ? phrase() : `${cut}${i % 11 === 0 ? ` w${i}` : ''}`,
      asks: 1 + int(5),
    };
  });
  return { before, after, questions };
}

/** Self-calibrated, as the service's are (a worker opens the calibration with the index). */
export const indexOf = (rules: readonly StoredRule[]): RobotIndex => {
  const index = createRobotIndex();
  for (const stored of rules) index.upsert(toMatchableRule(stored));
  index.selfCalibrate?.(NOW);
  index.close?.();
  return index;
};

/** Every question asked of both sides, one at a time, nothing filtered nor kept: the reference. */
export async function plainReplay(
  a: ImpactSide,
  b: ImpactSide,
  questions: Replay['questions'],
  at: number,
) {
  const tally = new ImpactTally(await answerDiffers(a, b));
  questions.forEach((question, i) => {
    const before = outcomeOf(decideOf(a.index, question.text, at, SETTINGS));
    const after = outcomeOf(decideOf(b.index, question.text, at, SETTINGS));
    tally.asked(question, before, after, i);
  });
  return nameExamples(tally.result(), a, b).kinds;
}
