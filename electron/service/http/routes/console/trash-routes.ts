import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import {
  deleteRobot,
  deleteTenant,
  deleteUser,
  listTrash,
  restoreRobot,
  restoreTenant,
  restoreUser,
} from '../../../domain/deletions';
import { success } from '../../envelope';
import { RobotPath, TenantPath, UserPath } from '../../../validation/path-schemas';
import { parseTenantId } from '../../path-params';
import { CONSOLE, robotFromParams } from './workspace-routes';

const TENANT = `${CONSOLE}/tenants/:tenantId`;

/** Deleting robots, tenants and administrators, the trash, and restoring from it. */
export function registerTrashRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const tenant = { config: { console: true }, schema: { params: TenantPath } };
  const robot = { config: { console: true }, schema: { params: RobotPath } };
  const user = { config: { console: true }, schema: { params: UserPath } };
  const tenantOf = (params: { tenantId: string }) => parseTenantId(params.tenantId);

  typed.get(
    `${CONSOLE}/trash`,
    { config: { console: true, teamScope: 'own-tenant' } },
    async (request) => success(await listTrash(ctx, request.editor?.tenantId ?? null)),
  );

  typed.delete(TENANT, tenant, async (request) =>
    success(await deleteTenant(ctx, tenantOf(request.params))),
  );
  typed.post(`${TENANT}/restore`, tenant, async (request) => {
    await restoreTenant(ctx, tenantOf(request.params));
    return success({ restored: true });
  });

  typed.delete(`${TENANT}/robots/:robotId`, robot, async (request) =>
    success(await deleteRobot(ctx, await robotFromParams(ctx, request.params))),
  );
  typed.post(`${TENANT}/robots/:robotId/restore`, robot, async (request) => {
    await restoreRobot(ctx, tenantOf(request.params), request.params.robotId);
    return success({ restored: true });
  });

  typed.delete(`${TENANT}/users/:userId`, user, async (request) =>
    success(await deleteUser(ctx, tenantOf(request.params), request.params.userId)),
  );
  typed.post(`${TENANT}/users/:userId/restore`, user, async (request) => {
    await restoreUser(ctx, tenantOf(request.params), request.params.userId);
    return success({ restored: true });
  });
}
