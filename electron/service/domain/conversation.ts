/**
 * Ask within a conversation: a reply choosing an entry of the menu its user was just shown is
 * answered with that entry's rule; any other question is asked as usual, and a MENU answer opens
 * a menu for the user's next question (the context's `openMenus`, conversation/menu-memory.ts).
 * The ask route and the try pane both ask here; both kinds of answer are recorded in the
 * question log.
 * @module
 */
import type { AskResult, MenuItem } from '../api-types';
import { answerMenuChoice, ask } from './ask';
import type { AskOutcome, Question } from './ask';
import type { DomainContext } from './context';
import type { EditionName } from './editions';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';

/** The entries of a MENU answer (its items are menu items); null for any other answer. */
function menuOf(result: AskResult): MenuItem[] | null {
  return result.answerType === 'MENU' && result.items ? (result.items as MenuItem[]) : null;
}

export async function askInConversation(
  ctx: DomainContext,
  robot: Robot,
  asked: Question,
  at = ctx.now(),
  edition: EditionName = 'draft',
): Promise<AskOutcome> {
  const menus = ctx.openMenus;
  if (!menus) return ask(ctx, robot, asked, at, edition);
  // The try pane's conversations are its own, whatever userId it gives.
  const key = `${robotKey(robot)}/${asked.channel}`;
  const chosen = menus.choice(key, asked.userId, asked.question, at);
  if (chosen) {
    const choice = { ruleId: chosen.ruleId, number: chosen.number };
    const result = await answerMenuChoice(ctx, robot, asked, choice, at, edition);
    if (result) {
      // The menu stays open (the user may choose another entry) unless the entry opens its own.
      const menu = menuOf(result);
      if (menu) menus.remember(key, asked.userId, menu, at);
      const top = { ruleId: chosen.ruleId, question: chosen.question, score: 1, parts: {} };
      return {
        result,
        decision: { kind: 'bestmatch', top, candidates: [top] },
        chosen: choice,
      };
    }
  }
  const outcome = await ask(ctx, robot, asked, at, edition);
  const menu = menuOf(outcome.result);
  if (menu) menus.remember(key, asked.userId, menu, at);
  else menus.forget(key, asked.userId);
  return outcome;
}
