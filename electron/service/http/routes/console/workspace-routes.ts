import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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
import { RobotPath, TenantPath, UserPath } from '../../../validation/path-schemas';
import { AddUserBody, UpdateUserBody } from '../../../validation/schemas';
import { actorOf } from '../../console-gate';
import { success } from '../../envelope';
import { parseTenantId } from '../../path-params';

export const CONSOLE = '/console/api';
const TENANT = `${CONSOLE}/tenants/:tenantId`;
const ROBOT = `${TENANT}/robots/:robotId`;

/** The path parameters naming a robot (validation/path-schemas.ts). */
export type RobotParams = Static<typeof RobotPath>;

/**
 * The options of a console route under a robot's path: its path parameters' schema and the
 * route's own (body, query), so that its handler gets them typed.
 */
export const robotRoute = <S extends object>(schema: S) => ({
  config: { console: true },
  schema: { params: RobotPath, ...schema },
});

/** The robot a route's path names, or the contract's 404. */
export function robotFromParams(ctx: DomainContext, params: RobotParams): Promise<Robot> {
  return requireRobot(ctx, parseTenantId(params.tenantId), params.robotId);
}

export function registerWorkspaceRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  credentials: CustomerCredentials,
  baseUrl: () => string,
): void {
  const console = { config: { console: true } };
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    `${CONSOLE}/workspace`,
    { config: { console: true, teamScope: 'own-tenant' } },
    async (request) => {
      const editor = request.editor;
      const tenantId = editor?.tenantId ?? null;
      const workspace = await getWorkspace(ctx, credentials, baseUrl(), tenantId);
      return success(
        editor && tenantId !== null
          ? { ...workspace, signedIn: { username: editor.actor, tenantId } }
          : workspace,
      );
    },
  );

  typed.post(
    `${CONSOLE}/tenants`,
    { ...console, schema: { body: ConsoleRegisterBody } },
    async (request) => {
      const { language, ...registration } = request.body;
      return success(await registerTenant(ctx, registration, language));
    },
  );

  typed.post(
    `${TENANT}/users`,
    { ...console, schema: { params: TenantPath, body: AddUserBody } },
    async (request) =>
      success(await addUser(ctx, parseTenantId(request.params.tenantId), request.body)),
  );

  typed.put(
    `${TENANT}/users/:userId`,
    { ...console, schema: { params: UserPath, body: UpdateUserBody } },
    async (request) => {
      const { tenantId, userId } = request.params;
      return success(await updateUser(ctx, parseTenantId(tenantId), userId, request.body));
    },
  );

  typed.post(
    `${TENANT}/robots`,
    { ...console, schema: { params: TenantPath, body: ConsoleCreateRobotBody } },
    async (request) => {
      const { name, language } = request.body;
      const created = await createRobot(
        ctx,
        parseTenantId(request.params.tenantId),
        name,
        language,
      );
      return success(toConsoleRobot(ctx, created));
    },
  );

  typed.patch(
    ROBOT,
    { ...console, schema: { params: RobotPath, body: RobotPatchBody } },
    async (request) => {
      const robot = await robotFromParams(ctx, request.params);
      const patched = await patchRobot(ctx, robot, request.body, actorOf(request));
      return success(toConsoleRobot(ctx, patched));
    },
  );

  typed.post(
    `${ROBOT}/rotate-secret`,
    { ...console, schema: { params: RobotPath } },
    async (request) =>
      success(
        toConsoleRobot(
          ctx,
          await rotateRobotSecret(ctx, await robotFromParams(ctx, request.params)),
        ),
      ),
  );
}
