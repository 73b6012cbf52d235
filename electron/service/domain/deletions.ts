/**
 * Deleting robots, tenants and administrators without losing anything by one click: a deleted
 * robot or tenant is hidden (its API calls answer 404) and an administrator moved to a trash,
 * all restorable for a grace period, then purged for good. Deleted rules wait in their robot's
 * trash the same way (rule-editing.ts).
 * @module
 */
import type { ConsoleTrash } from '../console-types';
import { ServiceError } from '../errors';
import { UniqueViolation } from '../store/contract/errors';
import type { DomainContext } from './context';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import { indexKey } from './robot-loading';
import { applySynonyms } from './robot-synonyms';
import { assertTenantExists } from './tenant-lookup';
import { toMatchableRule } from './rule-views';

/** How long what is deleted can be restored. */
export const GRACE_MS = 30 * 24 * 60 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** Hides a robot: its API calls answer 404, its index leaves memory; restorable. */
export function deleteRobot(ctx: DomainContext, robot: Robot): Promise<{ purgeAfter: string }> {
  return ctx.writes.run(robotKey(robot), async () => {
    const now = ctx.now();
    await ctx.store.robots.setDeleted(robot, now);
    forgetRobot(ctx, robot);
    return { purgeAfter: iso(now + GRACE_MS) };
  });
}

/** Takes a robot out of memory (deleted here, or on another node of a team server). */
export function forgetRobot(ctx: DomainContext, robot: Robot): void {
  ctx.robots.remove(robot);
  ctx.indexes.drop(indexKey(robot));
  ctx.orders.set(robotKey(robot), undefined);
  ctx.publishing?.robotRemoved(robot);
  ctx.semantic?.forget(robot);
}

/** Brings a deleted robot back, its rules indexed again. */
export async function restoreRobot(
  ctx: DomainContext,
  tenantId: number,
  robotId: string,
): Promise<Robot> {
  await assertTenantExists(ctx, tenantId);
  const key = { tenantId, robotId };
  return ctx.writes.run(robotKey(key), async () => {
    const record = (await ctx.store.robots.deleted()).find(
      (r) => r.tenantId === tenantId && r.robotId === robotId,
    );
    if (!record || !(await ctx.store.robots.setDeleted(key, null))) {
      throw new ServiceError(
        'robot-not-found',
        `Robot ${robotId} is not in the trash of tenant ${tenantId}.`,
      );
    }
    return loadRobot(ctx, record);
  });
}

/** Puts a robot of the store into memory: directory, language, index built from its rules. */
export async function loadRobot(
  ctx: DomainContext,
  record: Parameters<DomainContext['robots']['put']>[0],
): Promise<Robot> {
  ctx.robots.countRules(record, await ctx.store.rules.languageCounts(record));
  const robot = ctx.robots.put(record);
  if (ctx.indexes.loadsOnDemand) {
    // Read from the store when first asked.
    ctx.indexes.drop(indexKey(robot));
  } else {
    applySynonyms(ctx, robot);
    const index = ctx.indexes.of(indexKey(robot));
    for (const rule of await ctx.store.rules.matchable(robot)) index.upsert(toMatchableRule(rule));
  }
  await ctx.publishing?.robotRestored(robot);
  return robot;
}

/** Hides a tenant with its robots and administrators; restorable. */
export async function deleteTenant(
  ctx: DomainContext,
  tenantId: number,
): Promise<{ purgeAfter: string }> {
  await assertTenantExists(ctx, tenantId);
  const now = ctx.now();
  await ctx.store.tenants.setDeleted(tenantId, now);
  for (const robot of ctx.robots.listForTenant(tenantId)) {
    await ctx.writes.run(robotKey(robot), async () => forgetRobot(ctx, robot));
  }
  return { purgeAfter: iso(now + GRACE_MS) };
}

