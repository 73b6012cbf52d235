/**
 * Robots of a tenant. A tenant's first robot is `default`; later ones get generated ids.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { RobotResult } from '../api-types';
import { randomToken } from '../auth/credentials';
import { ServiceError } from '../errors';
import type { Tx } from '../storage/database';
import type { DomainContext } from './context';
import { assertTenantExists } from './tenant-lookup';
import type { RobotEntry } from './robot-registry';
import { DEFAULT_ROBOT_SETTINGS } from './robot-settings';
import type { RobotSettings } from './robot-settings';

export const DEFAULT_ROBOT_ID = 'default';

export function toRobotResult(robot: RobotEntry): RobotResult {
  return { robotId: robot.robotId, name: robot.name, robotSecret: robot.secret };
}

/** Inserts a robot inside a write transaction; the caller registers it once committed. */
export function insertRobot(
  tx: Tx,
  tenantId: number,
  robotId: string,
  name: string,
  createdAt: number,
) {
  const secret = randomToken(32);
  tx.run(
    'INSERT INTO robots (tenant_id, robot_id, name, secret, settings, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [tenantId, robotId, name, secret, '{}', createdAt],
  );
  return { tenantId, robotId, name, secret, settings: '{}' };
}

export function listRobots(ctx: DomainContext, tenantId: number): RobotResult[] {
  assertTenantExists(ctx, tenantId);
  return ctx.robots.listForTenant(tenantId).map(toRobotResult);
}

export function createRobot(ctx: DomainContext, tenantId: number, name: string): RobotResult {
  assertTenantExists(ctx, tenantId);
  const created = ctx.store.write((tx) => {
    let robotId: string;
    do robotId = `r${randomBytes(6).toString('hex')}`;
    while (
      tx.get('SELECT 1 AS found FROM robots WHERE tenant_id = ? AND robot_id = ?', [
        tenantId,
        robotId,
      ])
    );
    return insertRobot(tx, tenantId, robotId, name, ctx.now());
  });
  return toRobotResult(
    ctx.robots.put(tenantId, created.robotId, created.name, created.secret, created.settings),
  );
}

/** The robot named in a path, or a 404. */
export function requireRobot(ctx: DomainContext, tenantId: number, robotId: string): RobotEntry {
  const robot = ctx.robots.get(tenantId, robotId);
  if (!robot) {
    assertTenantExists(ctx, tenantId);
    throw new ServiceError(
      'robot-not-found',
      `Robot ${robotId} does not exist in tenant ${tenantId}.`,
    );
  }
  return robot;
}

export interface RobotChanges {
  name?: string;
  settings?: Partial<RobotSettings>;
}

/**
 * Renames a robot and/or changes its answer settings (merged over the ones it had set; keys it
 * never set keep following the defaults). New synonyms re-index the robot's rules.
 */
export function patchRobot(
  ctx: DomainContext,
  robot: RobotEntry,
  changes: RobotChanges,
): RobotEntry {
  const name = changes.name ?? robot.name;
  const stored = { ...robot.storedSettings, ...changes.settings };
  const settings = { ...DEFAULT_ROBOT_SETTINGS, ...stored };
  if (settings.recommendThreshold > settings.bestmatchThreshold) {
    throw new ServiceError(
      'invalid-field',
      'settings.recommendThreshold must not be above settings.bestmatchThreshold.',
      'settings.recommendThreshold',
    );
  }
  const settingsJson = JSON.stringify(stored);
  ctx.store.write((tx) =>
    tx.run('UPDATE robots SET name = ?, settings = ? WHERE tenant_id = ? AND robot_id = ?', [
      name,
      settingsJson,
      robot.tenantId,
      robot.robotId,
    ]),
  );
  return ctx.robots.put(robot.tenantId, robot.robotId, name, robot.secret, settingsJson);
}

/** Gives a robot a new secret; requests signed with the old one are refused from now on. */
export function rotateRobotSecret(ctx: DomainContext, robot: RobotEntry): RobotEntry {
  const secret = randomToken(32);
  ctx.store.write((tx) =>
    tx.run('UPDATE robots SET secret = ? WHERE tenant_id = ? AND robot_id = ?', [
      secret,
      robot.tenantId,
      robot.robotId,
    ]),
  );
  return ctx.robots.put(
    robot.tenantId,
    robot.robotId,
    robot.name,
    secret,
    JSON.stringify(robot.storedSettings),
  );
}
