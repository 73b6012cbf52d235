import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import { ruleCollisions } from '../../../domain/rule-collisions';
import { tryQuestion } from '../../../domain/try-question';
import { ServiceError } from '../../../errors';
import { TryBody } from '../../../validation/console-schemas';
import { isIsoDate } from '../../../validation/effective-window';
import { success } from '../../envelope';
import { robotFromParams, robotRoute } from './workspace-routes';

/** The try pane: exactly what ask would answer, plus every candidate with its reasons. */
export function registerTryRoute(app: FastifyInstance, ctx: DomainContext): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.post(
    '/console/api/tenants/:tenantId/robots/:robotId/try',
    robotRoute({ body: TryBody }),
    async (request) => {
      const robot = await robotFromParams(ctx, request.params);
      const { question, asOf, userId, edition } = request.body;
      if (asOf !== undefined && !isIsoDate(asOf)) {
        throw new ServiceError('invalid-field', 'asOf is not a valid date.', 'asOf', {
          keyword: 'date',
        });
      }
      return success(
        await tryQuestion(
          ctx,
          robot,
          question,
          asOf === undefined ? undefined : Date.parse(asOf),
          userId,
          edition,
        ),
      );
    },
  );

  // Next to try: the same engine, asked with every phrasing of the robot in turn.
  typed.get(
    '/console/api/tenants/:tenantId/robots/:robotId/collisions',
    robotRoute({}),
    async (request) =>
      success(await ruleCollisions(ctx, await robotFromParams(ctx, request.params))),
  );
}
