/**
 * The embedded store's versions: every SQL statement on `versions` and `rule_revisions`. A
 * version v is the set of revisions with `from_version <= v` and `to_version` null or above v;
 * a publish closes the revisions of rules changed or removed since the latest version and opens
 * one for each rule added or changed, so unchanged rules are never copied.
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
import type { Store, Tx } from '../database';
import type { SqlJsRuleRepository } from './rule-repository';
import { INSERT_RULES, TRASH_COLUMNS, jsonRow } from './rule-repository';
import { MATCHABLE_COLUMNS, RULE_COLUMNS, toMatchableRecord, toStoredRule } from './rule-rows';
import type { MatchableRow, RuleRow } from './rule-rows';
import { mappingUniqueViolations } from './unique-violations';

/** The columns a revision copies from a rule: its whole content, position and times. */
export const CONTENT = [
  'rule_seq',
  'rule_name',
  'name_key',
  'category_id',
  'active',
  'allow_sim_gen',
  'effect_begin',
  'effect_end',
  'questions',
  'answer',
  'answer_content_type',
  'created_at',
  'updated_at',
  'match_policy',
  'negative_keywords',
  'menu',
  'updated_by',
];

const SAME_CONTENT = CONTENT.map((c) => `r.${c} IS rule_revisions.${c}`).join(' AND ');

/** The rules written since the latest version (migration 0006's triggers mark them). */
const MARKED = 'SELECT rule_id FROM draft_changes WHERE tenant_id = ?1 AND robot_id = ?2';

/** Closes the alive revisions of marked rules that are gone from the draft or differ. */
const CLOSE_CHANGED = `UPDATE rule_revisions SET to_version = ?3
WHERE +tenant_id = ?1 AND +robot_id = ?2 AND to_version IS NULL AND rule_id IN (${MARKED})
  AND NOT EXISTS (SELECT 1 FROM rules AS r WHERE r.rule_id = rule_revisions.rule_id
    AND r.tenant_id = ?1 AND r.robot_id = ?2 AND ${SAME_CONTENT})`;

/** Opens a revision for every draft rule without an alive one (added, or closed just now). */
const openNew = (
  where: string,
) => `INSERT INTO rule_revisions (tenant_id, robot_id, from_version, to_version, rule_id, ${CONTENT.join(', ')})
SELECT ?1, ?2, ?3, NULL, r.rule_id, ${CONTENT.map((c) => `r.${c}`).join(', ')} FROM rules AS r
WHERE ${where}
  AND NOT EXISTS (SELECT 1 FROM rule_revisions AS x WHERE x.rule_id = r.rule_id AND x.to_version IS NULL)`;

/**
 * The first version takes every rule; later ones look only at the marked rules. (A unary `+`
 * keeps SQLite from walking the robot's index, every rule of it, instead of the marked ids.)
 */
const OPEN_ALL = openNew('r.tenant_id = ?1 AND r.robot_id = ?2');
const OPEN_MARKED = openNew(`+r.tenant_id = ?1 AND +r.robot_id = ?2 AND r.rule_id IN (${MARKED})`);

/** A marked rule whose draft differs from its alive revision, or exists on one side only. */
const MARKED_DIFFERENCE = `SELECT 1 AS found FROM draft_changes AS d
  LEFT JOIN rules AS r ON r.rule_id = d.rule_id AND r.tenant_id = d.tenant_id AND r.robot_id = d.robot_id
  LEFT JOIN rule_revisions ON rule_revisions.rule_id = d.rule_id AND rule_revisions.to_version IS NULL
  WHERE d.tenant_id = ? AND d.robot_id = ?
    AND NOT (r.rule_id IS NULL AND rule_revisions.rule_id IS NULL)
    AND NOT (r.rule_id IS NOT NULL AND rule_revisions.rule_id IS NOT NULL AND ${SAME_CONTENT})
  LIMIT 1`;

export const REVISION_AS_RULE = `rule_seq, rule_id, tenant_id, robot_id, ${CONTENT.filter((c) => c !== 'rule_seq').join(', ')}`;

const AT_VERSION =
  'tenant_id = ? AND robot_id = ? AND from_version <= ? AND (to_version IS NULL OR to_version > ?)';

const ALIVE = 'tenant_id = ? AND robot_id = ? AND to_version IS NULL';

export interface VersionRow {
  [column: string]: string | number | null;
  version: number;
  note: string;
  author: string;
  created_at: number;
  rules: number;
  added: number;
  changed: number;
  removed: number;
  rolled_back_to: number | null;
  confirmed_failures: string | null;
}

