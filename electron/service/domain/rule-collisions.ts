/**
 * The editor's collision check: phrasings that the robot answers with another rule, and rules
 * that are probably the same question twice, named as the editor shows them.
 * @module
 */
import type { RobotCollisions } from '../console-types';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexKey, indexOf } from './robot-loading';

interface RobotChecks {
  /** The check under way: a second request while it runs waits for the same one. */
  running?: Promise<RobotCollisions>;
  /** Rules named by the last finished check (the rules list's `conflicts` filter). */
  lastRuleIds?: string[];
}

/** Per service (its domain context), per robot. */
const checks = new WeakMap<DomainContext, Map<string, RobotChecks>>();

function checksOf(ctx: DomainContext, robot: Robot): RobotChecks {
  let robots = checks.get(ctx);
  if (!robots) checks.set(ctx, (robots = new Map()));
  const key = indexKey(robot);
  let entry = robots.get(key);
  if (!entry) robots.set(key, (entry = {}));
  return entry;
}

/**
 * The robot's collision check; requests made while one runs share it. What it names is kept as
 * the rules list's `conflicts` filter, so that the grid's markers and that filter agree.
 */
export function ruleCollisions(ctx: DomainContext, robot: Robot): Promise<RobotCollisions> {
  const entry = checksOf(ctx, robot);
  if (entry.running) return entry.running;
  const running = computeCollisions(ctx, robot)
    .then((report) => {
      entry.lastRuleIds = collidingRuleIds(report);
      return report;
    })
    .finally(() => {
      if (entry.running === running) delete entry.running;
    });
  entry.running = running;
  return running;
}

/** The rules of the last finished check (it is run first when there is none). */
export async function lastCollidingRuleIds(ctx: DomainContext, robot: Robot): Promise<string[]> {
  const known = checksOf(ctx, robot).lastRuleIds;
  return known ?? collidingRuleIds(await ruleCollisions(ctx, robot));
}

function collidingRuleIds(report: RobotCollisions): string[] {
  const ids = new Set<string>();
  for (const conflict of report.conflicts) ids.add(conflict.ruleId).add(conflict.otherRuleId);
  for (const duplicate of report.duplicates) duplicate.ruleIds.forEach((id) => ids.add(id));
  return [...ids];
}

/** Reads the engine's leave-one-out report (run in slices: ask keeps being answered meanwhile). */
async function computeCollisions(ctx: DomainContext, robot: Robot): Promise<RobotCollisions> {
  const index = indexOf(ctx, robot);
  if (index.collisions === undefined) {
    return { probed: 0, complete: true, conflicts: [], duplicates: [] };
  }
  const report = await index.collisions({ nowMs: ctx.now() });
  const ids = new Set<string>();
  for (const conflict of report.conflicts) ids.add(conflict.ruleId).add(conflict.otherRuleId);
  for (const duplicate of report.duplicates) duplicate.ruleIds.forEach((id) => ids.add(id));
  const names = await ctx.store.rules.namesOf([...ids]);
  const name = (ruleId: string): string => names.get(ruleId) ?? '';
  return {
    probed: report.probed,
    complete: report.complete,
    conflicts: report.conflicts.map((conflict) => ({
      ...conflict,
      ruleName: name(conflict.ruleId),
      otherRuleName: name(conflict.otherRuleId),
    })),
    duplicates: report.duplicates.map((duplicate) => ({
      ...duplicate,
      ruleNames: [name(duplicate.ruleIds[0]), name(duplicate.ruleIds[1])],
    })),
  };
}
