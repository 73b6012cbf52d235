/**
 * The embedded store's robots.
 * @module
 */
import type { RobotKey, RobotRecord } from '../../contract/records';
import type { RobotRepository } from '../../contract/robots';
import type { SqlParam, Store, Tx } from '../database';

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

export const ROBOT_COLUMNS =
  'r.tenant_id, r.robot_id, r.name, r.secret, r.settings, r.created_at, r.deleted_at';
/** Robots whose tenant is not deleted, in creation order (rowid): the order robots are listed in. */
export const OF_LIVE_TENANTS = `FROM robots AS r JOIN tenants AS t ON t.tenant_id = r.tenant_id
WHERE t.deleted_at IS NULL`;

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

/**
 * Deletes a robot's rules, trash, categories, versions, test sets and the robot itself, in
 * foreign-key order.
 */
export function purgeRobot(tx: Tx, tenantId: number, robotId: string): void {
  const publishing = ['rule_revisions', 'versions', 'draft_changes', 'test_cases', 'test_runs'];
  for (const table of ['rules', 'deleted_rules', 'categories', ...publishing, 'robots']) {
    tx.run(`DELETE FROM ${table} WHERE tenant_id = ? AND robot_id = ?`, [tenantId, robotId]);
  }
}

/** Inserts a robot inside a transaction (also used by tenant registration). */
export function insertRobot(tx: Tx, robot: RobotRecord): void {
  tx.run(
    'INSERT INTO robots (tenant_id, robot_id, name, secret, settings, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [robot.tenantId, robot.robotId, robot.name, robot.secret, robot.settingsJson, robot.createdAt],
  );
}

export class SqlJsRobotRepository implements RobotRepository {
  constructor(private readonly store: Store) {}

  async all(): Promise<RobotRecord[]> {
    return this.store
      .all<RobotRow>(
        `SELECT ${ROBOT_COLUMNS} ${OF_LIVE_TENANTS} AND r.deleted_at IS NULL ORDER BY r.rowid`,
      )
      .map(toRobotRecord);
  }

  async deleted(): Promise<RobotRecord[]> {
    return this.store
      .all<RobotRow>(
        `SELECT ${ROBOT_COLUMNS} ${OF_LIVE_TENANTS} AND r.deleted_at IS NOT NULL ORDER BY r.deleted_at DESC`,
      )
      .map(toRobotRecord);
  }

  async exists(robot: RobotKey): Promise<boolean> {
    return (
      this.store.get('SELECT 1 AS found FROM robots WHERE tenant_id = ? AND robot_id = ?', [
        robot.tenantId,
        robot.robotId,
      ]) !== undefined
    );
  }

  async insert(robot: RobotRecord): Promise<void> {
    this.store.write((tx) => insertRobot(tx, robot));
  }

  async update(
    robot: RobotKey,
    changes: Partial<Pick<RobotRecord, 'name' | 'secret' | 'settingsJson'>>,
  ): Promise<boolean> {
    const sets: string[] = [];
    const values: SqlParam[] = [];
    const columns = { name: 'name', secret: 'secret', settingsJson: 'settings' } as const;
    for (const [field, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
      const value = changes[field];
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(value);
    }
    if (sets.length === 0) return this.exists(robot);
    return (
      this.store.write((tx) =>
        tx.run(`UPDATE robots SET ${sets.join(', ')} WHERE tenant_id = ? AND robot_id = ?`, [
          ...values,
          robot.tenantId,
          robot.robotId,
        ]),
      ) > 0
    );
  }

  async setDeleted(robot: RobotKey, at: number | null): Promise<boolean> {
    return (
      this.store.write((tx) =>
        tx.run('UPDATE robots SET deleted_at = ? WHERE tenant_id = ? AND robot_id = ?', [
          at,
          robot.tenantId,
          robot.robotId,
        ]),
      ) > 0
    );
  }

  async purge(robot: RobotKey): Promise<boolean> {
    if (!(await this.exists(robot))) return false;
    this.store.write((tx) => purgeRobot(tx, robot.tenantId, robot.robotId));
    return true;
  }

  async purgeDeleted(before: number): Promise<number> {
    const doomed = this.store.all<{ tenant_id: number; robot_id: string }>(
      'SELECT tenant_id, robot_id FROM robots WHERE deleted_at < ?',
      [before],
    );
    if (doomed.length === 0) return 0;
    this.store.write((tx) => {
      for (const robot of doomed) purgeRobot(tx, robot.tenant_id, robot.robot_id);
    });
    return doomed.length;
  }
}
