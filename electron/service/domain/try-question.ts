/**
 * The try pane: exactly what ask would answer, plus every candidate with its reasons.
 * @module
 */
import type { TryResult } from '../console-types';
import type { DomainContext } from './context';
import { askInConversation } from './conversation';
import { namesIn } from './editions';
import type { EditionName } from './editions';
import type { Robot } from './robot-directory';

/**
 * `asOf`: ask as the robot would answer at that time (ms), for rules with effective windows.
 * `edition`: the draft, or the published version (side by side in the try pane).
 * `userId`: the try pane's conversation (menus chosen by number or text follow it up, as they
 * do on the openapi: conversation.ts), `editor` by default.
 */
export async function tryQuestion(
  ctx: DomainContext,
  robot: Robot,
  question: string,
  asOf?: number,
  userId = 'editor',
  edition: EditionName = 'draft',
): Promise<TryResult> {
  const asked = { question, userId, channel: 'TRY' };
  const outcome = await askInConversation(ctx, robot, asked, asOf ?? ctx.now(), edition);
  const { result, decision } = outcome;
  const excluded = decision.excluded ?? [];
  const names = await namesIn(ctx, robot, edition, [
    ...decision.candidates.map((c) => c.ruleId),
    ...excluded.map((e) => e.ruleId),
  ]);
  return {
    result,
    decision: decision.kind,
    candidates: decision.candidates.map((candidate) => ({
      ruleId: candidate.ruleId,
      ruleName: names.get(candidate.ruleId) ?? '',
      question: candidate.question,
      score: candidate.score,
      parts: candidate.parts,
      ...(candidate.policy !== undefined ? { policy: candidate.policy } : {}),
      ...(candidate.keyword !== undefined ? { keyword: candidate.keyword } : {}),
      ...(candidate.nearest !== undefined ? { nearest: candidate.nearest } : {}),
    })),
    ...(excluded.length > 0
      ? {
          excluded: excluded.map((e) => ({
            ruleId: e.ruleId,
            ruleName: names.get(e.ruleId) ?? '',
            keyword: e.keyword,
          })),
        }
      : {}),
    ...(outcome.chosen ? { chosen: outcome.chosen } : {}),
    ...(outcome.smallTalk
      ? { smallTalk: { intent: outcome.smallTalk.intent, question: outcome.smallTalk.question } }
      : {}),
    ...(outcome.semantic ? { semantic: outcome.semantic } : {}),
  };
}
