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
import { parseTenantId } from '../../path-params';
import { CONSOLE, robotFromParams } from './workspace-routes';

const TENANT = `${CONSOLE}/tenants/:tenantId`;

type Params = { tenantId: string; robotId?: string; userId?: string };

/** Deleting robots, tenants and administrators, the trash, and restoring from it. */
export function registerTrashRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const console = { config: { console: true } };
  const tenantOf = (params: unknown) => parseTenantId((params as Params).tenantId);

  app.get(
    `${CONSOLE}/trash`,
    { config: { console: true, teamScope: 'own-tenant' } },
    async (request) => success(await listTrash(ctx, request.editor?.tenantId ?? null)),
  );

  app.delete(TENANT, console, async (request) =>
    success(await deleteTenant(ctx, tenantOf(request.params))),
  );
  app.post(`${TENANT}/restore`, console, async (request) => {
    await restoreTenant(ctx, tenantOf(request.params));
    return success({ restored: true });
  });

  app.delete(`${TENANT}/robots/:robotId`, console, async (request) =>
    success(await deleteRobot(ctx, await robotFromParams(ctx, request.params))),
  );
  app.post(`${TENANT}/robots/:robotId/restore`, console, async (request) => {
    const { robotId } = request.params as Params;
    await restoreRobot(ctx, tenantOf(request.params), robotId ?? '');
    return success({ restored: true });
  });

  app.delete(`${TENANT}/users/:userId`, console, async (request) => {
    const { userId } = request.params as Params;
    return success(await deleteUser(ctx, tenantOf(request.params), userId ?? ''));
  });
  app.post(`${TENANT}/users/:userId/restore`, console, async (request) => {
    const { userId } = request.params as Params;
    await restoreUser(ctx, tenantOf(request.params), userId ?? '');
    return success({ restored: true });
  });
}
