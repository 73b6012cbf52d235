/**
 * The embedded store's robots (statements: sql/robots.ts). Creation order is SQLite's rowid.
 * @module
 */
import type { RobotKey, RobotRecord } from '../../contract/records';
import type { RobotRepository } from '../../contract/robots';
import { sqlite } from '../../sql/dialect';
import * as robots from '../../sql/robots';
import type { Store, Tx } from '../database';

const SQL = robots.statements(sqlite, { live: 'r.rowid', deleted: 'r.deleted_at DESC' });

/** Deletes a robot and everything it holds, in foreign-key order. */
export function purgeRobot(tx: Tx, tenantId: number, robotId: string): void {
  for (const table of robots.ROBOT_TABLES) {
    tx.run(`DELETE FROM ${table} WHERE tenant_id = ?1 AND robot_id = ?2`, [tenantId, robotId]);
  }
}

/** Inserts a robot inside a transaction (also used by tenant registration). */
export function insertRobot(tx: Tx, robot: RobotRecord): void {
  tx.run(SQL.insert, robots.robotParams(robot));
}

export class SqlJsRobotRepository implements RobotRepository {
  constructor(private readonly store: Store) {}

  async all() {
    return this.store.all<robots.RobotRow>(SQL.live).map(robots.toRobotRecord);
  }

  async deleted() {
    return this.store.all<robots.RobotRow>(SQL.deleted).map(robots.toRobotRecord);
  }

  async exists(robot: RobotKey) {
    return this.store.get(SQL.exists, [robot.tenantId, robot.robotId]) !== undefined;
  }

  async insert(robot: RobotRecord) {
    this.store.write((tx) => insertRobot(tx, robot));
  }

  async update(robot: RobotKey, changes: robots.RobotChanges) {
    const update = robots.robotUpdate(sqlite, robot, changes);
    if (!update) return this.exists(robot);
    return this.store.write((tx) => tx.run(update.sql, update.params)) > 0;
  }

  async setDeleted(robot: RobotKey, at: number | null) {
    const key = [robot.tenantId, robot.robotId, at];
    return this.store.write((tx) => tx.run(SQL.setDeleted, key)) > 0;
  }

  async purge(robot: RobotKey) {
    if (!this.store.get(SQL.exists, [robot.tenantId, robot.robotId])) return false;
    this.store.write((tx) => purgeRobot(tx, robot.tenantId, robot.robotId));
    return true;
  }

  async purgeDeleted(before: number) {
    const doomed = this.store.all<{ tenant_id: number; robot_id: string }>(
      'SELECT tenant_id, robot_id FROM robots WHERE deleted_at < ?1',
      [before],
    );
    if (doomed.length === 0) return 0;
    this.store.write((tx) => {
      for (const robot of doomed) purgeRobot(tx, robot.tenant_id, robot.robot_id);
    });
    return doomed.length;
  }
}
