/**
 * Robots as both stores keep them, and the statements both run on `robots` (each in its
 * dialect). The order robots are listed in is the order they were created: each store has its
 * own column for it.
 * @module
 */
import type { RobotRecord } from '../contract/records';
import type { RobotRepository } from '../contract/robots';
import { assignments, spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';

export interface RobotRow {
  [column: string]: string | number | null;
  tenant_id: number;
  robot_id: string;
  name: string;
  secret: string;
  settings: string;
  created_at: number;
  deleted_at: number | null;
}

export function toRobotRecord(row: RobotRow): RobotRecord {
  return {
    tenantId: Number(row.tenant_id),
    robotId: row.robot_id,
    name: row.name,
    secret: row.secret,
    settingsJson: row.settings,
    createdAt: Number(row.created_at),
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
  };
}

/** What a robot holds, in foreign-key order (the robot itself last): what a purge deletes. */
export const ROBOT_TABLES = [
  'rules',
  'deleted_rules',
  'categories',
  'rule_revisions',
  'versions',
  'draft_changes',
  'test_cases',
  'test_runs',
  'robots',
];

/** Robots whose tenant is not deleted (`r`). */
const OF_LIVE_TENANTS = `SELECT r.tenant_id, r.robot_id, r.name, r.secret, r.settings, r.created_at, r.deleted_at
FROM robots AS r JOIN tenants AS t ON t.tenant_id = r.tenant_id
WHERE t.deleted_at IS NULL`;

/** ?1 and ?2: the robot. */
const OF_ROBOT = 'tenant_id = ?1 AND robot_id = ?2';

/**
 * `order`: how the store lists robots (of `robots AS r`): live ones in the order they were
 * created, deleted ones most recently deleted first.
 */
export function statements<L>(dialect: Dialect<L>, order: { live: string; deleted: string }) {
  return spelled(dialect, {
    live: `${OF_LIVE_TENANTS} AND r.deleted_at IS NULL ORDER BY ${order.live}`,
    deleted: `${OF_LIVE_TENANTS} AND r.deleted_at IS NOT NULL ORDER BY ${order.deleted}`,
    exists: `SELECT 1 AS found FROM robots WHERE ${OF_ROBOT}`,
    /** `robotParams`. */
    insert:
      'INSERT INTO robots (tenant_id, robot_id, name, secret, settings, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
    /** ?3: deleted since, or null (restored). */
    setDeleted: `UPDATE robots SET deleted_at = ?3 WHERE ${OF_ROBOT}`,
  });
}

export const robotParams = (robot: RobotRecord): Scalar[] => [
  robot.tenantId,
  robot.robotId,
  robot.name,
  robot.secret,
  robot.settingsJson,
  robot.createdAt,
];

/** What an update of a robot may change. */
export type RobotChanges = Parameters<RobotRepository['update']>[1];

/** The fields of a robot that change, by column. */
const CHANGEABLE = { name: 'name', secret: 'secret', settingsJson: 'settings' };

/**
 * The robot's changed fields as one UPDATE (?1 and ?2: the robot) and its parameters;
 * undefined when nothing changes.
 */
export function robotUpdate<L>(
  dialect: Dialect<L>,
  robot: { tenantId: number; robotId: string },
  changes: RobotChanges,
): { sql: string; params: Scalar[] } | undefined {
  const { sets, values } = assignments(dialect, CHANGEABLE, changes, 3);
  if (sets.length === 0) return undefined;
  return {
    sql: dialect.text(`UPDATE robots SET ${sets.join(', ')} WHERE ${OF_ROBOT}`),
    params: [robot.tenantId, robot.robotId, ...values],
  };
}
