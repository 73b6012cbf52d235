/**
 * Which logged questions an impact preview asks of both sides (decision 116). A question's
 * answer can change only if (a) a rule that can answer it differs in what decides its answers
 * (its phrasings, name, validity, policy: its matchable form), or (b) the rule that answers it
 * keeps its matchable form and changes its answer text. (a) is impact-reach.ts's filter
 * (decision 94): the rules whose matchable form differs, old and new, by their terms. (b) needs
 * no term: a rule whose matchable form is the same on both sides scores the same on both, so
 * the question changes only if that rule is its BESTMATCH, which it can be only if the rule's
 * ceiling for the question (the matcher's own scoring of that rule alone, the other rules' parts
 * at their most favourable: `RobotIndex.scoreCeiling`) reaches the BESTMATCH threshold. The
 * rules whose answer alone changed are therefore left out of the terms, and a question none of
 * them can answer is not asked at all, nor even once. Past CEILING_RULES such rules, the
 * question is asked of the `from` side once instead, and of both only if one of them answers it.
 *
 * Exact (the bound's answer equals the full replay's) when the two sides hold the same
 * matchable rules, the same synonyms and the same calibration offset: only answers changed.
 * With other changes too, a question the matchable changes do not reach is counted as
 * unchanged under decision 94's reading (not a proof: a changed rule's terms move the idf and
 * the vocabulary's size that enter every score a little), then bounded as above. Other synonyms,
 * another calibration offset, a `contains` rule changed or a policy in the index (the ceiling
 * answers undefined): every question is asked of both sides.
 * @module
 */
import { toMatchableRule } from '../domain/rule-views';
import type { MatchSettings, RobotIndex } from '../matching/types';
import type { StoredRule } from '../store/contract/records';
import { forEachInSlices } from '../time-slices';
import type { Outcome } from './impact-outcome';
import type { ReachableQuestions } from './impact-reach';

const matchable = (rule: StoredRule): string => JSON.stringify(toMatchableRule(rule));

/** The rules that differ between two targets, by what differs. */
export interface Changes {
  /** Both revisions of a rule whose matchable form differs, and the rules in one side only. */
  matchable: StoredRule[];
  /** The rules with the same matchable form on both sides and another answer. */
  answers: string[];
}

export async function changesBetween(
  before: readonly StoredRule[],
  after: readonly StoredRule[],
): Promise<Changes> {
  const was = new Map<string, StoredRule>();
  await forEachInSlices(before, (rule) => was.set(rule.ruleId, rule));
  const changes: Changes = { matchable: [], answers: [] };
  await forEachInSlices(after, (rule) => {
    const old = was.get(rule.ruleId);
    was.delete(rule.ruleId);
    if (old === undefined) {
      changes.matchable.push(rule);
      return;
    }
    // Cheap first: most rules are the same object's copy, their answers equal.
    const sameAnswer = old.answer === rule.answer;
    if (matchable(old) !== matchable(rule)) changes.matchable.push(rule, old);
    else if (!sameAnswer) changes.answers.push(rule.ruleId);
  });
  changes.matchable.push(...was.values());
  return changes;
}

/**
 * Rules whose answer changed up to which a question is bounded rule by rule (~5 µs a rule, after
 * ~50 µs weighing the question); past it, asking the `from` side once costs less (~0.5 ms at
 * 10,000 rules), exact as well: the other side, with the same matchable rules, decides the same.
 */
export const CEILING_RULES = 64;

/** The test of a logged question: asked of both sides, or known not to change answer. */
export class ReplayPlan {
  private readonly answerSet: ReadonlySet<string>;

  constructor(
    /** The terms of the rules whose matchable form changed (decision 94). */
    readonly reach: ReachableQuestions,
    /** The rules whose answer alone changed. */
    readonly answers: readonly string[],
  ) {
    this.answerSet = new Set(answers);
  }

  /**
   * Whether `question` may change answer: a matchable change reaches it, or a rule whose answer
   * changed may be its BESTMATCH on `index` (the `from` side; the same rules score the same on
   * the other). `before`: the `from` side's outcome, worked out once for the filter and the
   * count (impact-compare.ts's `QuestionReplay`). `known`: that outcome when it is kept already
   * (impact-from-cache.ts, impact-warm.ts): then it decides at once, for nothing, what the
   * ceiling only bounds (decision 191).
   */
  mayChange(
    question: string,
    index: RobotIndex,
    at: number,
    settings: MatchSettings,
    before: () => Outcome,
    known?: Outcome,
  ): boolean {
    if (this.reach.reaches(question)) return true;
    if (this.answers.length === 0) return false;
    if (known !== undefined) return this.answeredByChanged(known);
    const threshold = settings.bestmatchThreshold;
    if (this.answers.length <= CEILING_RULES) {
      const ceiling = index.scoreCeiling?.(question, this.answers, at, threshold);
      return ceiling === undefined || ceiling >= threshold;
    }
    // An engine without `decide` (a stand-in) is asked in full, as before.
    if (index.decide === undefined) return true;
    return this.answeredByChanged(before());
  }

  /** Whether a rule whose answer alone changed is the BESTMATCH of `outcome`. */
  private answeredByChanged(outcome: Outcome): boolean {
    return outcome.kind === 'bestmatch' && this.answerSet.has(outcome.ruleId as string);
  }
}
