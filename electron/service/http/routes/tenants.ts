import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../domain/context';
import { registerTenant } from '../../domain/tenants';
import { addUser, updateUser } from '../../domain/users';
import { AddUserBody, RegisterTenantBody, UpdateUserBody } from '../../validation/schemas';
import { success } from '../envelope';
import { parseTenantId } from '../path-params';

export function registerTenantRoutes(app: FastifyInstance, ctx: DomainContext): void {
  app.post(
    '/v1/openapi/register/init',
    { config: { signMethod: 1, formBody: true }, schema: { body: RegisterTenantBody } },
    async (request) =>
      success(await registerTenant(ctx, request.body as Static<typeof RegisterTenantBody>)),
  );

  app.post(
    '/v1/openapi/tenants/:tenantId/users',
    { config: { signMethod: 1, formBody: true }, schema: { body: AddUserBody } },
    async (request) => {
      const { tenantId } = request.params as { tenantId: string };
      const body = request.body as Static<typeof AddUserBody>;
      return success(await addUser(ctx, parseTenantId(tenantId), body), null);
    },
  );

  app.put(
    '/v1/openapi/tenants/:tenantId/users/:userId',
    { config: { signMethod: 1, formBody: true }, schema: { body: UpdateUserBody } },
    async (request) => {
      const { tenantId, userId } = request.params as { tenantId: string; userId: string };
      const body = request.body as Static<typeof UpdateUserBody>;
      return success(await updateUser(ctx, parseTenantId(tenantId), userId, body), null);
    },
  );
}
