/**
 * The editor's collision check: phrasings that the robot answers with another rule, and rules
 * that are probably the same question twice, named as the editor shows them.
 * @module
 */
import type { RobotCollisions } from '../console-types';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexOf } from './robot-loading';

/** Reads the engine's leave-one-out report (run in slices: ask keeps being answered meanwhile). */
export async function ruleCollisions(ctx: DomainContext, robot: Robot): Promise<RobotCollisions> {
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
