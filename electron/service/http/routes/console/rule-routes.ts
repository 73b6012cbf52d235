import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RuleSortKey, RuleState } from '../../../console-types';
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
import { success } from '../../envelope';
import { CONSOLE, robotFromParams } from './workspace-routes';
import { actorOf } from '../../console-gate';

const RULES = `${CONSOLE}/tenants/:tenantId/robots/:robotId/rules`;

/** The question log's figures of a robot's rules (absent when the log is off). */
export type HitFigures = (robot: Robot) => Promise<RuleHitFigure[]>;

export function registerConsoleRuleRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  hitFigures?: HitFigures,
): void {
  const console = { config: { console: true } };

  app.get(RULES, { ...console, schema: { querystring: RuleQueryString } }, async (request) => {
    const query = request.query as Static<typeof RuleQueryString>;
    const limit = Number(query.limit ?? 100);
    if (limit < 1 || limit > LIMITS.pageSizeMax) {
      throw new ServiceError(
        'invalid-paging',
        `limit must be between 1 and ${LIMITS.pageSizeMax}.`,
        'limit',
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
          ...(query.state !== undefined ? { state: query.state as RuleState } : {}),
          ...(query.category !== undefined ? { category: query.category } : {}),
          ...(query.conflicts === 'true' ? { conflicts: true } : {}),
          ...(query.sort !== undefined ? { sort: query.sort as RuleSortKey } : {}),
          ...(query.dir !== undefined ? { dir: query.dir } : {}),
        },
        await hitFigures?.(robot),
      ),
    );
  });

  // Static paths are registered before `:ruleId` ones; the router prefers them anyway.
  app.get(`${RULES}/duplicates`, console, async (request) =>
    success({
      duplicates: await duplicateQuestions(ctx, await robotFromParams(ctx, request.params)),
    }),
  );

  app.get(
    `${RULES}/trash`,
    { ...console, schema: { querystring: TrashQuery } },
    async (request) => {
      const limit = Number((request.query as Static<typeof TrashQuery>).limit ?? 1000);
      if (limit < 1 || limit > 1000) {
        throw new ServiceError('invalid-paging', 'limit must be between 1 and 1000.', 'limit');
      }
      const robot = await robotFromParams(ctx, request.params);
      return success({ rules: await deletedRules(ctx, robot, limit) });
    },
  );

  app.post(`${RULES}/delete`, { ...console, schema: { body: RuleIdsBody } }, async (request) =>
    success(
      await deleteRules(
        ctx,
        await robotFromParams(ctx, request.params),
        (request.body as Static<typeof RuleIdsBody>).ruleIds,
        actorOf(request),
      ),
    ),
  );

  app.post(`${RULES}/restore`, { ...console, schema: { body: RestoreBody } }, async (request) =>
    success(
      await restoreRules(
        ctx,
        await robotFromParams(ctx, request.params),
        (request.body as Static<typeof RestoreBody>).ruleIds,
        actorOf(request),
      ),
    ),
  );

  app.post(
    `${RULES}/set-active`,
    { ...console, schema: { body: SetActiveBody } },
    async (request) => {
      const { ruleIds, active } = request.body as Static<typeof SetActiveBody>;
      return success(
        await setRulesActive(
          ctx,
          await robotFromParams(ctx, request.params),
          ruleIds,
          active,
          actorOf(request),
        ),
      );
    },
  );

  app.post(
    `${RULES}/set-category`,
    { ...console, schema: { body: SetCategoryBody } },
    async (request) => {
      const { ruleIds, categoryId, category } = request.body as Static<typeof SetCategoryBody>;
      if ((categoryId === undefined) === (category === undefined)) {
        throw new ServiceError(
          'missing-field',
          'Give either categoryId (an existing category) or category (a name), not both.',
          'categoryId',
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
    },
  );

  app.get(`${RULES}/:ruleId`, console, async (request) => {
    const { ruleId } = request.params as { ruleId: string };
    return success(await getConsoleRule(ctx, await robotFromParams(ctx, request.params), ruleId));
  });

  app.post(RULES, { ...console, schema: { body: RuleEditBody } }, async (request) =>
    success(
      await createRule(
        ctx,
        await robotFromParams(ctx, request.params),
        request.body as Static<typeof RuleEditBody>,
        actorOf(request),
      ),
    ),
  );

  app.patch(
    `${RULES}/:ruleId`,
    { ...console, schema: { body: RulePatchBody } },
    async (request) => {
      const { ruleId } = request.params as { ruleId: string };
      const patch = request.body as Static<typeof RulePatchBody>;
      return success(
        await updateRule(
          ctx,
          await robotFromParams(ctx, request.params),
          ruleId,
          patch,
          actorOf(request),
        ),
      );
    },
  );
}
