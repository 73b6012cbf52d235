/**
 * The one path of every change to a robot's rules. A write runs in the robot's write queue
 * (write-queue.ts); once the store has committed it, the robot's in-memory state follows it here
 * and nowhere else: the matching index, the creation order of list pages, the answers kept in
 * memory. What is added later to follow rules (publishing's draft, the question log's analytics,
 * a team server's change feed) is added here.
 * @module
 */
import type { StoredRule } from '../store/contract/records';
import type { DomainContext } from './context';
import { hasHan, robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import { indexKey } from './robot-loading';
import { toMatchableRule } from './rule-views';

export interface RuleChange {
  /** Rules added (imported, created, put back), as stored. */
  added?: readonly StoredRule[];
  /** Rules whose content changed, as stored now. */
  changed?: readonly StoredRule[];
  /** Rules removed, as they were. */
  removed?: readonly StoredRule[];
}

/**
 * Runs `write` in the robot's write queue, then makes the robot's in-memory state follow the
 * change it reports, before the next write of the robot starts. `write` is given who makes the
 * change (`actor`, domain/actors.ts), for the store to record on the rules it writes: every
 * change names its actor here, whatever path it came by.
 */
export function changeRules<T>(
  ctx: DomainContext,
  robot: Robot,
  actor: string,
  write: (actor: string) => Promise<{ change: RuleChange; result: T }>,
): Promise<T> {
  return ctx.writes.run(robotKey(robot), async () => {
    const { change, result } = await write(actor);
    await followRuleChange(ctx, robot, change);
    return result;
  });
}

async function followRuleChange(
  ctx: DomainContext,
  robot: Robot,
  change: RuleChange,
): Promise<void> {
  const added = change.added ?? [];
  const changed = change.changed ?? [];
  const removed = change.removed ?? [];
  if (added.length + changed.length + removed.length === 0) return;
  ctx.answers.forget([...changed, ...removed].map((rule) => rule.ruleId));
  ctx.menus?.follow([...added, ...changed], removed);
  const order = ctx.orders.get(robotKey(robot));
  if (order) {
    if (removed.length > 0) order.removeAll(removed.map((rule) => rule.seq));
    if (added.length > 0) order.addAll(added.map((rule) => rule.seq));
  }
  const key = indexKey(robot);
  ctx.indexes.update(key, (index) => {
    for (const rule of removed) index.remove(rule.ruleId);
    for (const rule of changed) index.upsert(toMatchableRule(rule));
  });
  // New rules in slices (a batch of 1000 takes tens of milliseconds), still in the robot's write
  // queue: the write is answered, and the robot's next write starts, once all are in. Questions
  // asked meanwhile may match some of them, each whole.
  await ctx.indexes.updateEach(key, added, (index, rule) => index.upsert(toMatchableRule(rule)));
  // The language of a robot that did not set one follows the names of its rules.
  const han = (rules: readonly StoredRule[]) =>
    rules.filter((rule) => hasHan(rule.ruleName)).length;
  if (added.length + removed.length > 0) {
    ctx.robots.countRules(
      robot,
      { rules: added.length - removed.length, han: han(added) - han(removed) },
      true,
    );
  }
}
