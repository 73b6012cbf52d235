/**
 * Start and stop of the robots' in-memory state: the directory is loaded from the store, and each
 * robot's matching index is opened from the indexes saved at the last clean stop when they fit
 * the store exactly, else built from its rules. With a memory budget, indexes are loaded when a
 * robot is first asked instead (`indexLoader`), and only those that fit the budget are opened
 * at start. At a stop, what saving the indexes needs is planned once every write has settled.
 * @module
 */
import { ServiceError } from '../errors';
import type { RobotIndex } from '../matching/types';
import type { RobotIndexToSave, SavedIndexFile } from '../saved-index';
import { forEachInSlices } from '../time-slices';
import type { DomainContext } from './context';
import { BYTES_PER_RULE, bytesForRules } from './robot-indexes';
import type { IndexLoader } from './robot-indexes';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import { applySynonyms } from './robot-synonyms';
import type { SavedRobotIndexes } from './saved-robot-indexes';
import { toMatchableRule } from './rule-views';

/** What the host found: the saved indexes (at the store position they were saved at), or not. */
export type SavedIndexes = { file: SavedIndexFile | null } | { error: Error };

/** How built indexes are saved and opened again (the engine's `saveRobotIndex`/`loadRobotIndex`). */
export interface IndexCodec {
  /** Streams the index's bytes to `sink` (chunks valid only during the call). */
  write(index: RobotIndex, sink: (chunk: Uint8Array) => void): number;
  /** Null: saved by an engine that indexes differently (rebuild). Throws on damaged bytes. */
  load(bytes: Uint8Array<ArrayBuffer>): RobotIndex | null;
}

export interface IndexSavePlan {
  seq: number;
  robots: RobotIndexToSave[];
}

/** The main index of a robot (the rules as the editor last saved them). */
export const indexKey = robotKey;

/**
 * The robot's main index, loaded first if it is not in memory. Not held: for work that keeps
 * the index object itself (a collision check, a test run); an ask holds it (editions.ts).
 */
export async function indexOf(ctx: DomainContext, robot: Robot): Promise<RobotIndex> {
  const lease = await ctx.indexes.acquire(indexKey(robot));
  if (!lease) throw robotGone(robot);
  lease.release();
  return lease.index;
}

export const robotGone = (robot: Robot) =>
  new ServiceError('robot-not-found', `Robot ${robot.robotId} does not exist.`);

/**
 * How a robot's main index is read on demand: opened from its saved file when it has one exact
 * (`saved`, saved-robot-indexes.ts), else its rules read from the store and added in slices (asks
 * to other robots are answered meanwhile), with the robot's synonyms; a built index is saved
 * for the next time, and so is one let go of. `ctx` is read at the load: the loader is made
 * before the context that holds it.
 */
export function indexLoader(
  context: () => DomainContext,
  saved: SavedRobotIndexes | null = null,
): IndexLoader {
  let openedFromFiles = 0;
  return {
    get openedFromFiles() {
      return openedFromFiles;
    },
    estimate(key) {
      const ctx = context();
      const robot = ctx.robots.byKey(key);
      return robot ? bytesForRules(ctx.robots.ruleCount(robot)) : 0;
    },
    async load(key) {
      const ctx = context();
      const robot = ctx.robots.byKey(key);
      if (!robot) return null;
      const opened = await saved?.open(key);
      // Saved with the synonyms of its time (the file no longer holds once they change).
      const groups = robot.settings.synonyms;
      if (opened?.setSynonyms && JSON.stringify(opened.synonyms ?? []) !== JSON.stringify(groups)) {
        opened.setSynonyms(groups);
      }
      // Read before the rules: a write between the two leaves the count behind the index, so
      // that the file saved of it is refused after a restart, never taken wrongly.
      if (!opened && saved) saved.counted(key, await ctx.store.rules.changeCount(robot));
      const index = opened ?? (await buildIndex(ctx, robot));
      if (opened) openedFromFiles++;
      else saved?.save(key, index);
      // The embedding model follows the index from now on (semantic.ts).
      const current = ctx.robots.byKey(key);
      if (current) ctx.semantic?.follow(current, index);
      return index;
    },
    evicted(key, index) {
      saved?.save(key, index);
      const ctx = context();
      const robot = ctx.robots.byKey(key);
      if (robot) ctx.semantic?.forget(robot);
    },
    changed(key) {
      saved?.changed(key);
    },
  };
}

