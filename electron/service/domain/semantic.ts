/**
 * The robot's embedding model follows its index (the `semantic` port, embedding/): its rules'
 * vectors are made in the background from now on. Nothing happens for a robot without a provider.
 * @module
 */
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexKey } from './robot-loading';

export function followSemantic(ctx: DomainContext, robot: Robot): void {
  ctx.semantic?.follow(robot, ctx.indexes.of(indexKey(robot)));
}
