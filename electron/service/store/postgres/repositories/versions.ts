/**
 * The team server's versions: the embedded store's statements on `versions` and
 * `rule_revisions` in PostgreSQL's SQL (store/embedded/repositories/version-repository.ts explains the
 * revisions). A publish or rollback holds the robot's advisory lock for its transaction, so that
 * two nodes publishing one robot at once make two versions one after the other.
 * @module
 */
import type { MatchableRecord, RobotKey, StoredRule } from '../../contract/records';
import type {
  DraftReset,
  PublishRequest,
  PublishedChange,
  VersionRecord,
  VersionRepository,
} from '../../contract/versions';
import { jsonRow } from '../../embedded/repositories/rule-repository';
import {
  CONTENT,
  NothingChanged,
  REVISION_AS_RULE,
  SELECT_VERSION,
  sameRule,
  toVersion,
} from '../../embedded/repositories/version-repository';
import type { VersionRow } from '../../embedded/repositories/version-repository';
import {
  MATCHABLE_COLUMNS,
  RULE_COLUMNS,
  toMatchableRecord,
  toStoredRule,
} from '../../embedded/repositories/rule-rows';
import type { MatchableRow, RuleRow } from '../../embedded/repositories/rule-rows';
import type { Database, Tx } from '../database';
import { insertRows, placesFor, trashRules } from './rules';
import type { PostgresRuleRepository } from './rules';

/** SQLite's `IS`: equal, or both null. */
const SAME_CONTENT = CONTENT.map((c) => `r.${c} IS NOT DISTINCT FROM rule_revisions.${c}`).join(
  ' AND ',
);

const MARKED = 'SELECT rule_id FROM draft_changes WHERE tenant_id = $1 AND robot_id = $2';

const CLOSE_CHANGED = `UPDATE rule_revisions SET to_version = $3
WHERE tenant_id = $1 AND robot_id = $2 AND to_version IS NULL AND rule_id IN (${MARKED})
  AND NOT EXISTS (SELECT 1 FROM rules AS r WHERE r.rule_id = rule_revisions.rule_id
    AND r.tenant_id = $1 AND r.robot_id = $2 AND ${SAME_CONTENT})`;

const openNew = (
  where: string,
) => `INSERT INTO rule_revisions (tenant_id, robot_id, from_version, to_version, rule_id, ${CONTENT.join(', ')})
SELECT $1, $2, $3, NULL, r.rule_id, ${CONTENT.map((c) => `r.${c}`).join(', ')} FROM rules AS r
WHERE ${where}
  AND NOT EXISTS (SELECT 1 FROM rule_revisions AS x WHERE x.rule_id = r.rule_id AND x.to_version IS NULL)`;

const OPEN_ALL = openNew('r.tenant_id = $1 AND r.robot_id = $2');
const OPEN_MARKED = openNew(`r.tenant_id = $1 AND r.robot_id = $2 AND r.rule_id IN (${MARKED})`);

const MARKED_DIFFERENCE = `SELECT 1 AS found FROM draft_changes AS d
  LEFT JOIN rules AS r ON r.rule_id = d.rule_id AND r.tenant_id = d.tenant_id AND r.robot_id = d.robot_id
  LEFT JOIN rule_revisions ON rule_revisions.rule_id = d.rule_id AND rule_revisions.to_version IS NULL
  WHERE d.tenant_id = $1 AND d.robot_id = $2
    AND NOT (r.rule_id IS NULL AND rule_revisions.rule_id IS NULL)
    AND NOT (r.rule_id IS NOT NULL AND rule_revisions.rule_id IS NOT NULL AND ${SAME_CONTENT})
  LIMIT 1`;

const AT_VERSION =
  'tenant_id = $1 AND robot_id = $2 AND from_version <= $3 AND (to_version IS NULL OR to_version > $3)';

