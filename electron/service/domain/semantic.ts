/**
 * The robot's embedding model follows its index (the `semantic` port, embedding/): its rules'
 * vectors are made in the background from now on. Nothing happens for a robot without a provider.
 * @module
 */
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexKey } from './robot-loading';

export function followSemantic(ctx: DomainContext, robot: Robot): void {
  const key = indexKey(robot);
  // Loaded when asked: one not in memory is followed once loaded (robot-loading.ts).
  const index = ctx.indexes.inMemory(key);
  if (index) ctx.semantic?.follow(robot, index);
}