/** A robot's main index built from its rules as the store has them now. */
async function buildIndex(ctx: DomainContext, robot: Robot): Promise<RobotIndex> {
  const index = ctx.indexes.createDetached();
  if (index.setSynonyms && robot.settings.synonyms.length > 0) {
    index.setSynonyms(robot.settings.synonyms);
  }
  const rules = await ctx.store.rules.matchable(robot);
  await forEachInSlices(rules, (rule) => index.upsert(toMatchableRule(rule)));
  return index;
}

/**
 * A warm-up after a start under a memory budget: the robots of `keys` (most recently asked
 * first) loaded one after the other while their estimated bytes fit the budget, in the
 * background. Loads from saved files are cheap; a robot asked meanwhile is loaded once.
 */
export async function warmUp(ctx: DomainContext, keys: readonly string[]): Promise<number> {
  const budget = ctx.indexes.status().budgetBytes;
  if (budget === null) return 0;
  let room = budget - ctx.indexes.status().bytes;
  let loaded = 0;
  for (const key of keys) {
    const robot = ctx.robots.byKey(key);
    if (!robot || ctx.indexes.peek(key)) continue;
    room -= bytesForRules(ctx.robots.ruleCount(robot));
    if (room < 0) break;
    const lease = await ctx.indexes.acquire(key);
    lease?.release();
    if (lease) loaded++;
  }
  return loaded;
}

/**
 * Loads every robot and its index. `codec` null: indexes are never opened from a file (a stand-in
 * engine in tests and benchmarks).
 */
export async function loadRobots(
  ctx: DomainContext,
  saved: SavedIndexes,
  codec: IndexCodec | null,
): Promise<{ opened: number; built: number }> {
  ctx.robots.clear();
  ctx.indexes.clear();
  ctx.orders.clear();
  if (ctx.menus) {
    ctx.menus.clear();
    for (const { ruleId, menu } of await ctx.store.rules.menus()) ctx.menus.set(ruleId, menu);
  }
  for (const record of await ctx.store.robots.all()) {
    ctx.robots.countRules(record, await ctx.store.rules.languageCounts(record));
    const robot = ctx.robots.put(record);
    applySynonyms(ctx, robot);
  }
  const robots = ctx.robots.all();
  const opened = codec ? await openSaved(ctx, saved, codec) : new Set<string>();
  // On demand: the rest is loaded when asked.
  if (ctx.indexes.loadsOnDemand) return { opened: opened.size, built: 0 };
  const toBuild = robots.filter((robot) => !opened.has(indexKey(robot)));
  if (opened.size > 0) {
    ctx.logger.info(
      `opened the saved matching index of ${opened.size} robot(s)` +
        (toBuild.length > 0 ? `; building ${toBuild.length} from the database` : ''),
    );
  }
  const counts = { opened: opened.size, built: toBuild.length };
  if (toBuild.length === 0) return counts;
  // One read of every rule when every robot is built; else one per robot to build.
  const rules =
    toBuild.length === robots.length
      ? await ctx.store.rules.matchable()
      : (await Promise.all(toBuild.map((robot) => ctx.store.rules.matchable(robot)))).flat();
  for (const rule of rules) {
    if (ctx.robots.get(rule.tenantId, rule.robotId)) {
      ctx.indexes.of(indexKey(rule)).upsert(toMatchableRule(rule));
    }
  }
  return counts;
}

