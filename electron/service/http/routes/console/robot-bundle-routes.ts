import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import { exportRobot, importRobot, prepareBundleChecks } from '../../../domain/robot-bundles';
import { actorOf } from '../../../http/console-gate';
import { ServiceError } from '../../../errors';
import { LIMITS } from '../../../limits';
import { streamBodies, withBundleBody } from '../../bundle-upload';
import { RobotPath, TenantPath } from '../../../validation/path-schemas';
import { success } from '../../envelope';
import { parseTenantId } from '../../path-params';
import { CONSOLE, robotFromParams } from './workspace-routes';

const MIB = 1024 * 1024;

/**
 * Copying a robot between services (domain/robot-bundles.ts): its bundle, and a bundle imported
 * as a new robot of a tenant. Both carry up to `LIMITS.bundleBytesMax`, above the 10 MiB of
 * every other route.
 */
export function registerRobotBundleRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const console = { config: { console: true } };
  // Before the first request, not during the first import (its asks would wait for Ajv).
  app.addHook('onReady', async () => prepareBundleChecks());
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    `${CONSOLE}/tenants/:tenantId/robots/:robotId/bundle`,
    { ...console, schema: { params: RobotPath } },
    async (request, reply) => {
      const bundle = await exportRobot(ctx, await robotFromParams(ctx, request.params));
      // Serialised here to know its size: a bundle the receiver would refuse is refused at once.
      const body = JSON.stringify(success(bundle));
      if (Buffer.byteLength(body) > LIMITS.bundleBytesMax) {
        throw new ServiceError(
          'body-too-large',
          `This robot's bundle is larger than ${LIMITS.bundleBytesMax / MIB} MiB, the most a service imports: copy it in parts (move rules to another robot first).`,
          undefined,
          { keyword: 'maxBytes', params: { limit: LIMITS.bundleBytesMax } },
        );
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  // The bundle is read as it arrives, by the domain (http/bundle-upload.ts): its route has no
  // body parser and no body schema, the domain checks the bundle rule by rule.
  void app.register(async (scope) => {
    streamBodies(scope);
    scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .post(
        `${CONSOLE}/tenants/:tenantId/robots/import`,
        { ...console, schema: { params: TenantPath } },
        async (request) => {
          const tenantId = parseTenantId(request.params.tenantId);
          const importer = {
            actor: actorOf(request),
            // A signed-in administrator sees one tenant only (http/console-gate.ts).
            seesEveryTenant: request.editor?.tenantId === null,
          };
          return success(
            await withBundleBody(request.body, LIMITS.bundleBytesMax, (source) =>
              importRobot(ctx, tenantId, source, importer),
            ),
          );
        },
      );
  });
}
