/**
 * A robot's synonym groups are a setting that lives in its matching index: applied whenever the
 * robot's settings are (re)read, and only when they differ from the index's (this re-indexes it).
 * @module
 */
import type { DomainContext } from './context';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import type { SynonymGroups } from './robot-settings';

const sameGroups = (a: SynonymGroups, b: SynonymGroups): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

export function applySynonyms(ctx: DomainContext, robot: Robot): void {
  const groups = robot.settings.synonyms;
  // Loaded on demand, an index not in memory is made with the robot's groups when it is loaded
  // (a load under way is given them after: `update` keeps it for then).
  ctx.indexes.update(robotKey(robot), (target) => {
    if (!target.setSynonyms || sameGroups(target.synonyms ?? [], groups)) return;
    target.setSynonyms(groups);
  });
}
