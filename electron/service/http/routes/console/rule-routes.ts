import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import type { Robot } from '../../../domain/robot-directory';
import {
  createRule,
  deleteRules,
  deletedRules,
  duplicateQuestions,
  getConsoleRule,
  queryRules,
  restoreRules,
  setRulesActive,
  setRulesCategory,
  updateRule,
} from '../../../domain/rule-editing';
import { ServiceError } from '../../../errors';
import { LIMITS } from '../../../limits';
import type { RuleHitFigure } from '../../../store/contract/records';
import {
  RestoreBody,
  RuleEditBody,
  RuleIdsBody,
  RulePatchBody,
  RuleQueryString,
  SetActiveBody,
  SetCategoryBody,
  TrashQuery,
} from '../../../validation/console-schemas';
import { RulePath } from '../../../validation/path-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams, robotRoute } from './workspace-routes';
import { actorOf } from '../../console-gate';

const RULES = `${CONSOLE}/tenants/:tenantId/robots/:robotId/rules`;

/**
 * The question log's figures of a robot's rules, of every rule hit or of these (absent when the
 * log is off).
 */
export type HitFigures = (robot: Robot, ruleIds?: readonly string[]) => Promise<RuleHitFigure[]>;

export function registerConsoleRuleRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  hitFigures?: HitFigures,
): void {
  const console = { config: { console: true } };
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(RULES, robotRoute({ querystring: RuleQueryString }), async (request) => {
    const query = request.query;
    const limit = Number(query.limit ?? 100);
    if (limit < 1 || limit > LIMITS.pageSizeMax) {
      throw new ServiceError(
        'invalid-paging',
        `limit must be between 1 and ${LIMITS.pageSizeMax}.`,
        'limit',
        { keyword: 'range', params: { minimum: 1, maximum: LIMITS.pageSizeMax } },
      );
    }
    const robot = await robotFromParams(ctx, request.params);
    return success(
      await queryRules(
        ctx,
        robot,
        {
          offset: Number(query.offset ?? 0),
          limit,
          ...(query.q !== undefined ? { q: query.q } : {}),
          ...(query.active !== undefined ? { active: query.active === 'true' } : {}),
          ...(query.state !== undefined ? { state: query.state } : {}),
          ...(query.category !== undefined ? { category: query.category } : {}),
          ...(query.conflicts === 'true' ? { conflicts: true } : {}),
          ...(query.sort !== undefined ? { sort: query.sort } : {}),
          ...(query.dir !== undefined ? { dir: query.dir } : {}),
        },
        hitFigures && ((ruleIds) => hitFigures(robot, ruleIds)),
      ),
    );
  });

  // Static paths are registered before `:ruleId` ones; the router prefers them anyway.
  typed.get(`${RULES}/duplicates`, robotRoute({}), async (request) =>
    success({
      duplicates: await duplicateQuestions(ctx, await robotFromParams(ctx, request.params)),
    }),
  );

  typed.get(`${RULES}/trash`, robotRoute({ querystring: TrashQuery }), async (request) => {
    const limit = Number(request.query.limit ?? 1000);
    if (limit < 1 || limit > 1000) {
      throw new ServiceError('invalid-paging', 'limit must be between 1 and 1000.', 'limit', {
        keyword: 'range',
        params: { minimum: 1, maximum: 1000 },
      });
    }
    const robot = await robotFromParams(ctx, request.params);
    return success({ rules: await deletedRules(ctx, robot, limit) });
  });

  typed.post(`${RULES}/delete`, robotRoute({ body: RuleIdsBody }), async (request) =>
    success(
      await deleteRules(
        ctx,
        await robotFromParams(ctx, request.params),
        request.body.ruleIds,
        actorOf(request),
      ),
    ),
  );

  typed.post(`${RULES}/restore`, robotRoute({ body: RestoreBody }), async (request) =>
    success(
      await restoreRules(
        ctx,
        await robotFromParams(ctx, request.params),
        request.body.ruleIds,
        actorOf(request),
      ),
    ),
  );

  typed.post(`${RULES}/set-active`, robotRoute({ body: SetActiveBody }), async (request) => {
    const { ruleIds, active } = request.body;
    return success(
      await setRulesActive(
        ctx,
        await robotFromParams(ctx, request.params),
        ruleIds,
        active,
        actorOf(request),
      ),
    );
  });

  typed.post(`${RULES}/set-category`, robotRoute({ body: SetCategoryBody }), async (request) => {
    const { ruleIds, categoryId, category } = request.body;
    if ((categoryId === undefined) === (category === undefined)) {
      throw new ServiceError(
        'missing-field',
        'Give either categoryId (an existing category) or category (a name), not both.',
        'categoryId',
        { keyword: 'oneOf', params: { alternatives: ['categoryId', 'category'] } },
      );
    }
    const target = category !== undefined ? { name: category } : { categoryId: categoryId ?? '' };
    return success(
      await setRulesCategory(
        ctx,
        await robotFromParams(ctx, request.params),
        ruleIds,
        target,
        actorOf(request),
      ),
    );
  });

  typed.get(`${RULES}/:ruleId`, { ...console, schema: { params: RulePath } }, async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    return success(await getConsoleRule(ctx, robot, request.params.ruleId));
  });

  typed.post(RULES, robotRoute({ body: RuleEditBody }), async (request) =>
    success(
      await createRule(
        ctx,
        await robotFromParams(ctx, request.params),
        request.body,
        actorOf(request),
      ),
    ),
  );

  typed.patch(
    `${RULES}/:ruleId`,
    { ...console, schema: { params: RulePath, body: RulePatchBody } },
    async (request) => {
      const robot = await robotFromParams(ctx, request.params);
      return success(
        await updateRule(ctx, robot, request.params.ruleId, request.body, actorOf(request)),
      );
    },
  );
}
