/**
 * Ask: a question in, the contract's answer out (BESTMATCH from the knowledge base, RECOMMEND
 * with distinct rules, or the robot's fallback with module NONE). Every question of the service,
 * from the openapi or from the editor's try pane, is answered here.
 * @module
 */
import type { AskResult, MenuItem } from '../api-types';
import type { SemanticNote } from '../console-types';
import type { Candidate, CandidateChannel, MatchDecision } from '../matching/types';
import type { LoggedQuestion } from '../question-log-types';
import type { MenuEntry } from '../store/contract/records';
import type { DomainContext } from './context';
import { withEdition } from './editions';
import type { EditionName } from './editions';
import type { Edition, SmallTalkReply } from './ports';
import type { Robot } from './robot-directory';
import { ruleState } from './rule-views';

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
  /** How the robot's embedding model took part (absent: the robot has none). */
  semantic?: SemanticNote;
}

/**
 * The log line of an answer. A rule answered when the knowledge base gave its answer (BESTMATCH,
 * or MENU for a rule with a menu); `recommended` is a RECOMMEND's list only (a MENU's items are
 * the rule's own follow-ups, not rules the question might have meant).
 */
function logEntry(
  asked: Question,
  result: AskResult,
  ruleId: string | null,
  version: number | null,
  at: number,
  menuEntry: number | null = null,
) {
  const fromRule = result.module === 'KB' && result.answerType !== 'RECOMMEND';
  return {
    at,
    userId: asked.userId,
    channel: asked.channel,
    question: asked.question,
    answerType: result.answerType,
    module: result.module,
    score: result.score,
    ruleId: fromRule ? ruleId : null,
    recommended:
      result.answerType === 'RECOMMEND' ? (result.items?.map((item) => item.ruleId) ?? []) : [],
    version,
    source: asked.channel === 'TRY' ? 'try' : 'api',
    chosenFrom: null,
    menuEntry,
  } satisfies LoggedQuestion;
}

/** Tells the question log (if any) of an answer; click feedback reads a RECOMMEND's items. */
function record(ctx: DomainContext, robot: Robot, entry: LoggedQuestion, result: AskResult) {
  ctx.questionLog?.record(robot, entry, result.answerType === 'RECOMMEND' ? result.items : null);
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
 * The answer of a rule the user chose (a menu entry), as if matched exactly, from `rules` (the
 * published version's answer in review mode); undefined when the rule is not answered at `at`
 * (deleted, switched off, outside its window, not in the published version).
 */
async function answerRule(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
  at: number,
  rules: Edition,
): Promise<AskResult | undefined> {
  const rule = await ctx.store.rules.find(robot, ruleId);
  if (rule === undefined || ruleState(rule, at) !== 'active') return undefined;
  const answer = rules.version === null ? rule.answer : await rules.answerOf(ruleId);
  if (answer === undefined) return undefined;
  return ruleAnswer(ctx, robot, ruleId, answer, 1, at);
}

/**
 * A menu follow-up: the reply `asked` chose entry `number` of the menu its user was shown, and
 * the entry's rule answers it from `edition`. Logged like any ask, with the entry's number; it
 * counts as a hit of the rule. Undefined (nothing logged) when the rule is not answered any more.
 */
export async function answerMenuChoice(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  choice: { ruleId: string; number: number },
  at = ctx.now(),
  edition: EditionName = 'draft',
): Promise<AskResult | undefined> {
  return withEdition(ctx, robot, edition, async (rules) => {
    const result = await answerRule(ctx, robot, choice.ruleId, at, rules);
    if (result === undefined) return undefined;
    const entry = logEntry(asked, result, choice.ruleId, rules.version, ctx.now(), choice.number);
    record(ctx, robot, entry, result);
    return result;
  });
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
  return withEdition(ctx, robot, edition, async (rules) => {
    // The embedding model's channel (if the robot has one), waited for at most its deadline;
    // the lexical candidates are worked out meanwhile, so the vector is followed only by its
    // search and the fusion (decision 127).
    const semantic = ctx.semantic
      ? await ctx.semantic
          .channel(robot, rules.index, asked.question, () =>
            rules.index.prepare(asked.question, at),
          )
          .catch(() => null)
      : null;
    const outcome = await answer(ctx, robot, asked, at, rules, semantic?.channel);
    if (semantic) outcome.semantic = semantic.note;
    const { decision } = outcome;
    const ruleId = decision.kind === 'bestmatch' ? decision.top.ruleId : null;
    record(
      ctx,
      robot,
      logEntry(asked, outcome.result, ruleId, rules.version, ctx.now()),
      outcome.result,
    );
    return outcome;
  });
}

async function answer(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  at: number,
  rules: Edition,
  channel: CandidateChannel | undefined,
): Promise<AskOutcome> {
  const decision = rules.index.match(asked.question, at, robot.settings, channel);
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
