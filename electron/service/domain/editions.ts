/**
 * Which rules a question is answered from: the draft (the rules as saved), or the published
 * version. Publishing (publishing/) plugs the published edition in through `PublishingHooks` on
 * the context (ports.ts); the domain knows only this interface. Without it, or for a robot in
 * `live` mode, the published edition is the draft itself.
 * @module
 */
import type { DomainContext } from './context';
import type { Edition } from './ports';
import type { Robot } from './robot-directory';
import { indexOf } from './robot-loading';

/** `served`: what the openapi answers (the published version in review mode, else the draft). */
export type EditionName = 'draft' | 'published' | 'served';

/** A rule's answer in the draft: from memory when it was answered recently, else read. */
async function draftAnswerOf(ctx: DomainContext, ruleId: string): Promise<string | undefined> {
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

export function draftEdition(ctx: DomainContext, robot: Robot): Edition {
  return {
    index: indexOf(ctx, robot),
    version: null,
    answerOf: (ruleId) => draftAnswerOf(ctx, ruleId),
    namesOf: (ruleIds) => ctx.store.rules.namesOf(ruleIds),
  };
}

export function editionOf(ctx: DomainContext, robot: Robot, name: EditionName): Edition {
  if (name === 'draft') return draftEdition(ctx, robot);
  return ctx.publishing?.published(robot) ?? draftEdition(ctx, robot);
}
