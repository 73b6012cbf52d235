/**
 * Published versions of a robot's rules: numbered, immutable, stored as the revisions of rules
 * alive at each number (a version holds only the rules changed since the one before).
 * @module
 */
import type { PublishMode, UnpublishedChange, VersionRecord } from '../../publishing-types';
export type { UnpublishedChange, VersionRecord };
import type { MatchableRecord, RobotKey, StoredRule } from './records';

export interface PublishRequest {
  note: string;
  author: string;
  now: number;
  confirmedFailures: string | null;
  /** Set on the version a change of publish mode records: the new mode. */
  modeSwitch?: PublishMode | null;
}

/** What a publish changed in the published rules, for the published index to follow. */
export interface PublishedChange {
  version: VersionRecord;
  /** Revisions that came in (added or changed rules), as the matcher needs them. */
  opened: MatchableRecord[];
  /** Ids of rules whose revision went out (changed or removed). */
  closed: string[];
}

/** What a rollback did to the draft (the rules table), for the draft's memory to follow. */
export interface DraftReset {
  /** Draft rules taken out (moved to the trash), as they were. */
  removed: StoredRule[];
  /** Rules written into the draft from the version, as stored. */
  added: StoredRule[];
}

export interface VersionRepository {
  /** The robot's versions, newest first. */
  list(robot: RobotKey): Promise<VersionRecord[]>;
  find(robot: RobotKey, version: number): Promise<VersionRecord | undefined>;
  latest(robot: RobotKey): Promise<VersionRecord | undefined>;
  /** Whether the draft differs from the latest version (true without versions). */
  draftDiffers(robot: RobotKey): Promise<boolean>;
  /**
   * Publishes the draft as a new version, in one transaction; undefined (nothing written) when
   * the draft is the same as the latest version.
   */
  publish(robot: RobotKey, request: PublishRequest): Promise<PublishedChange | undefined>;
  /**
   * Makes the draft the content of `version` (draft rules not in it go to the trash) and
   * publishes it as a new version, in one transaction. Undefined for an unknown version. The
   * rules it writes or moves to the trash are changed by `actor`.
   */
  rollback(
    robot: RobotKey,
    version: number,
    request: PublishRequest,
    actor: string,
  ): Promise<{ published: PublishedChange; draft: DraftReset } | undefined>;
  /**
   * Makes the draft the content of the latest version again (draft rules not in it, or
   * different, go to the trash; its rules not in the draft as they are come back), writing no
   * version, in one transaction. Undefined when the robot has no version. The rules it writes
   * or moves to the trash are changed by `actor`.
   */
  discardDraft(robot: RobotKey, now: number, actor: string): Promise<DraftReset | undefined>;
  /**
   * The draft's differences from the latest version (rules added, changed, removed), at most
   * `limit` of them, and whether there are more; none before the first version.
   */
  unpublished(
    robot: RobotKey,
    limit: number,
  ): Promise<{ changes: UnpublishedChange[]; more: boolean }>;
  /**
   * A page of a version's rules, in creation order: at most `limit` of them from `fromSeq` on
   * (read in pages, so that no read of a big version holds the event loop).
   */
  rulesFrom(
    robot: RobotKey,
    version: number,
    fromSeq: number,
    limit: number,
  ): Promise<StoredRule[]>;
  /** The rules of the latest version, as the matcher needs them. */
  publishedMatchable(robot: RobotKey): Promise<MatchableRecord[]>;
  /** The answer of a rule in the latest version of its robot. */
  publishedAnswerOf(ruleId: string): Promise<string | undefined>;
  /** Names of rules in the latest version; unknown ids are left out. */
  publishedNamesOf(ruleIds: readonly string[]): Promise<Map<string, string>>;
}