/** Opens the saved indexes that fit the store; returns the keys of the robots opened. */
async function openSaved(
  ctx: DomainContext,
  saved: SavedIndexes,
  codec: IndexCodec,
): Promise<Set<string>> {
  const opened = new Set<string>();
  const log = ctx.logger;
  if ('error' in saved) {
    log.warn(`ignoring the saved matching index: ${saved.error.message}; rebuilding`);
    return opened;
  }
  const { file } = saved;
  if (!file) return opened;
  if (file.seq !== ctx.store.position) {
    log.info(
      `the saved matching index is of seq ${file.seq}, the database of seq ${ctx.store.position} ` +
        '(the last stop was not clean): rebuilding',
    );
    return opened;
  }
  if (file.robots.some((entry) => !ctx.robots.get(entry.tenantId, entry.robotId))) {
    log.warn('the saved matching index names robots the database does not have: rebuilding');
    return opened;
  }
  // On demand, the budget's worth only (the file's order: the robots held at the last stop).
  let room = ctx.indexes.status().budgetBytes ?? Infinity;
  for (const entry of file.robots) {
    // Other editions (a robot's published index) are opened by the room that keeps them.
    if (entry.edition !== undefined) continue;
    room -= entry.rules * BYTES_PER_RULE;
    if (room < 0) break;
    const robot = ctx.robots.get(entry.tenantId, entry.robotId) as Robot;
    const key = indexKey(robot);
    const maxSeq = await ctx.store.rules.maxSeq(robot);
    if (entry.maxSeq !== maxSeq) {
      log.warn(
        `the saved index of robot ${key} ends at rule ${entry.maxSeq}, the database at ${maxSeq}: rebuilding it`,
      );
      continue;
    }
    let index: RobotIndex | null;
    try {
      index = codec.load(entry.bytes);
    } catch (error) {
      log.warn(
        `the saved index of robot ${key} is damaged (${(error as Error).message}): rebuilding it`,
      );
      continue;
    }
    if (index === null) {
      log.info(
        `the saved index of robot ${key} was made by another matching engine: rebuilding it`,
      );
      continue;
    }
    if (index.size !== entry.rules) {
      log.warn(
        `the saved index of robot ${key} holds ${index.size} rules, not ${entry.rules}: rebuilding it`,
      );
      continue;
    }
    ctx.indexes.replace(key, index);
    // Saved with the synonyms of its time; a robot whose synonyms changed since is re-indexed.
    applySynonyms(ctx, robot);
    opened.add(key);
  }
  return opened;
}

/**
 * What a save of the indexes needs (the store's position, each robot's highest rule position),
 * read once every write has settled, so that the indexes can be written after the store is
 * closed. The caller has stopped every write: the indexes cannot change in between.
 */
export async function planIndexSave(
  ctx: DomainContext,
  codec: IndexCodec | null,
): Promise<IndexSavePlan | null> {
  if (!codec) return null;
  await ctx.writes.idle();
  const robots: RobotIndexToSave[] = [];
  for (const robot of ctx.robots.all()) {
    const key = indexKey(robot);
    if (ctx.indexes.isTainted(key)) {
      ctx.logger.warn(`the index of robot ${key} missed an update: it is not saved`);
      continue;
    }
    // Loaded when asked: only those in memory (the others are read from the store when asked;
    // a copy never asked is built at the next start).
    const index = ctx.indexes.inMemory(key);
    if (!index) continue;
    robots.push({
      tenantId: robot.tenantId,
      robotId: robot.robotId,
      rules: index.size,
      maxSeq: await ctx.store.rules.maxSeq(robot),
      write: (sink) => codec.write(index, sink),
    });
  }
  return { seq: ctx.store.position, robots };
}

/**
 * At a clean stop under a memory budget, every write settled: the indexes in memory are saved
 * (those without an exact file), and the manifest says which files hold at `position()`.
 */
export async function keepSavedIndexes(
  ctx: DomainContext,
  saved: SavedRobotIndexes | null,
  position: () => number,
): Promise<void> {
  if (!saved) return;
  await ctx.writes.idle();
  const recent = ctx.indexes.recentKeys();
  const loaded = recent.flatMap((key) => {
    const index = ctx.indexes.peek(key);
    return index && !ctx.indexes.isTainted(key) ? [{ key, index }] : [];
  });
  await saved.stop(loaded, recent, position);
}
