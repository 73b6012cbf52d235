/**
 * Ask within a conversation: a reply choosing an entry of the menu its user was just shown is
 * answered with that entry's rule; any other question is asked as usual, and a MENU answer opens
 * a menu for the user's next question (conversation/menu-memory.ts). Used by the ask route and
 * the try pane alike; both kinds of answer are recorded in the question log.
 * @module
 */
import type { AskResult, MenuItem } from '../api-types';
import { answerMenuChoice, ask } from '../domain/ask';
import type { AskOutcome, Question } from '../domain/ask';
import type { DomainContext } from '../domain/context';
import type { EditionName } from '../domain/editions';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import type { MenuMemory } from '../conversation/menu-memory';

/** The entries of a MENU answer (its items are menu items); null for any other answer. */
function menuOf(result: AskResult): MenuItem[] | null {
  return result.answerType === 'MENU' && result.items ? (result.items as MenuItem[]) : null;
}

export async function askInConversation(
  ctx: DomainContext,
  menus: MenuMemory | undefined,
  robot: Robot,
  asked: Question,
  at = ctx.now(),
  edition: EditionName = 'draft',
): Promise<AskOutcome> {
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
