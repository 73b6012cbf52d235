/**
 * Ask: a question in, the contract's answer out (BESTMATCH from the knowledge base, RECOMMEND
 * with distinct rules, or the robot's fallback with module NONE). Every question of the service,
 * from the openapi or from the editor's try pane, is answered here.
 * @module
 */
import type { AskResult } from '../api-types';
import type { Candidate, MatchDecision } from '../matching/types';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { editionOf } from './editions';
import type { EditionName } from './editions';

/** Scores are reported to 4 decimals, rounded down so that only an exact match reads 1. */
const round = (score: number) => Math.floor(score * 10_000) / 10_000;

/** A question and who asked it: `channel` is `API` for the openapi, `TRY` for the try pane. */
export interface Question {
  question: string;
  userId: string;
  channel: string;
}

export interface AskOutcome {
  result: AskResult;
  decision: MatchDecision;
}

function fallback(robot: Robot): AskResult {
  return {
    answerType: 'BESTMATCH',
    answerContentType: 'TEXT',
    answer: robot.settings.fallbackText,
    score: 0,
    items: null,
    module: 'NONE',
  };
}

/**
 * `at`: the time the question is answered as of (ms; now unless the try pane says otherwise).
 * `edition`: which rules answer (editions.ts): the openapi asks the `served` one.
 */
export async function ask(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  at = ctx.now(),
  edition: EditionName = 'draft',
): Promise<AskOutcome> {
  const rules = editionOf(ctx, robot, edition);
  const decision = rules.index.match(asked.question, at, robot.settings);
  switch (decision.kind) {
    case 'bestmatch': {
      const answer = await rules.answerOf(decision.top.ruleId);
      // The index follows every write, so a missing rule means a bug, not a user error: answer
      // with the fallback rather than fail the caller.
      if (answer === undefined) {
        ctx.logger.error(
          `index returned rule ${decision.top.ruleId}, which is not in the database`,
        );
        return { result: fallback(robot), decision };
      }
      return {
        result: {
          answerType: 'BESTMATCH',
          answerContentType: 'TEXT',
          answer,
          score: round(decision.top.score),
          items: null,
          module: 'KB',
        },
        decision,
      };
    }
    case 'recommend':
      return {
        result: {
          answerType: 'RECOMMEND',
          answerContentType: 'TEXT',
          answer: robot.settings.recommendText,
          score: round(decision.items[0]?.score ?? 0),
          items: decision.items.map((item: Candidate) => ({
            ruleId: item.ruleId,
            question: item.question,
            score: round(item.score),
          })),
          module: 'KB',
        },
        decision,
      };
    case 'none':
      return { result: fallback(robot), decision };
  }
}
