/**
 * Makes a node's memory follow changes written by any node (the change feed): each change names
 * what changed, never how, and is applied by reading the store as it is now, in the robot's write
 * queue (so it never interleaves with a write of this node). Applying a change twice, or one this
 * node has already followed as it wrote it, is harmless: the result is the store's state.
 *
 * What a node keeps in memory from the database, and what follows it here:
 * - the robot directory (secrets, settings, language counts): `robot`/`tenant` changes;
 * - each robot's matching index, answer cache, menus, rule order: `rules` changes;
 * - the published index of a robot in review mode: `version` changes (publish, rollback) and
 *   `robot` changes (mode, synonyms).
 * Categories and administrators are read from the store at each request: nothing to follow.
 * @module
 */
import type { DomainContext } from '../domain/context';
import { forgetRobot, loadRobot } from '../domain/deletions';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import { parseStoredSettings } from '../domain/robot-settings';
import { indexKey } from '../domain/robot-loading';
import { applySynonyms } from '../domain/robot-synonyms';
import { toMatchableRule } from '../domain/rule-views';
import type { MenuEntry, RobotKey, RobotRecord, StoredRule } from '../store/contract/records';
import type { Change } from './change-feed';

/** Rules read in one query. */
const READ_CHUNK = 1000;

/**
 * Applies a batch of changes. Each robot's part is queued in that robot's write queue at once,
 * and no robot's part waits for another's: a robot busy with a long write of this node (a bundle
 * import of 90k rules holds its queue for the whole import) delays its own changes only, never
 * the other robots'. The order of the robot and rules parts of one robot does not matter: each
 * reads the store as it is now (a robot loaded after its rules were skipped reads them whole).
 * Resolves once every part is applied.
 */
