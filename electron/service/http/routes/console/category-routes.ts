import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  createCategory,
  deleteCategory,
  listCategories,
  mergeCategories,
  renameCategory,
} from '../../../domain/categories';
import type { DomainContext } from '../../../domain/context';
import { CategoryMergeBody, CategoryNameBody } from '../../../validation/console-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams } from './workspace-routes';
import { actorOf } from '../../console-gate';

const CATEGORIES = `${CONSOLE}/tenants/:tenantId/robots/:robotId/categories`;

/** Each robot's managed list of categories. */
export function registerCategoryRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const console = { config: { console: true } };
  const categoryIdOf = (params: unknown) => (params as { categoryId: string }).categoryId;

  app.get(CATEGORIES, console, async (request) =>
    success({ categories: await listCategories(ctx, await robotFromParams(ctx, request.params)) }),
  );

  app.post(CATEGORIES, { ...console, schema: { body: CategoryNameBody } }, async (request) => {
    const { name } = request.body as Static<typeof CategoryNameBody>;
    return success(await createCategory(ctx, await robotFromParams(ctx, request.params), name));
  });

  app.post(
    `${CATEGORIES}/merge`,
    { ...console, schema: { body: CategoryMergeBody } },
    async (request) => {
      const { from, into } = request.body as Static<typeof CategoryMergeBody>;
      const robot = await robotFromParams(ctx, request.params);
      return success(await mergeCategories(ctx, robot, from, into, actorOf(request)));
    },
  );

  app.patch(
    `${CATEGORIES}/:categoryId`,
    { ...console, schema: { body: CategoryNameBody } },
    async (request) => {
      const { name } = request.body as Static<typeof CategoryNameBody>;
      const robot = await robotFromParams(ctx, request.params);
      return success(await renameCategory(ctx, robot, categoryIdOf(request.params), name));
    },
  );

  app.delete(`${CATEGORIES}/:categoryId`, console, async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    return success(
      await deleteCategory(ctx, robot, categoryIdOf(request.params), actorOf(request)),
    );
  });
}
