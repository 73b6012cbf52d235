import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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
import { CategoryPath } from '../../../validation/path-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams, robotRoute } from './workspace-routes';
import { actorOf } from '../../console-gate';

const CATEGORIES = `${CONSOLE}/tenants/:tenantId/robots/:robotId/categories`;

/** Each robot's managed list of categories. */
export function registerCategoryRoutes(app: FastifyInstance, ctx: DomainContext): void {
  const console = { config: { console: true } };
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(CATEGORIES, robotRoute({}), async (request) =>
    success({ categories: await listCategories(ctx, await robotFromParams(ctx, request.params)) }),
  );

  typed.post(CATEGORIES, robotRoute({ body: CategoryNameBody }), async (request) => {
    const robot = await robotFromParams(ctx, request.params);
    return success(await createCategory(ctx, robot, request.body.name));
  });

  typed.post(`${CATEGORIES}/merge`, robotRoute({ body: CategoryMergeBody }), async (request) => {
    const { from, into } = request.body;
    const robot = await robotFromParams(ctx, request.params);
    return success(await mergeCategories(ctx, robot, from, into, actorOf(request)));
  });

  typed.patch(
    `${CATEGORIES}/:categoryId`,
    { ...console, schema: { params: CategoryPath, body: CategoryNameBody } },
    async (request) => {
      const robot = await robotFromParams(ctx, request.params);
      return success(
        await renameCategory(ctx, robot, request.params.categoryId, request.body.name),
      );
    },
  );

  typed.delete(
    `${CATEGORIES}/:categoryId`,
    { ...console, schema: { params: CategoryPath } },
    async (request) => {
      const robot = await robotFromParams(ctx, request.params);
      return success(await deleteCategory(ctx, robot, request.params.categoryId, actorOf(request)));
    },
  );
}
