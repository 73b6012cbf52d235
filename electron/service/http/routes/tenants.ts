import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../domain/context';
import { registerTenant } from '../../domain/tenants';
import { addUser, updateUser } from '../../domain/users';
import { TenantPath, UserPath } from '../../validation/path-schemas';
import { AddUserBody, RegisterTenantBody, UpdateUserBody } from '../../validation/schemas';
import { success } from '../envelope';
import { parseTenantId } from '../path-params';

export function registerTenantRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.post(
    '/v1/openapi/register/init',
    { config: { signMethod: 1, formBody: true }, schema: { body: RegisterTenantBody } },
    async (request) => success(await registerTenant(ctx, request.body)),
  );

  typed.post(
    '/v1/openapi/tenants/:tenantId/users',
    {
      config: { signMethod: 1, formBody: true },
      schema: { params: TenantPath, body: AddUserBody },
    },
    async (request) => {
      const tenantId = parseTenantId(request.params.tenantId);
      return success(await addUser(ctx, tenantId, request.body), null);
    },
  );

  typed.put(
    '/v1/openapi/tenants/:tenantId/users/:userId',
    {
      config: { signMethod: 1, formBody: true },
      schema: { params: UserPath, body: UpdateUserBody },
    },
    async (request) => {
      const { tenantId, userId } = request.params;
      return success(await updateUser(ctx, parseTenantId(tenantId), userId, request.body), null);
    },
  );
}
