/**
 * The try pane: exactly what ask would answer, plus every candidate with its reasons.
 * @module
 */
import type { TryResult } from '../console-types';
import { ask } from './ask';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';

/** `asOf`: ask as the robot would answer at that time (ms), for rules with effective windows. */
export async function tryQuestion(
  ctx: DomainContext,
  robot: Robot,
  question: string,
  asOf?: number,
): Promise<TryResult> {
  const asked = { question, userId: 'editor', channel: 'TRY' };
  const { result, decision } = await ask(ctx, robot, asked, asOf ?? ctx.now());
  const names = await ctx.store.rules.namesOf(decision.candidates.map((c) => c.ruleId));
  return {
    result,
    decision: decision.kind,
    candidates: decision.candidates.map((candidate) => ({
      ruleId: candidate.ruleId,
      ruleName: names.get(candidate.ruleId) ?? '',
      question: candidate.question,
      score: candidate.score,
      parts: candidate.parts,
    })),
  };
}