export const toVersion = (row: VersionRow): VersionRecord => ({
  version: Number(row.version),
  note: row.note,
  author: row.author,
  createdAt: Number(row.created_at),
  rules: Number(row.rules),
  added: Number(row.added),
  changed: Number(row.changed),
  removed: Number(row.removed),
  rolledBackTo: row.rolled_back_to === null ? null : Number(row.rolled_back_to),
  confirmedFailures: row.confirmed_failures,
});

export const SELECT_VERSION =
  'SELECT version, note, author, created_at, rules, added, changed, removed, rolled_back_to, confirmed_failures FROM versions';

/** Thrown inside a publish's transaction to roll it back when the draft is the latest version. */
export class NothingChanged extends Error {}

export const sameRule = (a: RuleRow, b: RuleRow): boolean =>
  CONTENT.every((column) => a[column] === b[column]);

export class SqlJsVersionRepository implements VersionRepository {
  constructor(
    private readonly store: Store,
    private readonly ruleRepository: SqlJsRuleRepository,
  ) {}

  async list(robot: RobotKey): Promise<VersionRecord[]> {
    return this.store
      .all<VersionRow>(
        `${SELECT_VERSION} WHERE tenant_id = ? AND robot_id = ? ORDER BY version DESC`,
        [robot.tenantId, robot.robotId],
      )
      .map(toVersion);
  }

  async find(robot: RobotKey, version: number): Promise<VersionRecord | undefined> {
    const row = this.store.get<VersionRow>(
      `${SELECT_VERSION} WHERE tenant_id = ? AND robot_id = ? AND version = ?`,
      [robot.tenantId, robot.robotId, version],
    );
    return row && toVersion(row);
  }

  async latest(robot: RobotKey): Promise<VersionRecord | undefined> {
    const row = this.store.get<VersionRow>(
      `${SELECT_VERSION} WHERE tenant_id = ? AND robot_id = ? ORDER BY version DESC LIMIT 1`,
      [robot.tenantId, robot.robotId],
    );
    return row && toVersion(row);
  }

  async draftDiffers(robot: RobotKey): Promise<boolean> {
    const key = [robot.tenantId, robot.robotId];
    if (!(await this.latest(robot))) return true;
    return this.store.get(MARKED_DIFFERENCE, key) !== undefined;
  }

  async publish(robot: RobotKey, request: PublishRequest): Promise<PublishedChange | undefined> {
    try {
      return this.store.write((tx) => {
        const change = this.publishIn(tx, robot, request, null);
        // The same content as the latest version: nothing is written (the throw rolls back).
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
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const draft = this.resetDraft(tx, robot, version, request.now, actor);
        const published = this.publishIn(tx, robot, request, version);
        return { published, draft };
      }),
    );
  }

  async rules(robot: RobotKey, version: number): Promise<StoredRule[]> {
    return this.store
      .all<RuleRow>(
        `SELECT ${REVISION_AS_RULE} FROM rule_revisions WHERE ${AT_VERSION} ORDER BY rule_seq`,
        [robot.tenantId, robot.robotId, version, version],
      )
      .map(toStoredRule);
  }

  async publishedMatchable(robot: RobotKey): Promise<MatchableRecord[]> {
    return this.store
      .all<MatchableRow>(
        `SELECT ${MATCHABLE_COLUMNS}
         FROM rule_revisions WHERE ${ALIVE} ORDER BY rule_seq`,
        [robot.tenantId, robot.robotId],
      )
      .map(toMatchableRecord);
  }

  async publishedAnswerOf(ruleId: string): Promise<string | undefined> {
    return this.store.get<{ answer: string }>(
      'SELECT answer FROM rule_revisions WHERE rule_id = ? AND to_version IS NULL',
      [ruleId],
    )?.answer;
  }

