/**
 * The team server's robots (statements: sql/robots.ts). Creation order is the `created_order`
 * column of server migration 1 (SQLite's rowid).
 * @module
 */
import type { RobotKey, RobotRecord } from '../../contract/records';
import type { RobotRepository } from '../../contract/robots';
import { postgres } from '../../sql/dialect';
import * as robots from '../../sql/robots';
import type { Database, SqlValue, Tx } from '../database';

const SQL = robots.statements(postgres, {
  live: 'r.created_order',
  deleted: 'r.deleted_at DESC, r.created_order',
});

/** Deletes robots for good with everything they hold; `where` names them (robots' columns). */
export async function purgeRobots(
  tx: Tx,
  where: string,
  params: readonly SqlValue[],
): Promise<void> {
  const doomed = `(tenant_id, robot_id) IN (SELECT tenant_id, robot_id FROM robots WHERE ${where})`;
  for (const table of robots.ROBOT_TABLES) {
    await tx.run(`DELETE FROM ${table} WHERE ${doomed}`, params);
  }
}

export async function insertRobot(tx: Tx, robot: RobotRecord): Promise<void> {
  await tx.run(SQL.insert, robots.robotParams(robot));
}

export class PostgresRobotRepository implements RobotRepository {
  constructor(private readonly db: Database) {}

  async all() {
    return (await this.db.all<robots.RobotRow>(SQL.live)).map(robots.toRobotRecord);
  }

  async deleted() {
    return (await this.db.all<robots.RobotRow>(SQL.deleted)).map(robots.toRobotRecord);
  }

  async exists(robot: RobotKey) {
    return (await this.db.get(SQL.exists, [robot.tenantId, robot.robotId])) !== undefined;
  }

  async insert(robot: RobotRecord) {
    await this.db.write((tx) => insertRobot(tx, robot));
  }

  async update(robot: RobotKey, changes: robots.RobotChanges) {
    const update = robots.robotUpdate(postgres, robot, changes);
    if (!update) return this.exists(robot);
    return (await this.db.write((tx) => tx.run(update.sql, update.params))) > 0;
  }

  async setDeleted(robot: RobotKey, at: number | null) {
    const key = [robot.tenantId, robot.robotId, at];
    return (await this.db.write((tx) => tx.run(SQL.setDeleted, key))) > 0;
  }

  async purge(robot: RobotKey) {
    if (!(await this.exists(robot))) return false;
    // Its time grows with the robot's rules: the long timeout.
    await this.db.write(
      (tx) => purgeRobots(tx, 'tenant_id = $1 AND robot_id = $2', [robot.tenantId, robot.robotId]),
      { long: true },
    );
    return true;
  }

  async purgeDeleted(before: number) {
    const due = 'deleted_at < $1';
    const doomed = await this.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM robots WHERE ${due}`,
      [before],
    );
    if (Number(doomed?.n ?? 0) === 0) return 0;
    return this.db.write(
      async (tx) => {
        const count = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM robots WHERE ${due}`, [
          before,
        ]);
        await purgeRobots(tx, due, [before]);
        return Number(count?.n ?? 0);
      },
      { long: true },
    );
  }
}
