/**
 * Ask: a question in, the contract's answer out (BESTMATCH from the knowledge base, RECOMMEND
 * with distinct rules, or the robot's fallback with module NONE).
 * @module
 */
import type { AskResult } from '../api-types';
import type { Candidate, MatchDecision } from '../matching/types';
import type { DomainContext } from './context';
import type { RobotEntry } from './robot-registry';

/** Scores are reported to 4 decimals, rounded down so that only an exact match reads 1. */
const round = (score: number) => Math.floor(score * 10_000) / 10_000;

export interface AskOutcome {
  result: AskResult;
  decision: MatchDecision;
}

function fallback(robot: RobotEntry): AskResult {
  return {
    answerType: 'BESTMATCH',
    answerContentType: 'TEXT',
    answer: robot.settings.fallbackText,
    score: 0,
    items: null,
    module: 'NONE',
  };
}

export function ask(ctx: DomainContext, robot: RobotEntry, question: string): AskOutcome {
  const decision = robot.index.match(question, ctx.now(), robot.settings);
  switch (decision.kind) {
    case 'bestmatch': {
      const ruleId = decision.top.ruleId;
      const answer = ctx.robots.answerOf(
        ruleId,
        () =>
          ctx.store.get<{ answer: string }>('SELECT answer FROM rules WHERE rule_id = ?', [ruleId])
            ?.answer,
      );
      // The index follows every write, so a missing row means a bug, not a user error: answer
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
