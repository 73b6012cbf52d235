/**
 * Versions as both stores keep them: `versions` and `rule_revisions`. A version v is the set of
 * revisions with `from_version <= v` and `to_version` null or above v; a publish closes the
 * revisions of rules changed or removed since the latest version and opens one for each rule
 * added or changed, so unchanged rules are never copied. The statements are run as written by
 * both stores (each in its dialect); a store adds its own locking and its way of writing rules
 * back to the draft.
 * @module
 */
import type { MatchableRecord, RobotKey } from '../contract/records';
import type {
  PublishRequest,
  PublishedChange,
  UnpublishedChange,
  VersionRecord,
} from '../contract/versions';
import { spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';
import { MATCHABLE_COLUMNS, RULE_COLUMNS } from './rule-rows';
import type { RuleRow } from './rule-rows';

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

/**
 * The columns that decide whether a rule changed: what it answers and how it is matched, not
 * when or by whom it was last written nor its position. A rule edited and edited back, or
 * written back unchanged by a rollback, is the same rule: it opens no revision, and a version's
 * counts are those of its diff.
 */
export const COMPARED = CONTENT.filter(
  (column) => !['rule_seq', 'created_at', 'updated_at', 'updated_by'].includes(column),
);

/** A revision read as a rule (`RuleRow`). */
export const REVISION_AS_RULE = `rule_seq, rule_id, tenant_id, robot_id, ${CONTENT.filter((c) => c !== 'rule_seq').join(', ')}`;

export const sameRule = (a: RuleRow, b: RuleRow): boolean =>
  COMPARED.every((column) => a[column] === b[column]);

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
  mode_switch: string | null;
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
  modeSwitch: row.mode_switch === 'live' || row.mode_switch === 'review' ? row.mode_switch : null,
});

/** Thrown inside a publish's transaction to roll it back when the draft is the latest version. */
class NothingChanged extends Error {}

/**
 * A publish's change, inside its transaction: a version after the first that opens and closes
 * no revision has the latest version's content, and is rolled back (`NothingChanged`).
 */
export function changed(change: PublishedChange): PublishedChange {
  if (change.version.version > 1 && change.opened.length + change.closed.length === 0) {
    throw new NothingChanged();
  }
  return change;
}

/** What a publish returns, or undefined when it changed nothing (and wrote nothing). */
export async function unlessNothingChanged<T>(
  publish: () => T | Promise<T>,
): Promise<T | undefined> {
  try {
    return await publish();
  } catch (error) {
    if (error instanceof NothingChanged) return undefined;
    throw error;
  }
}

const SELECT_VERSION =
  'SELECT version, note, author, created_at, rules, added, changed, removed, rolled_back_to, confirmed_failures, mode_switch FROM versions';

/** ?1 and ?2: the robot of every statement. */
const OF_ROBOT = 'tenant_id = ?1 AND robot_id = ?2';

/** The rules written since the latest version (migration 0006's triggers mark them). */
const MARKED = `SELECT rule_id FROM draft_changes WHERE ${OF_ROBOT}`;

/** ?3: the version. */
const AT_VERSION = `${OF_ROBOT} AND from_version <= ?3 AND (to_version IS NULL OR to_version > ?3)`;

