import type { Static } from '@sinclair/typebox';
import type { Ajv } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../domain/context';
import type { Robot } from '../../domain/robot-directory';
import { getRule, importRules, listRules } from '../../domain/rules';
import { ServiceError } from '../../errors';
import { LIMITS } from '../../limits';
import { BatchBody, ListQuery, RuleInputSchema } from '../../validation/schemas';
import { lazyValidator } from '../lazy-validator';
import { success } from '../envelope';

const RULES = '/v1/openapi/tenants/:tenantId/robots/:robotId/kb/rules';

/** Method-2 routes have their robot resolved by authentication. */
function robotOf(request: FastifyRequest): Robot {
  if (!request.robot) throw new Error('method-2 route reached without a resolved robot');
  return request.robot;
}

export function registerRuleRoutes(app: FastifyInstance, ctx: DomainContext, ajv: Ajv): void {
  const validateRule = lazyValidator(ajv, RuleInputSchema);

  app.post(
    `${RULES}/full/batch`,
    { config: { signMethod: 2 }, schema: { body: BatchBody } },
    async (request) =>
      success(await importRules(ctx, robotOf(request), request.body as unknown[], validateRule)),
  );

  app.get(`${RULES}/:ruleId`, { config: { signMethod: 2 } }, async (request) => {
    const { ruleId } = request.params as { ruleId: string };
    return success(await getRule(ctx, robotOf(request), ruleId));
  });

  app.get(
    RULES,
    { config: { signMethod: 2 }, schema: { querystring: ListQuery } },
    async (request) => {
      const query = request.query as Static<typeof ListQuery>;
      const page = Number(query.page ?? 0);
      const pageSize = Number(query.pageSize ?? LIMITS.pageSizeDefault);
      if (pageSize < 1 || pageSize > LIMITS.pageSizeMax) {
        throw new ServiceError(
          'invalid-paging',
          `pageSize must be between 1 and ${LIMITS.pageSizeMax}.`,
        );
      }
      return success(await listRules(ctx, robotOf(request), page, pageSize));
    },
  );
}