export async function followChanges(ctx: DomainContext, changes: readonly Change[]): Promise<void> {
  if (changes.length === 0) return;
  const work: Promise<void>[] = [];
  const robotsChanged = changes.some((c) => c.kind === 'robot' || c.kind === 'tenant');
  if (robotsChanged) work.push(followRobots(ctx));
  const rules = new Map<string, { tenantId: number; robotId: string; ids: Set<string> }>();
  const versions = new Map<string, { tenantId: number; robotId: string }>();
  for (const change of changes) {
    if (change.tenantId === null || change.robotId === null) continue;
    const key = robotKey({ tenantId: change.tenantId, robotId: change.robotId });
    if (change.kind === 'rules') {
      let entry = rules.get(key);
      if (!entry) {
        entry = { tenantId: change.tenantId, robotId: change.robotId, ids: new Set() };
        rules.set(key, entry);
      }
      for (const id of change.ruleIds) entry.ids.add(id);
    } else if (change.kind === 'version') {
      versions.set(key, { tenantId: change.tenantId, robotId: change.robotId });
    }
  }
  for (const { tenantId, robotId, ids } of rules.values()) {
    work.push(followRules(ctx, tenantId, robotId, [...ids]));
  }
  for (const { tenantId, robotId } of versions.values()) {
    work.push(followVersions(ctx, tenantId, robotId));
  }
  // Every part settles before the first failure is told (none is left running unseen).
  const failed = (await Promise.allSettled(work)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

const sameFields = (robot: Robot, record: RobotRecord): boolean =>
  robot.name === record.name &&
  robot.secret === record.secret &&
  JSON.stringify(robot.storedSettings) === JSON.stringify(parseStoredSettings(record.settingsJson));

/**
 * The directory made equal to the store's robots: added, changed, deleted (or their tenant). One
 * read finds the robots that differ; each is then decided on a fresh read in its write queue, so
 * that a read older than a write of this node (a robot made or changed here meanwhile) never
 * undoes it.
 */
export async function followRobots(ctx: DomainContext): Promise<void> {
  const records = await ctx.store.robots.all();
  const stored = new Map(records.map((record) => [robotKey(record), record]));
  const differing = new Map<string, RobotKey>();
  for (const robot of ctx.robots.all()) {
    if (!stored.has(robotKey(robot))) differing.set(robotKey(robot), robot);
  }
  for (const record of records) {
    const known = ctx.robots.get(record.tenantId, record.robotId);
    if (!known || !sameFields(known, record)) differing.set(robotKey(record), record);
  }
  await Promise.all(
    [...differing].map(([key, robot]) =>
      ctx.writes.run(key, () =>
        followRobot(ctx, { tenantId: robot.tenantId, robotId: robot.robotId }),
      ),
    ),
  );
}

/** One robot made as stored now (in its write queue). */
async function followRobot(ctx: DomainContext, key: RobotKey): Promise<void> {
  const record = (await ctx.store.robots.all()).find(
    (r) => r.tenantId === key.tenantId && r.robotId === key.robotId,
  );
  const current = ctx.robots.get(key.tenantId, key.robotId);
  if (!record) {
    if (current) forgetRobot(ctx, current);
    return;
  }
  if (!current) {
    await loadRobot(ctx, record);
    return;
  }
  if (sameFields(current, record)) return;
  const updated = ctx.robots.put(record);
  applySynonyms(ctx, updated);
  await ctx.publishing?.followStored(updated);
}

/** Rule ids waiting for their robot's write queue, by context and robot (not started yet). */
const waiting = new WeakMap<
  DomainContext,
  Map<string, { ids: Set<string>; done: Promise<void> }>
>();

/**
 * The robot's rules `ruleIds` made as stored now in its index, caches, menus and order, in its
 * write queue. Ids named again before the work queued for them starts join it (and share its
 * outcome): the changes of a 90k-rule import (one per 200 rules, all waiting behind the import
 * on the node that writes it) are one read after it, not 450.
 */
export function followRules(
  ctx: DomainContext,
  tenantId: number,
  robotId: string,
  ruleIds: readonly string[],
): Promise<void> {
  const key = robotKey({ tenantId, robotId });
  let robots = waiting.get(ctx);
  if (!robots) {
    robots = new Map();
    waiting.set(ctx, robots);
  }
  const queued = robots.get(key);
  if (queued) {
    for (const id of ruleIds) queued.ids.add(id);
    return queued.done;
  }
  const pending = robots;
  const ids = new Set(ruleIds);
  const done = ctx.writes.run(key, () => {
    pending.delete(key);
    return applyRules(ctx, tenantId, robotId, [...ids]);
  });
  pending.set(key, { ids, done });
  return done;
}

/**
 * `followRules`' work, read and applied `READ_CHUNK` at a time (holding a 90k-rule import read at
 * once was the whole copy again in this node's heap). Where indexes are loaded on demand, an
 * index neither in memory nor loading needs nothing (it is read from the store when asked), and
 * one that most of the change concerns is let go of and read again when next asked instead of
 * followed a chunk at a time: only the menus and the answers are followed then.
 */
async function applyRules(
  ctx: DomainContext,
  tenantId: number,
  robotId: string,
  ruleIds: readonly string[],
): Promise<void> {
  const robot = ctx.robots.get(tenantId, robotId);
  // A robot not in memory (deleted, or not loaded yet) has nothing to follow: it is read whole
  // when it comes (followRobots).
  if (!robot) return;
  const menus = ctx.menus;
  const key = indexKey(robot);
  const indexes = ctx.indexes;
  const loaded = indexes.peek(key);
  if (
    indexes.loadsOnDemand &&
    loaded &&
    ruleIds.length > READ_CHUNK &&
    ruleIds.length * 2 >= loaded.size
  ) {
    indexes.drop(key);
  }
  const follow = !indexes.loadsOnDemand || indexes.held(key);
  for (let at = 0; at < ruleIds.length; at += READ_CHUNK) {
    const ids = ruleIds.slice(at, at + READ_CHUNK);
    ctx.answers.forget(ids);
    if (!follow && ctx.store.rules.menusOf) {
      if (!menus) continue;
      const found = new Map<string, MenuEntry[]>();
      for (const { ruleId, menu } of await ctx.store.rules.menusOf(robot, ids)) {
        found.set(ruleId, menu);
      }
      for (const id of ids) menus.set(id, found.get(id) ?? null);
      continue;
    }
    const stored = new Map<string, StoredRule>();
    for (const rule of await ctx.store.rules.findMany(robot, ids)) stored.set(rule.ruleId, rule);
    const gone = ids.filter((id) => !stored.has(id));
    indexes.update(key, (index) => {
      for (const id of gone) index.remove(id);
    });
    await indexes.updateEach(key, [...stored.values()], (index, rule) =>
      index.upsert(toMatchableRule(rule)),
    );
    if (menus) {
      for (const id of gone) menus.set(id, null);
      for (const [id, rule] of stored) menus.set(id, rule.menu);
    }
  }
  // Rebuilt from the store at the next list that needs it (a keyed seek, then exact again).
  ctx.orders.set(robotKey(robot), undefined);
  ctx.robots.countRules(robot, await ctx.store.rules.languageCounts(robot));
}

/** A publish or rollback on another node: the robot's published index follows its latest version. */
export function followVersions(
  ctx: DomainContext,
  tenantId: number,
  robotId: string,
): Promise<void> {
  return ctx.writes.run(robotKey({ tenantId, robotId }), async () => {
    const robot = ctx.robots.get(tenantId, robotId);
    if (robot) await ctx.publishing?.followStored(robot);
  });
}

/** Everything read again from the store (a follower that was away longer than the feed keeps). */
export async function followEverything(ctx: DomainContext): Promise<void> {
  await followRobots(ctx);
  await Promise.all(
    ctx.robots.all().map((robot) =>
      ctx.writes.run(robotKey(robot), async () => {
        const current = ctx.robots.get(robot.tenantId, robot.robotId);
        if (!current) return;
        if (ctx.indexes.loadsOnDemand) {
          // Read again from the store when next asked.
          ctx.indexes.drop(indexKey(current));
        } else {
          const index = ctx.indexes.createDetached();
          if (index.setSynonyms && current.settings.synonyms.length > 0) {
            index.setSynonyms(current.settings.synonyms);
          }
          for (const rule of await ctx.store.rules.matchable(current)) {
            index.upsert(toMatchableRule(rule));
          }
          ctx.indexes.replace(indexKey(current), index);
        }
        ctx.orders.set(robotKey(current), undefined);
        ctx.robots.countRules(current, await ctx.store.rules.languageCounts(current));
        await ctx.publishing?.followStored(current);
      }),
    ),
  );
  ctx.answers.clear();
  if (ctx.menus) {
    ctx.menus.clear();
    for (const { ruleId, menu } of await ctx.store.rules.menus()) ctx.menus.set(ruleId, menu);
  }
}
