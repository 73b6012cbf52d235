/**
 * The team server's versions (statements and the revisions' model: sql/versions.ts). A publish
 * or rollback holds the robot's advisory lock for its transaction, so that two nodes publishing
 * one robot at once make two versions one after the other. The contract
 * (store/contract/versions.ts) states what each method returns.
 * @module
 */
import type { RobotKey } from '../../contract/records';
import type {
  DraftReset,
  PublishRequest,
  PublishedChange,
  VersionRepository,
} from '../../contract/versions';
import { postgres } from '../../sql/dialect';
import * as versions from '../../sql/versions';
import * as ruleRows from '../../sql/rule-rows';
import type { Database, Tx } from '../database';
import { insertRows, namesOf, placesFor, trashRules } from './rules';

const SQL = versions.statements(postgres);

const PUBLISHED_NAMES =
  'SELECT rule_id, rule_name FROM rule_revisions WHERE rule_id = ANY($1::text[]) AND to_version IS NULL';

/** Waits for (and holds until commit) the robot's publishing lock, whichever node has it. */
async function lockRobot(tx: Tx, robot: RobotKey): Promise<void> {
  await tx.get(
    "SELECT pg_advisory_xact_lock(hashtext('versions/' || $1::text || '/' || $2::text))",
    [robot.tenantId, robot.robotId],
  );
}

export class PostgresVersionRepository implements VersionRepository {
  constructor(
    private readonly db: Database,
    private readonly textKey: ruleRows.TextKey,
  ) {}

  async list(robot: RobotKey) {
    return (await this.db.all<versions.VersionRow>(SQL.list, [robot.tenantId, robot.robotId])).map(
      versions.toVersion,
    );
  }

  async find(robot: RobotKey, version: number) {
    const row = await this.db.get<versions.VersionRow>(SQL.find, [
      robot.tenantId,
      robot.robotId,
      version,
    ]);
    return row && versions.toVersion(row);
  }

  async latest(robot: RobotKey) {
    const row = await this.db.get<versions.VersionRow>(SQL.latest, [robot.tenantId, robot.robotId]);
    return row && versions.toVersion(row);
  }

  async draftDiffers(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    if (!(await this.db.get(SQL.latest, key))) return true;
    return (await this.db.get(SQL.markedDifference, key)) !== undefined;
  }

  async publish(robot: RobotKey, request: PublishRequest) {
    return versions.unlessNothingChanged(() =>
      this.db.write(async (tx) => {
        await lockRobot(tx, robot);
        return versions.changed(await this.publishIn(tx, robot, request, null));
      }),
    );
  }

  async rollback(robot: RobotKey, version: number, request: PublishRequest, actor: string) {
    if (!(await this.find(robot, version))) return undefined;
    return this.db.write(async (tx) => {
      await lockRobot(tx, robot);
      const draft = await this.resetDraft(tx, robot, version, { now: request.now, actor });
      const published = await this.publishIn(tx, robot, request, version);
      return { published, draft };
    });
  }

  async discardDraft(robot: RobotKey, now: number, actor: string) {
    return this.db.write(async (tx) => {
      await lockRobot(tx, robot);
      const key = [robot.tenantId, robot.robotId];
      const latest = await tx.get<versions.VersionRow>(SQL.latest, key);
      if (!latest) return undefined;
      const reset = await this.resetDraft(tx, robot, Number(latest.version), { now, actor });
      // The draft is the latest version again: nothing is left to compare at the next publish.
      await tx.run(SQL.clearMarks, key);
      return reset;
    });
  }

  async unpublished(robot: RobotKey, limit: number) {
    const key = [robot.tenantId, robot.robotId];
    if (!(await this.db.get(SQL.latest, key))) return { changes: [], more: false };
    const rows = await this.db.all<versions.UnpublishedRow>(SQL.unpublished, [...key, limit + 1]);
    return versions.unpublishedPage(rows, limit);
  }

  async rulesFrom(robot: RobotKey, version: number, fromSeq: number, limit: number) {
    const at = [robot.tenantId, robot.robotId, version, fromSeq, limit];
    return (await this.db.all<ruleRows.RuleRow>(SQL.rulesAtFrom, at)).map(ruleRows.toStoredRule);
  }

