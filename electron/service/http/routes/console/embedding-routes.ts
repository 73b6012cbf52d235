/**
 * A robot's embedding model in the console (docs/matching.md, "Fusion"): its status (progress of
 * the rules' vectors, failures, calibration), a connection test, and its API key, which is set
 * here and never returned (the robot shows only whether it has one).
 * @module
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import { setEmbeddingKey } from '../../../domain/robots';
import { toConsoleRobot } from '../../../domain/workspace';
import type { SemanticSearch } from '../../../embedding/semantic-search';
import { indexOf } from '../../../domain/robot-loading';
import { EmbeddingKeyBody, EmbeddingTestBody } from '../../../validation/console-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams, robotRoute } from './workspace-routes';

const R = `${CONSOLE}/tenants/:tenantId/robots/:robotId`;

export function registerEmbeddingRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  semantic: SemanticSearch,
): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  /** Null: the robot has no provider (lexical matching alone). */
  typed.get(`${R}/embedding`, robotRoute({}), async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    return success(semantic.status(robot, await indexOf(ctx, robot)));
  });

  typed.post(`${R}/embedding/test`, robotRoute({ body: EmbeddingTestBody }), async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    const { api, base, model, apiKey } = request.body;
    const key = apiKey ?? robot.settings.embeddingApiKey;
    const provider = { api, base, model, ...(key !== '' ? { apiKey: key } : {}) };
    return success(await semantic.test(robot, provider));
  });

  typed.put(`${R}/embedding/key`, robotRoute({ body: EmbeddingKeyBody }), async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    const updated = await setEmbeddingKey(ctx, robot, request.body.key);
    return success(toConsoleRobot(ctx, updated));
  });
}
