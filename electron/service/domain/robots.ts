/**
 * Robots of a tenant. A tenant's first robot is `default`; later ones get generated ids.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { RobotResult } from '../api-types';
import { randomToken } from '../auth/credentials';
import { ServiceError } from '../errors';
import type { RobotRecord } from '../store/contract/records';
import type { DomainContext } from './context';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import { SECRET_SETTINGS, settingsInForce } from './robot-settings';
import { followSemantic } from './semantic';
import type { RobotLanguage, RobotSettings } from './robot-settings';
import { applySynonyms } from './robot-synonyms';
import { assertTenantExists } from './tenant-lookup';

export const DEFAULT_ROBOT_ID = 'default';

export function toRobotResult(robot: Robot): RobotResult {
  return { robotId: robot.robotId, name: robot.name, robotSecret: robot.secret };
}

/** A new robot's record: a fresh secret, no settings of its own. */
export function newRobotRecord(
  robotId: string,
  name: string,
  createdAt: number,
  language?: RobotLanguage,
): Omit<RobotRecord, 'tenantId'> {
  const settingsJson = JSON.stringify(language ? { language } : {});
  return { robotId, name, secret: randomToken(32), settingsJson, createdAt };
}

export async function listRobots(ctx: DomainContext, tenantId: number): Promise<RobotResult[]> {
  await assertTenantExists(ctx, tenantId);
  return ctx.robots.listForTenant(tenantId).map(toRobotResult);
}

/** A new robot id of the tenant: `r` and 12 hex digits, held by no robot (deleted ones included). */
export async function freeRobotId(ctx: DomainContext, tenantId: number): Promise<string> {
  let robotId: string;
  do robotId = `r${randomBytes(6).toString('hex')}`;
  while (
    ctx.robots.get(tenantId, robotId) ||
    (await ctx.store.robots.exists({ tenantId, robotId }))
  );
  return robotId;
}

/**
 * Makes a robot. `language`: the editor's language when it is made there (its default texts are
 * then in it); robots made over the openapi find theirs from their rules.
 */
export async function createRobot(
  ctx: DomainContext,
  tenantId: number,
  name: string,
  language?: RobotLanguage,
): Promise<Robot> {
  await assertTenantExists(ctx, tenantId);
  const robotId = await freeRobotId(ctx, tenantId);
  const record = { tenantId, ...newRobotRecord(robotId, name, ctx.now(), language) };
  await ctx.store.robots.insert(record);
  const robot = ctx.robots.put(record);
  followSemantic(ctx, robot);
  return robot;
}

/** The robot named in a path, or a 404. */
export async function requireRobot(
  ctx: DomainContext,
  tenantId: number,
  robotId: string,
): Promise<Robot> {
  const robot = ctx.robots.get(tenantId, robotId);
  if (robot) return robot;
  await assertTenantExists(ctx, tenantId);
  throw new ServiceError(
    'robot-not-found',
    `Robot ${robotId} does not exist in tenant ${tenantId}.`,
  );
}

export interface RobotChanges {
  name?: string;
  /** Settings to set; null sends one back to its default. */
  settings?: { [K in keyof RobotSettings]?: RobotSettings[K] | null };
}

/**
 * Writes the changes `change` makes to the robot as it is now, and makes the service see the
 * robot as stored. In the robot's write queue: new synonyms re-index its rules, after any write
 * before them, and two changes never start from the same state. `actor`: who changes it (the
 * version a change of publish mode records is theirs), when known.
 */
function changeRobot(
  ctx: DomainContext,
  robot: Robot,
  actor: string | undefined,
  change: (current: Robot) => Pick<RobotRecord, 'name' | 'secret' | 'settingsJson'>,
): Promise<Robot> {
  return ctx.writes.run(robotKey(robot), async () => {
    const current = ctx.robots.get(robot.tenantId, robot.robotId) ?? robot;
    const next = change(current);
    await ctx.store.robots.update(robot, next);
    const updated = ctx.robots.put({ tenantId: robot.tenantId, robotId: robot.robotId, ...next });
    applySynonyms(ctx, updated);
    await ctx.publishing?.robotChanged(current, updated, actor);
    followSemantic(ctx, updated);
    return updated;
  });
}

const recordOf = (robot: Robot) => ({
  name: robot.name,
  secret: robot.secret,
  settingsJson: JSON.stringify(robot.storedSettings),
});

/**
 * Renames a robot and/or changes its answer settings (merged over the ones it had set; keys it
 * never set keep following the defaults). New synonyms re-index the robot's rules. `actor`: who
 * changes it, when known.
 */
export function patchRobot(
  ctx: DomainContext,
  robot: Robot,
  changes: RobotChanges,
  actor?: string,
): Promise<Robot> {
  return changeRobot(ctx, robot, actor, (current) => {
    const stored: Partial<RobotSettings> = { ...current.storedSettings };
    for (const [key, value] of Object.entries(changes.settings ?? {})) {
      if ((SECRET_SETTINGS as readonly string[]).includes(key)) {
        throw new ServiceError(
          'invalid-field',
          `settings.${key} is a secret: it is set by its own route.`,
          `settings.${key}`,
          { keyword: 'additionalProperties', params: { additionalProperty: key } },
        );
      }
      if (value === null) delete stored[key as keyof RobotSettings];
      else (stored as Record<string, unknown>)[key] = value;
    }
    const settings = settingsInForce(stored, current.settings.language);
    if (settings.recommendThreshold > settings.bestmatchThreshold) {
      throw new ServiceError(
        'invalid-field',
        'settings.recommendThreshold must not be above settings.bestmatchThreshold.',
        'settings.recommendThreshold',
        { keyword: 'not-above', params: { other: 'settings.bestmatchThreshold' } },
      );
    }
    return {
      ...recordOf(current),
      name: changes.name ?? current.name,
      settingsJson: JSON.stringify(stored),
    };
  });
}

/** Sets (or, with null, removes) the robot's embedding provider's API key: never returned. */
export function setEmbeddingKey(
  ctx: DomainContext,
  robot: Robot,
  key: string | null,
): Promise<Robot> {
  return changeRobot(ctx, robot, undefined, (current) => {
    const stored: Partial<RobotSettings> = { ...current.storedSettings };
    if (key === null || key === '') delete stored.embeddingApiKey;
    else stored.embeddingApiKey = key;
    return { ...recordOf(current), settingsJson: JSON.stringify(stored) };
  });
}

/** Gives a robot a new secret; requests signed with the old one are refused from now on. */
export function rotateRobotSecret(ctx: DomainContext, robot: Robot): Promise<Robot> {
  return changeRobot(ctx, robot, undefined, (current) => ({
    ...recordOf(current),
    secret: randomToken(32),
  }));
}
