/**
 * The embedded store's robots.
 * @module
 */
import type { RobotKey, RobotRecord } from '../../repositories/records';
import type { RobotRepository } from '../../repositories/robots';
import type { SqlParam, Store, Tx } from '../database';

interface RobotRow {
  [column: string]: string | number;
  tenant_id: number;
  robot_id: string;
  name: string;
  secret: string;
  settings: string;
  created_at: number;
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
        // In creation order (rowid): the order robots are listed in.
        'SELECT tenant_id, robot_id, name, secret, settings, created_at FROM robots ORDER BY rowid',
      )
      .map((row) => ({
        tenantId: Number(row.tenant_id),
        robotId: row.robot_id,
        name: row.name,
        secret: row.secret,
        settingsJson: row.settings,
        createdAt: Number(row.created_at),
      }));
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
}
