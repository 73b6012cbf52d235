/**
 * The try pane: exactly what ask would answer, plus every candidate with its reasons.
 * @module
 */
import type { TryResult } from '../console-types';
import { ask } from './ask';
import type { DomainContext } from './context';
import { editionOf } from './editions';
import type { EditionName } from './editions';
import type { Robot } from './robot-directory';

/**
 * `asOf`: ask as the robot would answer at that time (ms), for rules with effective windows.
 * `edition`: the draft, or the published version (side by side in the try pane).
 */
export async function tryQuestion(
  ctx: DomainContext,
  robot: Robot,
  question: string,
  asOf?: number,
  edition: EditionName = 'draft',
): Promise<TryResult> {
  const asked = { question, userId: 'editor', channel: 'TRY' };
  const { result, decision } = await ask(ctx, robot, asked, asOf ?? ctx.now(), edition);
  const names = await editionOf(ctx, robot, edition).namesOf(
    decision.candidates.map((c) => c.ruleId),
  );
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
