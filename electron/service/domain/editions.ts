/**
 * Which rules a question is answered from: the draft (the rules as saved), or the published
 * version. Publishing (publishing/) plugs the published edition in through `PublishingHooks` on
 * the context (ports.ts); the domain knows only this interface. Without it, or for a robot in
 * `live` mode, the published edition is the draft itself.
 * @module
 */
import type { RobotIndex } from '../matching/types';
import type { DomainContext } from './context';
import type { Edition } from './ports';
import type { Robot } from './robot-directory';
import { indexKey, robotGone } from './robot-loading';

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

/** The draft answering from `index`, the robot's main index (robot-loading.ts `indexOf`). */
export function draftEdition(ctx: DomainContext, index: RobotIndex): Edition {
  return {
    index,
    version: null,
    answerOf: (ruleId) => draftAnswerOf(ctx, ruleId),
    namesOf: (ruleIds) => ctx.store.rules.namesOf(ruleIds),
  };
}

/**
 * Runs `use` with the edition `name` of the robot. The draft's index is loaded first when it is
 * not in memory (a budget: robot-indexes.ts), and held until `use` is done.
 */
export async function withEdition<T>(
  ctx: DomainContext,
  robot: Robot,
  name: EditionName,
  use: (edition: Edition) => Promise<T>,
): Promise<T> {
  const published = name === 'draft' ? undefined : ctx.publishing?.published(robot);
  if (published) return use(published);
  const lease = await ctx.indexes.acquire(indexKey(robot));
  if (!lease) throw robotGone(robot);
  try {
    return await use(draftEdition(ctx, lease.index));
  } finally {
    lease.release();
  }
}

/** The names of rules as the edition `name` has them (no index needed). */
export function namesIn(
  ctx: DomainContext,
  robot: Robot,
  name: EditionName,
  ruleIds: readonly string[],
): Promise<Map<string, string>> {
  const published = name === 'draft' ? undefined : ctx.publishing?.published(robot);
  return published ? published.namesOf(ruleIds) : ctx.store.rules.namesOf(ruleIds);
}
