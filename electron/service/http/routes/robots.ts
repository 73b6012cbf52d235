import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../domain/context';
import { createRobot, listRobots, toRobotResult } from '../../domain/robots';
import { TenantPath } from '../../validation/path-schemas';
import { CreateRobotBody } from '../../validation/schemas';
import { success } from '../envelope';
import { parseTenantId } from '../path-params';

/** Our extension of the interface (contract.md, "Robot routes"), signed with method 1. */
export function registerRobotRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/v1/openapi/tenants/:tenantId/robots',
    { config: { signMethod: 1 }, schema: { params: TenantPath } },
    async (request) =>
      success({ list: await listRobots(ctx, parseTenantId(request.params.tenantId)) }),
  );

  typed.post(
    '/v1/openapi/tenants/:tenantId/robots',
    {
      config: { signMethod: 1, formBody: true },
      schema: { params: TenantPath, body: CreateRobotBody },
    },
    async (request) => {
      const tenantId = parseTenantId(request.params.tenantId);
      return success(toRobotResult(await createRobot(ctx, tenantId, request.body.name)));
    },
  );
}
