import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Ajv } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../domain/context';
import type { Robot } from '../../domain/robot-directory';
import { getRule, importRules, listRules } from '../../domain/rules';
import { ServiceError } from '../../errors';
import { LIMITS } from '../../limits';
import { RobotPath, RulePath } from '../../validation/path-schemas';
import { BatchBody, ListQuery, RuleInputSchema } from '../../validation/schemas';
import { lazyValidator } from '../lazy-validator';
import { success, successJsonInSlices } from '../envelope';
import { PAGING } from '../failures';
import { actorOf } from '../console-gate';

const RULES = '/v1/openapi/tenants/:tenantId/robots/:robotId/kb/rules';

/** Spellings clients use for paging, folded (lower case, no `_` or `-`), and ours they mean. */
const PAGING_SPELLINGS: Record<string, 'page' | 'pageSize'> = {
  page: 'page',
  pageno: 'page',
  pagenum: 'page',
  pagenumber: 'page',
  pageindex: 'page',
  offset: 'page',
  pagesize: 'pageSize',
  size: 'pageSize',
  limit: 'pageSize',
  perpage: 'pageSize',
};

/**
 * Refuses a paging parameter spelled otherwise than `page` and `pageSize` (`pagesize=5`,
 * `page_size`, `limit`): ignoring it would answer another page than the one asked for.
 */
function refuseOtherPagingSpellings(query: Record<string, unknown>): void {
  for (const key of Object.keys(query)) {
    const meant = PAGING_SPELLINGS[key.toLowerCase().replace(/[_-]/g, '')];
    if (meant !== undefined && key !== meant) {
      throw new ServiceError(
        'invalid-paging',
        `Unknown query parameter ${key}: did you mean ${meant}? This route pages with page and pageSize (names are case-sensitive).`,
        key,
      );
    }
  }
}

/** Method-2 routes have their robot resolved by authentication. */
function robotOf(request: FastifyRequest): Robot {
  if (!request.robot) throw new Error('method-2 route reached without a resolved robot');
  return request.robot;
}

export function registerRuleRoutes(app: FastifyInstance, ctx: DomainContext, ajv: Ajv): void {
  const validateRule = lazyValidator(ajv, RuleInputSchema);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    `${RULES}/full/batch`,
    { config: { signMethod: 2 }, schema: { params: RobotPath, body: BatchBody } },
    async (request, reply) => {
      const result = await importRules(
        ctx,
        robotOf(request),
        request.body,
        validateRule,
        actorOf(request),
      );
      // Serialised in slices: questions asked meanwhile are not held up by half a megabyte.
      const json = await successJsonInSlices({ ...result });
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  typed.get(
    `${RULES}/:ruleId`,
    { config: { signMethod: 2 }, schema: { params: RulePath } },
    async (request) => success(await getRule(ctx, robotOf(request), request.params.ruleId)),
  );

  typed.get(
    RULES,
    { config: { signMethod: 2 }, schema: { params: RobotPath, querystring: ListQuery } },
    async (request) => {
      const query = request.query;
      refuseOtherPagingSpellings(query);
      const page = Number(query.page ?? 0);
      const pageSize = Number(query.pageSize ?? LIMITS.pageSizeDefault);
      if (pageSize < 1 || pageSize > LIMITS.pageSizeMax) {
        throw new ServiceError(
          'invalid-paging',
          `pageSize must be ${PAGING.pageSize}.`,
          'pageSize',
        );
      }
      return success(await listRules(ctx, robotOf(request), page, pageSize));
    },
  );
}
