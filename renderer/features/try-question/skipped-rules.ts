/**
 * Rules that have the question tried as one of their phrasings but were not considered, because
 * they are switched off or outside their validity window. The matcher only ranks rules in
 * effect, so these are found by a search of the rules and a comparison of phrasings.
 * @module
 */
import type { ConsoleRule } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { samePhrasing } from '../../lib/rules/phrasing';
import { effectiveState } from './effective-state';
import type { EffectiveState } from './effective-state';

export interface SkippedRule {
  ruleId: string;
  ruleName: string;
  state: Exclude<EffectiveState, 'active'>;
  /** The date that puts the rule out of effect (start or end), for scheduled and expired. */
  date: string | null;
}

/**
 * The rules among `rules` with this very question that were not in effect: now (their state as
 * the service gave it), or at `asOfMs` when the question was asked as of another time.
 */
export function skippedAmong(
  rules: readonly ConsoleRule[],
  question: string,
  asOfMs: number | null,
) {
  return rules.flatMap((rule): SkippedRule[] => {
    if (!rule.questions.some((q) => samePhrasing(q, question))) return [];
    const state = asOfMs === null ? rule.state : effectiveState(rule, asOfMs);
    if (state === 'active') return [];
    const date =
      state === 'scheduled'
        ? rule.effectBeignDate
        : state === 'expired'
          ? rule.effectEndDate
          : null;
    return [{ ruleId: rule.ruleId, ruleName: rule.ruleName, state, date }];
  });
}

/** The rules skipped for `question` (a search of the robot's rules for it), now or `asOf`. */
export async function findSkippedRules(
  client: ConsoleClient,
  ref: RobotRef,
  question: string,
  asOf: string | null,
): Promise<SkippedRule[]> {
  const q = question.trim().replace(/[\s?!.。？！]+$/u, '');
  if (q === '') return [];
  const { rows } = await client.rules(ref, { q, limit: 50 });
  return skippedAmong(rows, question, asOf === null ? null : Date.parse(asOf));
}