const OF_ROBOT = 'tenant_id = $1 AND robot_id = $2';

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
    private readonly ruleRepository: PostgresRuleRepository,
  ) {}

  async list(robot: RobotKey): Promise<VersionRecord[]> {
    const rows = await this.db.all<VersionRow>(
      `${SELECT_VERSION} WHERE ${OF_ROBOT} ORDER BY version DESC`,
      [robot.tenantId, robot.robotId],
    );
    return rows.map(toVersion);
  }

  async find(robot: RobotKey, version: number): Promise<VersionRecord | undefined> {
    const row = await this.db.get<VersionRow>(
      `${SELECT_VERSION} WHERE ${OF_ROBOT} AND version = $3`,
      [robot.tenantId, robot.robotId, version],
    );
    return row && toVersion(row);
  }

  async latest(robot: RobotKey): Promise<VersionRecord | undefined> {
    const row = await this.db.get<VersionRow>(
      `${SELECT_VERSION} WHERE ${OF_ROBOT} ORDER BY version DESC LIMIT 1`,
      [robot.tenantId, robot.robotId],
    );
    return row && toVersion(row);
  }

  async draftDiffers(robot: RobotKey): Promise<boolean> {
    if (!(await this.latest(robot))) return true;
    return (await this.db.get(MARKED_DIFFERENCE, [robot.tenantId, robot.robotId])) !== undefined;
  }

  async publish(robot: RobotKey, request: PublishRequest): Promise<PublishedChange | undefined> {
    try {
      return await this.db.write(async (tx) => {
        await lockRobot(tx, robot);
        const change = await this.publishIn(tx, robot, request, null);
        if (change.version.version > 1 && change.opened.length + change.closed.length === 0) {
          throw new NothingChanged();
        }
        return change;
      });
    } catch (error) {
      if (error instanceof NothingChanged) return undefined;
      throw error;
    }
  }

  async rollback(
    robot: RobotKey,
    version: number,
    request: PublishRequest,
    actor: string,
  ): Promise<{ published: PublishedChange; draft: DraftReset } | undefined> {
    if (!(await this.find(robot, version))) return undefined;
    return this.db.write(async (tx) => {
      await lockRobot(tx, robot);
      const draft = await this.resetDraft(tx, robot, version, request.now, actor);
      const published = await this.publishIn(tx, robot, request, version);
      return { published, draft };
    });
  }

  async rules(robot: RobotKey, version: number): Promise<StoredRule[]> {
    const rows = await this.db.all<RuleRow>(
      `SELECT ${REVISION_AS_RULE} FROM rule_revisions WHERE ${AT_VERSION} ORDER BY rule_seq`,
      [robot.tenantId, robot.robotId, version],
    );
    return rows.map(toStoredRule);
  }

  async publishedMatchable(robot: RobotKey): Promise<MatchableRecord[]> {
    const rows = await this.db.all<MatchableRow>(
      `SELECT ${MATCHABLE_COLUMNS} FROM rule_revisions WHERE ${OF_ROBOT} AND to_version IS NULL
       ORDER BY rule_seq`,
      [robot.tenantId, robot.robotId],
    );
    return rows.map(toMatchableRecord);
  }

  async publishedAnswerOf(ruleId: string): Promise<string | undefined> {
    const row = await this.db.get<{ answer: string }>(
      'SELECT answer FROM rule_revisions WHERE rule_id = $1 AND to_version IS NULL',
      [ruleId],
    );
    return row?.answer;
  }

  async publishedNamesOf(ruleIds: readonly string[]): Promise<Map<string, string>> {
    if (ruleIds.length === 0) return new Map();
    const rows = await this.db.all<{ rule_id: string; rule_name: string }>(
      'SELECT rule_id, rule_name FROM rule_revisions WHERE rule_id = ANY($1::text[]) AND to_version IS NULL',
      [ruleIds],
    );
    const byId = new Map(rows.map((row) => [row.rule_id, row.rule_name]));
    const names = new Map<string, string>();
    for (const ruleId of ruleIds) {
      const name = byId.get(ruleId);
      if (name !== undefined) names.set(ruleId, name);
    }
    return names;
  }

  /** Publishes the draft as the next version, inside the caller's transaction. */
  private async publishIn(
    tx: Tx,
    robot: RobotKey,
    request: PublishRequest,
    rolledBackTo: number | null,
  ): Promise<PublishedChange> {
    const key = [robot.tenantId, robot.robotId];
    const last = await tx.get<{ last: number | null }>(
      `SELECT MAX(version) AS last FROM versions WHERE ${OF_ROBOT}`,
      key,
    );
    const version = Number(last?.last ?? 0) + 1;
    const previous = version > 1 ? await this.rulesIn(tx, robot, version - 1) : 0;
    if (version > 1) await tx.run(CLOSE_CHANGED, [...key, version]);
    await tx.run(version > 1 ? OPEN_MARKED : OPEN_ALL, [...key, version]);
    await tx.run(`DELETE FROM draft_changes WHERE ${OF_ROBOT}`, key);
    const closed = (
      await tx.all<{ rule_id: string }>(
        `SELECT rule_id FROM rule_revisions WHERE ${OF_ROBOT} AND to_version = $3`,
        [...key, version],
      )
    ).map((row) => row.rule_id);
    const opened = (
      await tx.all<MatchableRow>(
        `SELECT ${MATCHABLE_COLUMNS} FROM rule_revisions WHERE ${OF_ROBOT} AND from_version = $3
         ORDER BY rule_seq`,
        [...key, version],
      )
    ).map(toMatchableRecord);
    const closedSet = new Set(closed);
    const changed = opened.filter((rule) => closedSet.has(rule.ruleId)).length;
    const record: VersionRecord = {
      version,
      note: request.note,
      author: request.author,
      createdAt: request.now,
      rules: previous + opened.length - closed.length,
      added: opened.length - changed,
      changed,
      removed: closed.length - changed,
      rolledBackTo,
      confirmedFailures: request.confirmedFailures,
    };
    await tx.run(
      `INSERT INTO versions (tenant_id, robot_id, version, note, author, created_at, rules, added, changed,
        removed, rolled_back_to, confirmed_failures) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        ...key,
        version,
        record.note,
        record.author,
        record.createdAt,
        record.rules,
        record.added,
        record.changed,
        record.removed,
        rolledBackTo,
        record.confirmedFailures,
      ],
    );
    return { version: record, opened, closed };
  }

  private async rulesIn(tx: Tx, robot: RobotKey, version: number): Promise<number> {
    const row = await tx.get<{ rules: number }>(
      `SELECT rules FROM versions WHERE ${OF_ROBOT} AND version = $3`,
      [robot.tenantId, robot.robotId, version],
    );
    return Number(row?.rules ?? 0);
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
    now: number,
    actor: string,
  ): Promise<DraftReset> {
    const key = [robot.tenantId, robot.robotId];
    const target = await tx.all<RuleRow>(
      `SELECT ${REVISION_AS_RULE} FROM rule_revisions WHERE ${AT_VERSION} ORDER BY rule_seq`,
      [...key, version],
    );
    const draft = await tx.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
      key,
    );
    const draftById = new Map(draft.map((row) => [row.rule_id, row]));
    const targetById = new Map(target.map((row) => [row.rule_id, row]));
    const leaving = draft.filter((row) => {
      const kept = targetById.get(row.rule_id);
      return !(kept && sameRule(kept, row));
    });
    if (leaving.length > 0) {
      await trashRules(
        tx,
        robot,
        leaving.map((row) => row.rule_id),
        now,
        actor,
      );
    }
    const coming = target
      .filter((row) => {
        const present = draftById.get(row.rule_id);
        return !(present && sameRule(present, row));
      })
      .map(toStoredRule);
    const seqs = await placesFor(
      tx,
      coming.map((rule) => rule.seq),
    );
    if (coming.length > 0) {
      await tx.run('DELETE FROM deleted_rules WHERE rule_id = ANY($1::text[])', [
        coming.map((rule) => rule.ruleId),
      ]);
      await insertRows(
        tx,
        robot,
        coming.map((rule, i) => [seqs[i], ...jsonRow(rule, this.ruleRepository.searchText(rule))]),
        now,
        actor,
      );
    }
    return {
      removed: leaving.map(toStoredRule),
      added: coming.map((rule, i) => ({
        ...rule,
        seq: seqs[i] as number,
        answerContentType: 'TEXT',
        updatedAt: now,
        updatedBy: actor,
      })),
    };
  }
}
