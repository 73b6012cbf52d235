/**
 * The team server's robots (the embedded store's statements in PostgreSQL's SQL). Creation
 * order is the `created_order` column of server migration 1 (SQLite's rowid).
 * @module
 */
import type { RobotKey, RobotRecord } from '../../contract/records';
import type { RobotRepository } from '../../contract/robots';
import {
  OF_LIVE_TENANTS,
  ROBOT_COLUMNS,
  toRobotRecord,
} from '../../embedded/repositories/robot-repository';
import type { RobotRow } from '../../embedded/repositories/robot-repository';
import type { Database, SqlValue, Tx } from '../database';

/** What a robot holds, in foreign-key order (the robot itself last). */
const ROBOT_TABLES = [
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

/** Deletes robots for good with everything they hold; `where` names them (robots' columns). */
export async function purgeRobots(
  tx: Tx,
  where: string,
  params: readonly SqlValue[],
): Promise<void> {
  const doomed = `(tenant_id, robot_id) IN (SELECT tenant_id, robot_id FROM robots WHERE ${where})`;
  for (const table of ROBOT_TABLES) {
    await tx.run(`DELETE FROM ${table} WHERE ${doomed}`, params);
  }
}

export async function insertRobot(tx: Tx, robot: RobotRecord): Promise<void> {
  await tx.run(
    'INSERT INTO robots (tenant_id, robot_id, name, secret, settings, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [robot.tenantId, robot.robotId, robot.name, robot.secret, robot.settingsJson, robot.createdAt],
  );
}

export class PostgresRobotRepository implements RobotRepository {
  constructor(private readonly db: Database) {}

  async all(): Promise<RobotRecord[]> {
    const rows = await this.db.all<RobotRow>(
      `SELECT ${ROBOT_COLUMNS} ${OF_LIVE_TENANTS} AND r.deleted_at IS NULL ORDER BY r.created_order`,
    );
    return rows.map(toRobotRecord);
  }

  async deleted(): Promise<RobotRecord[]> {
    const rows = await this.db.all<RobotRow>(
      `SELECT ${ROBOT_COLUMNS} ${OF_LIVE_TENANTS} AND r.deleted_at IS NOT NULL
       ORDER BY r.deleted_at DESC, r.created_order`,
    );
    return rows.map(toRobotRecord);
  }

  async exists(robot: RobotKey): Promise<boolean> {
    const row = await this.db.get(
      'SELECT 1 AS found FROM robots WHERE tenant_id = $1 AND robot_id = $2',
      [robot.tenantId, robot.robotId],
    );
    return row !== undefined;
  }

  async insert(robot: RobotRecord): Promise<void> {
    await this.db.write((tx) => insertRobot(tx, robot));
  }

  async update(
    robot: RobotKey,
    changes: Partial<Pick<RobotRecord, 'name' | 'secret' | 'settingsJson'>>,
  ): Promise<boolean> {
    const params: SqlValue[] = [robot.tenantId, robot.robotId];
    const sets: string[] = [];
    const columns = { name: 'name', secret: 'secret', settingsJson: 'settings' } as const;
    for (const [field, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
      const value = changes[field];
      if (value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    if (sets.length === 0) return this.exists(robot);
    const changed = await this.db.write((tx) =>
      tx.run(`UPDATE robots SET ${sets.join(', ')} WHERE tenant_id = $1 AND robot_id = $2`, params),
    );
    return changed > 0;
  }

  async setDeleted(robot: RobotKey, at: number | null): Promise<boolean> {
    const changed = await this.db.write((tx) =>
      tx.run('UPDATE robots SET deleted_at = $3 WHERE tenant_id = $1 AND robot_id = $2', [
        robot.tenantId,
        robot.robotId,
        at,
      ]),
    );
    return changed > 0;
  }

  async purge(robot: RobotKey): Promise<boolean> {
    if (!(await this.exists(robot))) return false;
    await this.db.write((tx) =>
      purgeRobots(tx, 'tenant_id = $1 AND robot_id = $2', [robot.tenantId, robot.robotId]),
    );
    return true;
  }

  async purgeDeleted(before: number): Promise<number> {
    const due = 'deleted_at < $1';
    const doomed = await this.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM robots WHERE ${due}`,
      [before],
    );
    if (Number(doomed?.n ?? 0) === 0) return 0;
    return this.db.write(async (tx) => {
      const count = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM robots WHERE ${due}`, [
        before,
      ]);
      await purgeRobots(tx, due, [before]);
      return Number(count?.n ?? 0);
    });
  }
}
