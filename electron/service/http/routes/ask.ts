import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ask } from '../../domain/ask';
import type { DomainContext } from '../../domain/context';
import { AskBody } from '../../validation/schemas';
import { success } from '../envelope';

export function registerAskRoute(app: FastifyInstance, ctx: DomainContext): void {
  app.post(
    '/v1/openapi/tenants/:tenantId/robots/:robotId/robot/ask',
    { config: { signMethod: 2 }, schema: { body: AskBody } },
    async (request) => {
      const robot = request.robot;
      if (!robot) throw new Error('ask reached without a resolved robot');
      const { question } = request.body as Static<typeof AskBody>;
      return success(ask(ctx, robot, question).result);
    },
  );
}
