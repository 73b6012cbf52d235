/**
 * Adding phrasings to a rule (the inbox's one-click fix): the rule is read and written in the
 * robot's write queue, so a concurrent edit cannot be lost, and the index follows the change
 * through the one path of rule changes.
 * @module
 */
import { LIMITS } from '../limits';
import { normalizeText } from '../matching/normalize';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { changeRules } from './rule-changes';
import { requireRule, ruleNotFound } from './rules';

export interface PhrasingsAdded {
  ruleId: string;
  added: string[];
  /** The rule had them already (the same text once normalised). */
  present: string[];
  /** No room left: a rule has at most LIMITS.questionsMax phrasings. */
  notFitting: string[];
}

export function addPhrasings(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
  questions: readonly string[],
): Promise<PhrasingsAdded> {
  return changeRules(ctx, robot, async (actor) => {
    const current = await requireRule(ctx, robot, ruleId);
    const seen = new Set(current.questions.map(normalizeText));
    const result: PhrasingsAdded = { ruleId, added: [], present: [], notFitting: [] };
    const next = [...current.questions];
    for (const question of questions) {
      const key = normalizeText(question);
      if (seen.has(key)) result.present.push(question);
      else if (next.length >= LIMITS.questionsMax) result.notFitting.push(question);
      else {
        seen.add(key);
        next.push(question.trim());
        result.added.push(question);
      }
    }
    if (result.added.length === 0) return { change: {}, result };
    const content = current;
    const updated = await ctx.store.rules.update(
      robot,
      ruleId,
      {
        ruleName: content.ruleName,
        nameKey: content.nameKey,
        categoryId: content.categoryId,
        active: content.active,
        allowSimGen: content.allowSimGen,
        effectBegin: content.effectBegin,
        effectEnd: content.effectEnd,
        questions: next,
        answer: content.answer,
      },
      ctx.now(),
      actor,
    );
    if (!updated) throw ruleNotFound(robot, ruleId);
    return { change: { changed: [updated] }, result };
  });
}
