/**
 * The published editions of robots in review mode: a second matching index per robot, built
 * from its latest version and following every publish; robots in live mode have none (the
 * openapi answers their draft, so memory is not doubled).
 * @module
 */
import type { DomainContext } from '../domain/context';
import type { IndexCodec, SavedIndexes } from '../domain/robot-loading';
import type { Edition, PublishingHooks } from '../domain/ports';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import { toMatchableRule } from '../domain/rule-views';
import type { RobotIndex } from '../matching/types';
import type { RobotKey } from '../store/contract/records';
import type { RobotIndexToSave, SavedRobotIndex } from '../saved-index';
import type { PublishedChange } from '../store/contract/versions';

/** The published index of a robot is kept beside its draft index, under this key. */
export const publishedKey = (robot: RobotKey): string => `${robotKey(robot)}#published`;

export const inReview = (robot: Robot): boolean => robot.settings.publishMode === 'review';

/**
 * What the editions use of the domain's context: made before the context (they are its
 * publishing hooks), from the same parts.
 */
export type EditionsContext = Pick<DomainContext, 'store' | 'robots' | 'indexes' | 'logger'>;

export class PublishedEditions implements PublishingHooks {
  /** Published key → the version its index holds, for robots whose index is built. */
  private readonly built = new Map<string, number | null>();
  /**
   * Publishes the draft when a robot changes mode (set by the publishing room), credited to
   * `actor` (`api` when unknown).
   */
  onModeChange: ((robot: Robot, actor: string) => Promise<void>) | null = null;
  /**
   * Told when a robot's published index was built or followed a publish (set by the publishing
   * room: the impact preview's warm-up, impact-warm.ts).
   */
  onPublishedChanged: ((robot: Robot) => void) | null = null;

  constructor(private readonly ctx: EditionsContext) {}

  /**
   * Makes the published index of every robot in review mode (at start): opened from the saved
   * indexes when they are of this very database state and of the robot's latest version, else
   * built from the version's revisions. Returns how many were built.
   */
  async load(
    saved: SavedIndexes = { file: null },
    codec: IndexCodec | null = null,
  ): Promise<number> {
    let built = 0;
    let opened = 0;
    for (const robot of this.ctx.robots.all()) {
      if (!inReview(robot)) continue;
      if (codec && (await this.open(robot, saved, codec))) {
        opened++;
        continue;
      }
      await this.build(robot);
      built++;
    }
    if (opened > 0) {
      this.ctx.logger.info(
        `opened the saved published index of ${opened} robot(s)` +
          (built > 0 ? `; built ${built} from their latest version` : ''),
      );
    }
    return built;
  }

  /** The published indexes to save at a clean stop, with the version each answers for. */
  toSave(codec: IndexCodec): RobotIndexToSave[] {
    const entries: RobotIndexToSave[] = [];
    for (const robot of this.ctx.robots.all()) {
      const key = publishedKey(robot);
      const version = this.built.get(key);
      if (!inReview(robot) || version == null || this.ctx.indexes.isTainted(key)) continue;
      const index = this.ctx.indexes.of(key);
      entries.push({
        tenantId: robot.tenantId,
        robotId: robot.robotId,
        edition: 'published',
        version,
        rules: index.size,
        maxSeq: 0,
        write: (sink) => codec.write(index, sink),
      });
    }
    return entries;
  }

  private async open(robot: Robot, saved: SavedIndexes, codec: IndexCodec): Promise<boolean> {
    if (!('file' in saved) || !saved.file || saved.file.seq !== this.ctx.store.position) {
      return false;
    }
    const entry = saved.file.robots.find(
      (candidate: SavedRobotIndex) =>
        candidate.edition === 'published' &&
        candidate.tenantId === robot.tenantId &&
        candidate.robotId === robot.robotId,
    );
    const latest = await this.ctx.store.versions.latest(robot);
    if (!entry || !latest || entry.version !== latest.version) return false;
    let index: RobotIndex | null;
    try {
      index = codec.load(entry.bytes);
    } catch (error) {
      this.ctx.logger.warn(
        `the saved published index of robot ${robotKey(robot)} is damaged (${(error as Error).message}): rebuilding it`,
      );
      return false;
    }
    if (index === null || index.size !== entry.rules) return false;
    const key = publishedKey(robot);
    this.ctx.indexes.replace(key, index);
    this.built.set(key, latest.version);
    // Saved with the synonyms of its time.
    await this.robotChanged(robot, robot);
    this.onPublishedChanged?.(robot);
    return true;
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

  async robotChanged(before: Robot, after: Robot, actor = 'api'): Promise<void> {
    const key = publishedKey(after);
    if (before.settings.publishMode !== after.settings.publishMode) {
      // Answers do not change at the switch: the draft is published first (a version records it).
      await this.onModeChange?.(after, actor);
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
    this.onPublishedChanged?.(robot);
  }

  robotRemoved(robot: Robot): void {
    this.drop(robot);
  }

  async robotRestored(robot: Robot): Promise<void> {
    if (inReview(robot)) await this.build(robot);
  }

  async followStored(robot: Robot): Promise<void> {
    const key = publishedKey(robot);
    if (!inReview(robot)) {
      if (this.built.has(key)) this.drop(robot);
      return;
    }
    const latest = await this.ctx.store.versions.latest(robot);
    if (this.built.has(key) && this.built.get(key) === (latest?.version ?? null)) {
      // Same version, same mode: only the synonyms may have changed.
      await this.robotChanged(robot, robot);
      return;
    }
    await this.build(robot);
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
    this.onPublishedChanged?.(robot);
  }
}