export function statements<L>(dialect: Dialect<L>) {
  const sameContent = COMPARED.map((c) => dialect.same(`r.${c}`, `rule_revisions.${c}`)).join(
    ' AND ',
  );
  /** Marked rules that differ from their alive revision, or exist on one side only. */
  const differing = `FROM draft_changes AS d
  LEFT JOIN rules AS r ON r.rule_id = d.rule_id AND r.tenant_id = d.tenant_id AND r.robot_id = d.robot_id
  LEFT JOIN rule_revisions ON rule_revisions.rule_id = d.rule_id AND rule_revisions.to_version IS NULL
  WHERE d.tenant_id = ?1 AND d.robot_id = ?2
    AND NOT (r.rule_id IS NULL AND rule_revisions.rule_id IS NULL)
    AND NOT (r.rule_id IS NOT NULL AND rule_revisions.rule_id IS NOT NULL AND ${sameContent})`;
  // SQLite walks the robot's index (every rule of it) instead of the marked ids unless told not to.
  const ofRobot = (alias: string) =>
    `${dialect.unindexed(`${alias}tenant_id`)} = ?1 AND ${dialect.unindexed(`${alias}robot_id`)} = ?2`;
  /** Opens a revision for every draft rule without an alive one (added, or closed just now). */
  const openNew = (
    where: string,
  ) => `INSERT INTO rule_revisions (tenant_id, robot_id, from_version, to_version, rule_id, ${CONTENT.join(', ')})
SELECT ?1, ?2, ?3, NULL, r.rule_id, ${CONTENT.map((c) => `r.${c}`).join(', ')} FROM rules AS r
WHERE ${where}
  AND NOT EXISTS (SELECT 1 FROM rule_revisions AS x WHERE x.rule_id = r.rule_id AND x.to_version IS NULL)`;
  return spelled(dialect, {
    list: `${SELECT_VERSION} WHERE ${OF_ROBOT} ORDER BY version DESC`,
    find: `${SELECT_VERSION} WHERE ${OF_ROBOT} AND version = ?3`,
    latest: `${SELECT_VERSION} WHERE ${OF_ROBOT} ORDER BY version DESC LIMIT 1`,
    /** A marked rule whose draft differs from its alive revision, or exists on one side only. */
    markedDifference: `SELECT 1 AS found ${differing} LIMIT 1`,
    /**
     * The unpublished changes, ?3 at most, in the marks' key order (no sort: the first ?3 found).
     * `in_draft`/`in_version`: 1 where the rule is in the draft / the latest version.
     */
    unpublished: `SELECT d.rule_id, COALESCE(r.rule_name, rule_revisions.rule_name) AS rule_name,
  CASE WHEN r.rule_id IS NULL THEN 0 ELSE 1 END AS in_draft,
  CASE WHEN rule_revisions.rule_id IS NULL THEN 0 ELSE 1 END AS in_version
  ${differing} LIMIT ?3`,
    /** The rules of version ?3, as rows of `rules` (a rollback's transaction reads them all). */
    rulesAt: `SELECT ${REVISION_AS_RULE} FROM rule_revisions WHERE ${AT_VERSION} ORDER BY rule_seq`,
    /** The rules of version ?3 from rule_seq ?4 on, ?5 at most, as rows of `rules`. */
    rulesAtFrom: `SELECT ${REVISION_AS_RULE} FROM rule_revisions WHERE ${AT_VERSION} AND rule_seq >= ?4
      ORDER BY rule_seq LIMIT ?5`,
    publishedMatchable: `SELECT ${MATCHABLE_COLUMNS} FROM rule_revisions
      WHERE ${OF_ROBOT} AND to_version IS NULL ORDER BY rule_seq`,
    publishedAnswerOf:
      'SELECT answer FROM rule_revisions WHERE rule_id = ?1 AND to_version IS NULL',
    lastVersion: `SELECT MAX(version) AS last FROM versions WHERE ${OF_ROBOT}`,
    /** How many rules version ?3 has (kept on its row: counting the revisions is O(rules)). */
    rulesIn: `SELECT rules FROM versions WHERE ${OF_ROBOT} AND version = ?3`,
    /** Closes (at ?3) the alive revisions of marked rules that are gone from the draft or differ. */
    closeChanged: `UPDATE rule_revisions SET to_version = ?3
WHERE ${ofRobot('')} AND to_version IS NULL AND rule_id IN (${MARKED})
  AND NOT EXISTS (SELECT 1 FROM rules AS r WHERE r.rule_id = rule_revisions.rule_id
    AND r.tenant_id = ?1 AND r.robot_id = ?2 AND ${sameContent})`,
    /** The first version takes every rule; later ones look only at the marked rules. */
    openAll: openNew('r.tenant_id = ?1 AND r.robot_id = ?2'),
    openMarked: openNew(`${ofRobot('r.')} AND r.rule_id IN (${MARKED})`),
    clearMarks: `DELETE FROM draft_changes WHERE ${OF_ROBOT}`,
    closedAt: `SELECT rule_id FROM rule_revisions WHERE ${OF_ROBOT} AND to_version = ?3`,
    openedAt: `SELECT ${MATCHABLE_COLUMNS} FROM rule_revisions
      WHERE ${OF_ROBOT} AND from_version = ?3 ORDER BY rule_seq`,
    /** `versionParams`. */
    insert: `INSERT INTO versions (tenant_id, robot_id, version, note, author, created_at, rules, added, changed,
        removed, rolled_back_to, confirmed_failures, mode_switch)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
    draft: `SELECT ${RULE_COLUMNS} FROM rules WHERE ${OF_ROBOT} ORDER BY rule_seq`,
  });
}

/**
 * The version a publish made, from the rules of the version before (`previous`) and the
 * revisions it opened and closed: a rule both opened and closed changed.
 */
export function publishedChange(
  version: number,
  request: PublishRequest,
  previous: number,
  revisions: { opened: MatchableRecord[]; closed: string[] },
  rolledBackTo: number | null,
): PublishedChange {
  const { opened, closed } = revisions;
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
    modeSwitch: request.modeSwitch ?? null,
  };
  return { version: record, opened, closed };
}

/** A row of the `unpublished` statement. */
export interface UnpublishedRow {
  [column: string]: string | number | null;
  rule_id: string;
  rule_name: string;
  in_draft: number;
  in_version: number;
}

export const toUnpublished = (row: UnpublishedRow): UnpublishedChange => ({
  ruleId: row.rule_id,
  ruleName: row.rule_name,
  change:
    Number(row.in_version) === 0 ? 'added' : Number(row.in_draft) === 0 ? 'removed' : 'changed',
});

/** The rows of `unpublished` read with a limit one above `limit`: the changes, and if more. */
export function unpublishedPage(
  rows: readonly UnpublishedRow[],
  limit: number,
): { changes: UnpublishedChange[]; more: boolean } {
  return { changes: rows.slice(0, limit).map(toUnpublished), more: rows.length > limit };
}

/** The parameters of the `insert` statement of a version. */
export const versionParams = (robot: RobotKey, record: VersionRecord): Scalar[] => [
  robot.tenantId,
  robot.robotId,
  record.version,
  record.note,
  record.author,
  record.createdAt,
  record.rules,
  record.added,
  record.changed,
  record.removed,
  record.rolledBackTo,
  record.confirmedFailures,
  record.modeSwitch,
];
