import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../domain/context';
import { createRobot, listRobots, toRobotResult } from '../../domain/robots';
import { CreateRobotBody } from '../../validation/schemas';
import { success } from '../envelope';
import { parseTenantId } from '../path-params';

/** Our extension of the interface (contract.md, "Robot routes"), signed with method 1. */
export function registerRobotRoutes(app: FastifyInstance, ctx: DomainContext): void {
  app.get(
    '/v1/openapi/tenants/:tenantId/robots',
    { config: { signMethod: 1 } },
    async (request) => {
      const { tenantId } = request.params as { tenantId: string };
      return success({ list: await listRobots(ctx, parseTenantId(tenantId)) });
    },
  );

  app.post(
    '/v1/openapi/tenants/:tenantId/robots',
    { config: { signMethod: 1, formBody: true }, schema: { body: CreateRobotBody } },
    async (request) => {
      const { tenantId } = request.params as { tenantId: string };
      const { name } = request.body as Static<typeof CreateRobotBody>;
      return success(toRobotResult(await createRobot(ctx, parseTenantId(tenantId), name)));
    },
  );
}
