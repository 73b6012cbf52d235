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
  const key = robotKey(robot);
  const index = ctx.indexes.of(key);
  if (!index.setSynonyms || sameGroups(index.synonyms ?? [], robot.settings.synonyms)) return;
  const groups = robot.settings.synonyms;
  ctx.indexes.update(key, (target) => target.setSynonyms?.(groups));
}