export async function restoreTenant(ctx: DomainContext, tenantId: number): Promise<void> {
  const tenant = (await ctx.store.tenants.all()).find(
    (t) => t.tenantId === tenantId && t.deletedAt != null,
  );
  if (!tenant)
    throw new ServiceError('tenant-not-found', `Tenant ${tenantId} is not in the trash.`);
  await ctx.store.tenants.setDeleted(tenantId, null);
  for (const record of await ctx.store.robots.all()) {
    if (record.tenantId !== tenantId) continue;
    await ctx.writes.run(robotKey(record), () => loadRobot(ctx, record));
  }
}

/** Moves an administrator to the trash. */
export async function deleteUser(
  ctx: DomainContext,
  tenantId: number,
  userId: string,
): Promise<{ purgeAfter: string }> {
  await assertTenantExists(ctx, tenantId);
  const now = ctx.now();
  if (!(await ctx.store.users.remove(tenantId, userId, now))) {
    throw new ServiceError(
      'user-not-found',
      `User ${userId} does not exist in tenant ${tenantId}.`,
    );
  }
  return { purgeAfter: iso(now + GRACE_MS) };
}

export async function restoreUser(
  ctx: DomainContext,
  tenantId: number,
  userId: string,
): Promise<void> {
  await assertTenantExists(ctx, tenantId);
  try {
    if (!(await ctx.store.users.restore(tenantId, userId))) {
      throw new ServiceError(
        'user-not-found',
        `User ${userId} is not in the trash of tenant ${tenantId}.`,
      );
    }
  } catch (error) {
    if (!(error instanceof UniqueViolation)) throw error;
    throw new ServiceError(
      'username-taken',
      'An administrator added since has the same username: rename one of them first.',
      'username',
    );
  }
}

/** What can be restored: deleted tenants, robots and administrators, with their purge dates. */
/** `onlyTenant`: a signed-in administrator's tenant (team server): its items alone. */
export async function listTrash(
  ctx: DomainContext,
  onlyTenant: number | null = null,
): Promise<ConsoleTrash> {
  const mine = <T extends { tenantId: number }>(items: T[]) =>
    onlyTenant === null ? items : items.filter((item) => item.tenantId === onlyTenant);
  const [tenants, robots, users] = await Promise.all([
    ctx.store.tenants.all().then(mine),
    ctx.store.robots.deleted().then(mine),
    ctx.store.users.deleted().then(mine),
  ]);
  const deletedTenants = new Set(tenants.filter((t) => t.deletedAt != null).map((t) => t.tenantId));
  return {
    tenants: tenants
      .filter((t) => t.deletedAt != null)
      .map((t) => ({
        tenantId: t.tenantId,
        company: t.company,
        deletedAt: iso(t.deletedAt as number),
        purgeAfter: iso((t.deletedAt as number) + GRACE_MS),
      })),
    robots: robots.map((r) => ({
      tenantId: r.tenantId,
      robotId: r.robotId,
      name: r.name,
      deletedAt: iso(r.deletedAt as number),
      purgeAfter: iso((r.deletedAt as number) + GRACE_MS),
    })),
    users: users
      .filter((u) => !deletedTenants.has(u.tenantId))
      .map((u) => ({
        tenantId: u.tenantId,
        userId: u.userId,
        username: u.username,
        deletedAt: iso(u.deletedAt),
        purgeAfter: iso(u.deletedAt + GRACE_MS),
      })),
  };
}

/** Deletes for good what was deleted longer ago than the grace period. */
export async function purgeExpired(ctx: DomainContext): Promise<number> {
  const before = ctx.now() - GRACE_MS;
  const counts = await Promise.all([
    ctx.store.rules.purgeDeleted(before),
    ctx.store.users.purgeDeleted(before),
    ctx.store.robots.purgeDeleted(before),
  ]);
  // Tenants last: their robots and administrators go with them.
  counts.push(await ctx.store.tenants.purgeDeleted(before));
  return counts.reduce((a, b) => a + b, 0);
}