  async publishedMatchable(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    return (await this.db.all<ruleRows.MatchableRow>(SQL.publishedMatchable, key)).map(
      ruleRows.toMatchableRecord,
    );
  }

  async publishedAnswerOf(ruleId: string) {
    return (await this.db.get<{ answer: string }>(SQL.publishedAnswerOf, [ruleId]))?.answer;
  }

  async publishedNamesOf(ruleIds: readonly string[]) {
    return namesOf(this.db, PUBLISHED_NAMES, ruleIds);
  }

  /** Publishes the draft as the next version, inside the caller's transaction. */
  private async publishIn(
    tx: Tx,
    robot: RobotKey,
    request: PublishRequest,
    rolledBackTo: number | null,
  ): Promise<PublishedChange> {
    const key = [robot.tenantId, robot.robotId];
    const last = await tx.get<{ last: number | null }>(SQL.lastVersion, key);
    const version = Number(last?.last ?? 0) + 1;
    const before =
      version > 1 ? await tx.get<{ rules: number }>(SQL.rulesIn, [...key, version - 1]) : undefined;
    if (version > 1) await tx.run(SQL.closeChanged, [...key, version]);
    await tx.run(version > 1 ? SQL.openMarked : SQL.openAll, [...key, version]);
    await tx.run(SQL.clearMarks, key);
    const closed = await tx.all<{ rule_id: string }>(SQL.closedAt, [...key, version]);
    const opened = await tx.all<ruleRows.MatchableRow>(SQL.openedAt, [...key, version]);
    const revisions = {
      opened: opened.map(ruleRows.toMatchableRecord),
      closed: closed.map((row) => row.rule_id),
    };
    const previous = Number(before?.rules ?? 0);
    const change = versions.publishedChange(version, request, previous, revisions, rolledBackTo);
    await tx.run(SQL.insert, versions.versionParams(robot, change.version));
    return change;
  }

  /**
   * Makes the draft the content of `version`: draft rules not in it, or different, go to the
   * trash; the version's rules not in the draft as they were are written back (at their old
   * position when it is free), taken out of the trash if they were there.
   */
  private async resetDraft(
    tx: Tx,
    robot: RobotKey,
    version: number,
    stamp: ruleRows.Stamp,
  ): Promise<DraftReset> {
    const key = [robot.tenantId, robot.robotId];
    const target = await tx.all<ruleRows.RuleRow>(SQL.rulesAt, [...key, version]);
    const draft = await tx.all<ruleRows.RuleRow>(SQL.draft, key);
    const draftById = new Map(draft.map((row) => [row.rule_id, row]));
    const targetById = new Map(target.map((row) => [row.rule_id, row]));
    const leaving = draft.filter((row) => {
      const kept = targetById.get(row.rule_id);
      return !(kept && versions.sameRule(kept, row));
    });
    if (leaving.length > 0) {
      await trashRules(
        tx,
        robot,
        leaving.map((row) => row.rule_id),
        stamp,
      );
    }
    const coming = target
      .filter((row) => {
        const present = draftById.get(row.rule_id);
        return !(present && versions.sameRule(present, row));
      })
      .map(ruleRows.toStoredRule);
    const seqs = await placesFor(
      tx,
      coming.map((rule) => rule.seq),
    );
    if (coming.length > 0) {
      await tx.run('DELETE FROM deleted_rules WHERE rule_id = ANY($1::text[])', [
        coming.map((rule) => rule.ruleId),
      ]);
      const rows = coming.map((rule, i) => [seqs[i], ...ruleRows.jsonRow(rule, this.textKey)]);
      await insertRows(tx, robot, rows, stamp);
    }
    return {
      removed: leaving.map(ruleRows.toStoredRule),
      added: coming.map((rule, i) => ({
        ...rule,
        seq: seqs[i] as number,
        answerContentType: 'TEXT',
        updatedAt: stamp.now,
        updatedBy: stamp.actor,
      })),
    };
  }
}
