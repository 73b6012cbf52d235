import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { CustomerCredentials } from '../../../auth/credentials';
import type { DomainContext } from '../../../domain/context';
import type { Robot } from '../../../domain/robot-directory';
import { createRobot, patchRobot, requireRobot, rotateRobotSecret } from '../../../domain/robots';
import { registerTenant } from '../../../domain/tenants';
import { addUser, updateUser } from '../../../domain/users';
import { getWorkspace, toConsoleRobot } from '../../../domain/workspace';
import {
  ConsoleCreateRobotBody,
  ConsoleRegisterBody,
  RobotPatchBody,
} from '../../../validation/console-schemas';
import { AddUserBody, UpdateUserBody } from '../../../validation/schemas';
import { success } from '../../envelope';
import { parseTenantId } from '../../path-params';

export const CONSOLE = '/console/api';
const TENANT = `${CONSOLE}/tenants/:tenantId`;
const ROBOT = `${TENANT}/robots/:robotId`;

type TenantParams = { tenantId: string };
type RobotParams = { tenantId: string; robotId: string };

export function robotFromParams(ctx: DomainContext, params: unknown): Promise<Robot> {
  const { tenantId, robotId } = params as RobotParams;
  return requireRobot(ctx, parseTenantId(tenantId), robotId);
}

export function registerWorkspaceRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  credentials: CustomerCredentials,
  baseUrl: () => string,
): void {
  const console = { config: { console: true } };

  app.get(
    `${CONSOLE}/workspace`,
    { config: { console: true, teamScope: 'own-tenant' } },
    async (request) =>
      success(await getWorkspace(ctx, credentials, baseUrl(), request.editor?.tenantId ?? null)),
  );

  app.post(
    `${CONSOLE}/tenants`,
    { ...console, schema: { body: ConsoleRegisterBody } },
    async (request) => {
      const { language, ...registration } = request.body as Static<typeof ConsoleRegisterBody>;
      return success(await registerTenant(ctx, registration, language));
    },
  );

  app.post(`${TENANT}/users`, { ...console, schema: { body: AddUserBody } }, async (request) => {
    const { tenantId } = request.params as TenantParams;
    return success(
      await addUser(ctx, parseTenantId(tenantId), request.body as Static<typeof AddUserBody>),
    );
  });

  app.put(
    `${TENANT}/users/:userId`,
    { ...console, schema: { body: UpdateUserBody } },
    async (request) => {
      const { tenantId, userId } = request.params as TenantParams & { userId: string };
      const body = request.body as Static<typeof UpdateUserBody>;
      return success(await updateUser(ctx, parseTenantId(tenantId), userId, body));
    },
  );

  app.post(
    `${TENANT}/robots`,
    { ...console, schema: { body: ConsoleCreateRobotBody } },
    async (request) => {
      const { tenantId } = request.params as TenantParams;
      const { name, language } = request.body as Static<typeof ConsoleCreateRobotBody>;
      const created = await createRobot(ctx, parseTenantId(tenantId), name, language);
      return success(toConsoleRobot(ctx, created));
    },
  );

  app.patch(ROBOT, { ...console, schema: { body: RobotPatchBody } }, async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    const patched = await patchRobot(ctx, robot, request.body as Static<typeof RobotPatchBody>);
    return success(toConsoleRobot(ctx, patched));
  });

  app.post(`${ROBOT}/rotate-secret`, console, async (request) =>
    success(
      toConsoleRobot(ctx, await rotateRobotSecret(ctx, await robotFromParams(ctx, request.params))),
    ),
  );
}