  async publishedNamesOf(ruleIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const ruleId of ruleIds) {
      const row = this.store.get<{ rule_name: string }>(
        'SELECT rule_name FROM rule_revisions WHERE rule_id = ? AND to_version IS NULL',
        [ruleId],
      );
      if (row) names.set(ruleId, row.rule_name);
    }
    return names;
  }

  /** Publishes the draft as the next version, inside the caller's transaction. */
  private publishIn(
    tx: Tx,
    robot: RobotKey,
    request: PublishRequest,
    rolledBackTo: number | null,
  ): PublishedChange {
    const key = [robot.tenantId, robot.robotId];
    const last = tx.get<{ last: number | null }>(
      'SELECT MAX(version) AS last FROM versions WHERE tenant_id = ? AND robot_id = ?',
      key,
    );
    const version = Number(last?.last ?? 0) + 1;
    const previous = version > 1 ? this.rulesIn(tx, robot, version - 1) : 0;
    if (version > 1) tx.run(CLOSE_CHANGED, [...key, version]);
    tx.run(version > 1 ? OPEN_MARKED : OPEN_ALL, [...key, version]);
    tx.run('DELETE FROM draft_changes WHERE tenant_id = ? AND robot_id = ?', key);
    const closed = tx
      .all<{ rule_id: string }>(
        'SELECT rule_id FROM rule_revisions WHERE tenant_id = ? AND robot_id = ? AND to_version = ?',
        [...key, version],
      )
      .map((row) => row.rule_id);
    const opened = tx
      .all<MatchableRow>(
        `SELECT ${MATCHABLE_COLUMNS}
         FROM rule_revisions WHERE tenant_id = ? AND robot_id = ? AND from_version = ? ORDER BY rule_seq`,
        [...key, version],
      )
      .map(toMatchableRecord);
    const closedSet = new Set(closed);
    const changed = opened.filter((rule) => closedSet.has(rule.ruleId)).length;
    const rules = previous + opened.length - closed.length;
    const record: VersionRecord = {
      version,
      note: request.note,
      author: request.author,
      createdAt: request.now,
      rules,
      added: opened.length - changed,
      changed,
      removed: closed.length - changed,
      rolledBackTo,
      confirmedFailures: request.confirmedFailures,
    };
    tx.run(
      `INSERT INTO versions (tenant_id, robot_id, version, note, author, created_at, rules, added, changed,
        removed, rolled_back_to, confirmed_failures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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

  /** How many rules `version` has (kept on its row: counting the revisions is O(rules)). */
  private rulesIn(tx: Tx, robot: RobotKey, version: number): number {
    const row = tx.get<{ rules: number }>(
      'SELECT rules FROM versions WHERE tenant_id = ? AND robot_id = ? AND version = ?',
      [robot.tenantId, robot.robotId, version],
    );
    return Number(row?.rules ?? 0);
  }

  /**
   * Makes the draft the content of `version`: draft rules not in it, or different, go to the
   * trash; the version's rules not in the draft as they were are written back (at their old
   * position when it is free), taken out of the trash if they were there.
   */
  private resetDraft(
    tx: Tx,
    robot: RobotKey,
    version: number,
    now: number,
    actor: string,
  ): DraftReset {
    const key = [robot.tenantId, robot.robotId];
    const target = tx.all<RuleRow>(
      `SELECT ${REVISION_AS_RULE} FROM rule_revisions WHERE ${AT_VERSION} ORDER BY rule_seq`,
      [...key, version, version],
    );
    const draft = tx.all<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM rules WHERE tenant_id = ? AND robot_id = ? ORDER BY rule_seq`,
      key,
    );
    const draftById = new Map(draft.map((row) => [row.rule_id, row]));
    const targetById = new Map(target.map((row) => [row.rule_id, row]));
    const removed: StoredRule[] = [];
    for (const row of draft) {
      const kept = targetById.get(row.rule_id);
      if (kept && sameRule(kept, row)) continue;
      tx.run('DELETE FROM deleted_rules WHERE rule_id = ?', [row.rule_id]);
      tx.run(
        `INSERT INTO deleted_rules (${TRASH_COLUMNS}, deleted_at, updated_by) SELECT ${TRASH_COLUMNS}, ?, ? FROM rules WHERE rule_id = ?`,
        [now, actor, row.rule_id],
      );
      tx.run('DELETE FROM rules WHERE rule_id = ?', [row.rule_id]);
      removed.push(toStoredRule(row));
    }
    const added: StoredRule[] = [];
    for (const row of target) {
      const present = draftById.get(row.rule_id);
      if (present && sameRule(present, row)) continue;
      const rule = toStoredRule(row);
      const seqFree = !tx.get('SELECT 1 AS found FROM rules WHERE rule_seq = ?', [rule.seq]);
      const seq = seqFree
        ? rule.seq
        : Number(tx.get<{ last: number }>('SELECT MAX(rule_seq) AS last FROM rules')?.last ?? 0) +
          1;
      tx.run('DELETE FROM deleted_rules WHERE rule_id = ?', [rule.ruleId]);
      tx.run(INSERT_RULES, [
        seq,
        ...key,
        now,
        { utf8: JSON.stringify([jsonRow(rule, this.ruleRepository.searchText(rule))]) },
        actor,
      ]);
      added.push({ ...rule, seq, answerContentType: 'TEXT', updatedAt: now, updatedBy: actor });
    }
    return { removed, added };
  }
}
