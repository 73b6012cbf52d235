/**
 * Ask: a question in, the contract's answer out (BESTMATCH from the knowledge base, RECOMMEND
 * with distinct rules, or the robot's fallback with module NONE). Every question of the service,
 * from the openapi or from the editor's try pane, is answered here.
 * @module
 */
import type { AskResult } from '../api-types';
import type { Candidate, MatchDecision } from '../matching/types';
import type { LoggedQuestion } from '../question-log-types';
import type { RobotKey } from '../repositories/records';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexOf } from './robot-loading';

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

/**
 * Told of every question answered (the question log, plugged in by index.ts). Called in the
 * ask's turn: it must only buffer.
 */
export interface AskRecorder {
  record(robot: RobotKey, entry: LoggedQuestion, items: AskResult['items']): void;
}

function logEntry(asked: Question, result: AskResult, decision: MatchDecision, at: number) {
  const answered = result.module === 'KB' && result.answerType === 'BESTMATCH';
  return {
    at,
    userId: asked.userId,
    channel: asked.channel,
    question: asked.question,
    answerType: result.answerType,
    module: result.module,
    score: result.score,
    ruleId: answered && decision.kind === 'bestmatch' ? decision.top.ruleId : null,
    recommended: result.items?.map((item) => item.ruleId) ?? [],
    // Publishing (issue 15) sets the version that answered; the draft answers until then.
    version: null,
    source: asked.channel === 'TRY' ? 'try' : 'api',
    chosenFrom: null,
  } satisfies LoggedQuestion;
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

/** A rule's answer: from memory when it was answered recently, else read and remembered. */
async function answerOf(ctx: DomainContext, ruleId: string): Promise<string | undefined> {
  const known = ctx.answers.get(ruleId);
  if (known !== undefined) return known;
  const generation = ctx.answers.generation;
  const answer = await ctx.store.rules.answerOf(ruleId);
  // Not remembered if a rule changed while it was read: it may be the answer before the change.
  if (answer !== undefined && ctx.answers.generation === generation) {
    ctx.answers.remember(ruleId, answer);
  }
  return answer;
}

/**
 * `at`: the time the question is answered as of (ms; now unless the try pane says otherwise).
 * The answer is told to the question log, if there is one.
 */
export async function ask(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  at = ctx.now(),
): Promise<AskOutcome> {
  const outcome = await answer(ctx, robot, asked, at);
  ctx.questionLog?.record(
    robot,
    logEntry(asked, outcome.result, outcome.decision, ctx.now()),
    outcome.result.items,
  );
  return outcome;
}

async function answer(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  at: number,
): Promise<AskOutcome> {
  const decision = indexOf(ctx, robot).match(asked.question, at, robot.settings);
  switch (decision.kind) {
    case 'bestmatch': {
      const answer = await answerOf(ctx, decision.top.ruleId);
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
