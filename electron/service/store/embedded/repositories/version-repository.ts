/**
 * The embedded store's versions (statements and the revisions' model: sql/versions.ts). The
 * contract (store/contract/versions.ts) states what each method returns.
 * @module
 */
import type { RobotKey, StoredRule } from '../../contract/records';
import type {
  DraftReset,
  PublishRequest,
  PublishedChange,
  VersionRepository,
} from '../../contract/versions';
import { sqlite } from '../../sql/dialect';
import * as versions from '../../sql/versions';
import * as ruleRows from '../../sql/rule-rows';
import type { Store, Tx } from '../database';
import { namesOf, reinsertRule, trashRule } from './rule-repository';
import { mappingUniqueViolations } from './unique-violations';

const SQL = versions.statements(sqlite);

const PUBLISHED_NAME =
  'SELECT rule_name FROM rule_revisions WHERE rule_id = ?1 AND to_version IS NULL';

export class SqlJsVersionRepository implements VersionRepository {
  constructor(
    private readonly store: Store,
    private readonly textKey: ruleRows.TextKey,
  ) {}

  async list(robot: RobotKey) {
    return this.store
      .all<versions.VersionRow>(SQL.list, [robot.tenantId, robot.robotId])
      .map(versions.toVersion);
  }

  async find(robot: RobotKey, version: number) {
    const row = this.store.get<versions.VersionRow>(SQL.find, [
      robot.tenantId,
      robot.robotId,
      version,
    ]);
    return row && versions.toVersion(row);
  }

  async latest(robot: RobotKey) {
    const row = this.store.get<versions.VersionRow>(SQL.latest, [robot.tenantId, robot.robotId]);
    return row && versions.toVersion(row);
  }

  async draftDiffers(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    if (!this.store.get(SQL.latest, key)) return true;
    return this.store.get(SQL.markedDifference, key) !== undefined;
  }

  async publish(robot: RobotKey, request: PublishRequest) {
    return versions.unlessNothingChanged(() =>
      this.store.write((tx) => versions.changed(this.publishIn(tx, robot, request, null))),
    );
  }

  async rollback(robot: RobotKey, version: number, request: PublishRequest, actor: string) {
    if (!this.store.get(SQL.find, [robot.tenantId, robot.robotId, version])) return undefined;
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const draft = this.resetDraft(tx, robot, version, { now: request.now, actor });
        const published = this.publishIn(tx, robot, request, version);
        return { published, draft };
      }),
    );
  }

  async discardDraft(robot: RobotKey, now: number, actor: string) {
    const key = [robot.tenantId, robot.robotId];
    const latest = this.store.get<versions.VersionRow>(SQL.latest, key);
    if (!latest) return undefined;
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const reset = this.resetDraft(tx, robot, Number(latest.version), { now, actor });
        // The draft is the latest version again: nothing is left to compare at the next publish.
        tx.run(SQL.clearMarks, key);
        return reset;
      }),
    );
  }

  async unpublished(robot: RobotKey, limit: number) {
    const key = [robot.tenantId, robot.robotId];
    if (!this.store.get(SQL.latest, key)) return { changes: [], more: false };
    const rows = this.store.all<versions.UnpublishedRow>(SQL.unpublished, [...key, limit + 1]);
    return versions.unpublishedPage(rows, limit);
  }

  async rulesFrom(robot: RobotKey, version: number, fromSeq: number, limit: number) {
    const at = [robot.tenantId, robot.robotId, version, fromSeq, limit];
    return this.store.all<ruleRows.RuleRow>(SQL.rulesAtFrom, at).map(ruleRows.toStoredRule);
  }

  async publishedMatchable(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    return this.store
      .all<ruleRows.MatchableRow>(SQL.publishedMatchable, key)
      .map(ruleRows.toMatchableRecord);
  }

  async publishedAnswerOf(ruleId: string) {
    return this.store.get<{ answer: string }>(SQL.publishedAnswerOf, [ruleId])?.answer;
  }

  async publishedNamesOf(ruleIds: readonly string[]) {
    return namesOf(this.store, PUBLISHED_NAME, ruleIds);
  }

  /** Publishes the draft as the next version, inside the caller's transaction. */
  private publishIn(
    tx: Tx,
    robot: RobotKey,
    request: PublishRequest,
    rolledBackTo: number | null,
  ): PublishedChange {
    const key = [robot.tenantId, robot.robotId];
    const version = Number(tx.get<{ last: number | null }>(SQL.lastVersion, key)?.last ?? 0) + 1;
    const before =
      version > 1 ? tx.get<{ rules: number }>(SQL.rulesIn, [...key, version - 1]) : undefined;
    if (version > 1) tx.run(SQL.closeChanged, [...key, version]);
    tx.run(version > 1 ? SQL.openMarked : SQL.openAll, [...key, version]);
    tx.run(SQL.clearMarks, key);
    const revisions = {
      opened: tx
        .all<ruleRows.MatchableRow>(SQL.openedAt, [...key, version])
        .map(ruleRows.toMatchableRecord),
      closed: tx.all<{ rule_id: string }>(SQL.closedAt, [...key, version]).map((r) => r.rule_id),
    };
    const previous = Number(before?.rules ?? 0);
    const change = versions.publishedChange(version, request, previous, revisions, rolledBackTo);
    tx.run(SQL.insert, versions.versionParams(robot, change.version));
    return change;
  }

  /**
   * Makes the draft the content of `version`: draft rules not in it, or different, go to the
   * trash; the version's rules not in the draft as they were are written back (at their old
   * position when it is free), taken out of the trash if they were there.
   */
  private resetDraft(tx: Tx, robot: RobotKey, version: number, stamp: ruleRows.Stamp): DraftReset {
    const key = [robot.tenantId, robot.robotId];
    const target = tx.all<ruleRows.RuleRow>(SQL.rulesAt, [...key, version]);
    const draft = tx.all<ruleRows.RuleRow>(SQL.draft, key);
    const draftById = new Map(draft.map((row) => [row.rule_id, row]));
    const targetById = new Map(target.map((row) => [row.rule_id, row]));
    const removed: StoredRule[] = [];
    for (const row of draft) {
      const kept = targetById.get(row.rule_id);
      if (kept && versions.sameRule(kept, row)) continue;
      trashRule(tx, robot, row.rule_id, stamp);
      removed.push(ruleRows.toStoredRule(row));
    }
    const added: StoredRule[] = [];
    for (const row of target) {
      const present = draftById.get(row.rule_id);
      if (present && versions.sameRule(present, row)) continue;
      const rule = ruleRows.toStoredRule(row);
      const seq = reinsertRule(tx, robot, rule, this.textKey, stamp);
      const { now, actor } = stamp;
      added.push({ ...rule, seq, answerContentType: 'TEXT', updatedAt: now, updatedBy: actor });
    }
    return { removed, added };
  }
}
