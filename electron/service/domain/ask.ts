/**
 * Ask: a question in, the contract's answer out (BESTMATCH from the knowledge base, RECOMMEND
 * with distinct rules, or the robot's fallback with module NONE). Every question of the service,
 * from the openapi or from the editor's try pane, is answered here.
 * @module
 */
import type { AskResult, MenuItem } from '../api-types';
import type { Candidate, MatchDecision } from '../matching/types';
import type { LoggedQuestion } from '../question-log-types';
import type { MenuEntry, RobotKey } from '../repositories/records';
import type { DomainContext, SmallTalkReply } from './context';
import type { Robot } from './robot-directory';
import { ruleState } from './rule-views';
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
  /** Set when small talk answered (module CHAT). */
  smallTalk?: SmallTalkReply;
  /** Set when the answer is a rule chosen from a menu (conversation/), not matched. */
  chosen?: { ruleId: string; number: number };
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

/**
 * The entries of a menu that lead to a rule of the robot answered at `at` (a deleted, switched
 * off or out-of-window rule is left out), numbered from 1.
 */
async function menuItems(
  ctx: DomainContext,
  robot: Robot,
  menu: readonly MenuEntry[],
  at: number,
): Promise<MenuItem[]> {
  const items: MenuItem[] = [];
  for (const entry of menu) {
    const target = await ctx.store.rules.find(robot, entry.ruleId);
    if (target === undefined || ruleState(target, at) !== 'active') continue;
    items.push({ number: items.length + 1, ruleId: entry.ruleId, question: entry.text, score: 1 });
  }
  return items;
}

/** A rule's answer: a MENU when the rule has one with an entry still answered, else BESTMATCH. */
async function ruleAnswer(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
  answer: string,
  score: number,
  at: number,
): Promise<AskResult> {
  const menu = ctx.menus?.get(ruleId);
  const items = menu ? await menuItems(ctx, robot, menu, at) : [];
  return {
    answerType: items.length > 0 ? 'MENU' : 'BESTMATCH',
    answerContentType: 'TEXT',
    answer,
    score: round(score),
    items: items.length > 0 ? items : null,
    module: 'KB',
  };
}

/**
 * The answer of a rule the user chose (a menu entry), as if matched exactly; undefined when the
 * rule is not answered at `at` (deleted, switched off, outside its window).
 */
export async function answerRule(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
  at = ctx.now(),
): Promise<AskResult | undefined> {
  const rule = await ctx.store.rules.find(robot, ruleId);
  if (rule === undefined || ruleState(rule, at) !== 'active') return undefined;
  return ruleAnswer(ctx, robot, ruleId, rule.answer, 1, at);
}

/** Small talk instead of the knowledge base's RECOMMEND or NONE, when it fits better. */
function smallTalkOutcome(
  ctx: DomainContext,
  robot: Robot,
  question: string,
  decision: MatchDecision,
  at: number,
): AskOutcome | undefined {
  const reply = ctx.smallTalk?.reply(question, decision, robot.settings, at);
  if (!reply) return undefined;
  return {
    result: {
      answerType: 'BESTMATCH',
      answerContentType: 'TEXT',
      answer: reply.answer,
      score: round(reply.score),
      items: null,
      module: 'CHAT',
    },
    decision,
    smallTalk: reply,
  };
}

/**
 * `at`: the time the question is answered as of (ms; now unless the try pane says otherwise).
 * The answer is told to the question log, if there is one.
 * `edition`: which rules answer (editions.ts): the openapi asks the `served` one.
 */
export async function ask(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  at = ctx.now(),
  edition: EditionName = 'draft',
): Promise<AskOutcome> {
  const outcome = await answer(ctx, robot, asked, at, edition);
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
  edition: EditionName,
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
        result: await ruleAnswer(ctx, robot, decision.top.ruleId, answer, decision.top.score, at),
        decision,
      };
    }
    case 'recommend':
      return (
        smallTalkOutcome(ctx, robot, asked.question, decision, at) ?? {
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
        }
      );
    case 'none':
      return (
        smallTalkOutcome(ctx, robot, asked.question, decision, at) ?? {
          result: fallback(robot),
          decision,
        }
      );
  }
}
