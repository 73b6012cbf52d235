/**
 * The published editions of robots in review mode: a second matching index per robot, built
 * from its latest version and following every publish; robots in live mode have none (the
 * openapi answers their draft, so memory is not doubled).
 * @module
 */
import type { DomainContext } from '../domain/context';
import type { Edition, PublishingHooks } from '../domain/editions';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import { toMatchableRule } from '../domain/rule-views';
import type { RobotIndex } from '../matching/types';
import type { RobotKey } from '../repositories/records';
import type { PublishedChange } from '../repositories/versions';

/** The published index of a robot is kept beside its draft index, under this key. */
export const publishedKey = (robot: RobotKey): string => `${robotKey(robot)}#published`;

export const inReview = (robot: Robot): boolean => robot.settings.publishMode === 'review';

export class PublishedEditions implements PublishingHooks {
  /** Published key → the version its index holds, for robots whose index is built. */
  private readonly built = new Map<string, number | null>();
  /** Publishes the draft when a robot changes mode (set by the publishing room). */
  onModeChange: ((robot: Robot) => Promise<void>) | null = null;

  constructor(private readonly ctx: DomainContext) {}

  /** Builds the published index of every robot in review mode (at start). */
  async load(): Promise<void> {
    for (const robot of this.ctx.robots.all()) {
      if (inReview(robot)) await this.build(robot);
    }
  }

  published(robot: Robot): Edition | undefined {
    const key = publishedKey(robot);
    const version = this.built.get(key);
    if (!inReview(robot) || version === undefined) return undefined;
    const versions = this.ctx.store.versions;
    return {
      index: this.ctx.indexes.of(key),
      version,
      answerOf: (ruleId) => versions.publishedAnswerOf(ruleId),
      namesOf: (ruleIds) => versions.publishedNamesOf(ruleIds),
    };
  }

  async robotChanged(before: Robot, after: Robot): Promise<void> {
    const key = publishedKey(after);
    if (before.settings.publishMode !== after.settings.publishMode) {
      // Answers do not change at the switch: the draft is published first (a version records it).
      await this.onModeChange?.(after);
      if (inReview(after)) await this.build(after);
      else this.drop(after);
      return;
    }
    if (this.built.has(key)) {
      const index = this.ctx.indexes.of(key);
      if (
        index.setSynonyms &&
        JSON.stringify(index.synonyms ?? []) !== JSON.stringify(after.settings.synonyms)
      ) {
        this.ctx.indexes.update(key, (target) => target.setSynonyms?.(after.settings.synonyms));
      }
    }
  }

  /** Makes the published index follow a publish (in the robot's write queue). */
  follow(robot: Robot, change: PublishedChange): void {
    const key = publishedKey(robot);
    if (!this.built.has(key)) return;
    this.built.set(key, change.version.version);
    const opened = new Set(change.opened.map((rule) => rule.ruleId));
    this.ctx.indexes.update(key, (index) => {
      for (const ruleId of change.closed) if (!opened.has(ruleId)) index.remove(ruleId);
      for (const rule of change.opened) index.upsert(toMatchableRule(rule));
    });
  }

  drop(robot: RobotKey): void {
    this.ctx.indexes.drop(publishedKey(robot));
    this.built.delete(publishedKey(robot));
  }

  private async build(robot: Robot): Promise<void> {
    const key = publishedKey(robot);
    this.ctx.indexes.drop(key);
    const latest = await this.ctx.store.versions.latest(robot);
    const index: RobotIndex = this.ctx.indexes.of(key);
    if (index.setSynonyms && robot.settings.synonyms.length > 0) {
      index.setSynonyms(robot.settings.synonyms);
    }
    for (const rule of await this.ctx.store.versions.publishedMatchable(robot)) {
      index.upsert(toMatchableRule(rule));
    }
    this.built.set(key, latest?.version ?? null);
  }
}
