/**
 * Which rules a question is answered from: the draft (the rules as saved), or the published
 * version. Publishing (publishing/) plugs the published edition in through `PublishingHooks` on
 * the context; the domain knows only this interface. Without it, or for a robot in `live` mode,
 * the published edition is the draft itself.
 * @module
 */
import type { RobotIndex } from '../matching/types';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexOf } from './robot-loading';

/** `served`: what the openapi answers (the published version in review mode, else the draft). */
export type EditionName = 'draft' | 'published' | 'served';

export interface Edition {
  readonly index: RobotIndex;
  /**
   * The published version these rules are (what the question log records as the version that
   * answered); null for the draft.
   */
  readonly version: number | null;
  answerOf(ruleId: string): Promise<string | undefined>;
  namesOf(ruleIds: readonly string[]): Promise<Map<string, string>>;
}

export interface PublishingHooks {
  /** The robot's published edition when it is in review mode; undefined in live mode. */
  published(robot: Robot): Edition | undefined;
  /**
   * Called in the robot's write queue after its settings changed (a new publish mode, new
   * synonyms), for the published edition to follow.
   */
  robotChanged(before: Robot, after: Robot): Promise<void>;
  /** A robot (or its tenant) went to the trash: its published edition leaves memory. */
  robotRemoved(robot: Robot): void;
  /** A robot came back from the trash: its published edition is made again. */
  robotRestored(robot: Robot): Promise<void>;
  /**
   * Another node of a team server published, or changed the robot's mode or synonyms: the
   * published edition follows the store as it is now, without writing anything itself.
   */
  followStored(robot: Robot): Promise<void>;
}

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
