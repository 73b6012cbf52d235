/**
 * Each robot's managed list of categories: created, renamed, merged and deleted in the editor;
 * rules are filed under one by its id (the openapi's `ruleCategoryId`), '' for none. Names are
 * unique in a robot after trimming, case-sensitive like rule names.
 * @module
 */
import type { ConsoleCategory } from '../console-types';
import { ServiceError } from '../errors';
import { UniqueViolation } from '../store/contract/errors';
import type { CategoryRecord, StoredRule } from '../store/contract/records';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { changeRules } from './rule-changes';

const nameKey = (name: string) => name.trim();

function toConsoleCategory(category: CategoryRecord): ConsoleCategory {
  return { categoryId: category.categoryId, name: category.name, rules: category.rules };
}

function nameTaken(name: string): ServiceError {
  return new ServiceError(
    'category-name-taken',
    `A category named "${nameKey(name)}" already exists in this robot.`,
    'name',
    { params: { name: nameKey(name) } },
  );
}

function notFound(categoryId: string): ServiceError {
  return new ServiceError(
    'category-not-found',
    `Category ${categoryId} does not exist in this robot.`,
    'categoryId',
  );
}

async function guardName<T>(name: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof UniqueViolation && error.key === 'category-name') throw nameTaken(name);
    throw error;
  }
}

export async function listCategories(ctx: DomainContext, robot: Robot): Promise<ConsoleCategory[]> {
  return (await ctx.store.categories.list(robot)).map(toConsoleCategory);
}

export async function createCategory(
  ctx: DomainContext,
  robot: Robot,
  name: string,
): Promise<ConsoleCategory> {
  const created = await guardName(
    name,
    ctx.store.categories.create(robot, name, nameKey(name), ctx.now()),
  );
  return toConsoleCategory(created);
}

export async function renameCategory(
  ctx: DomainContext,
  robot: Robot,
  categoryId: string,
  name: string,
): Promise<ConsoleCategory> {
  const renamed = await guardName(
    name,
    ctx.store.categories.rename(robot, categoryId, name, nameKey(name)),
  );
  if (!renamed) throw notFound(categoryId);
  return toConsoleCategory(renamed);
}

/** The stored rules of some ids (rules whose category changed), for the rule-change path. */
async function rulesOf(ctx: DomainContext, robot: Robot, ruleIds: string[]): Promise<StoredRule[]> {
  const rules = await Promise.all(ruleIds.map((ruleId) => ctx.store.rules.find(robot, ruleId)));
  return rules.filter((rule): rule is StoredRule => rule !== undefined);
}

/** Files the rules of `from` under `into` and deletes the categories of `from`. */
export async function mergeCategories(
  ctx: DomainContext,
  robot: Robot,
  from: readonly string[],
  into: string,
  actor: string,
): Promise<{ moved: number }> {
  const target = await ctx.store.categories.find(robot, into);
  if (!target) throw notFound(into);
  for (const categoryId of from) {
    if (!(await ctx.store.categories.find(robot, categoryId))) throw notFound(categoryId);
  }
  return changeRules(ctx, robot, actor, async (actor) => {
    const moved = await ctx.store.categories.merge(robot, from, into, ctx.now(), actor);
    return {
      change: { changed: await rulesOf(ctx, robot, moved) },
      result: { moved: moved.length },
    };
  });
}

/** Deletes a category; its rules are left without one. */
export async function deleteCategory(
  ctx: DomainContext,
  robot: Robot,
  categoryId: string,
  actor: string,
): Promise<{ uncategorized: number }> {
  if (!(await ctx.store.categories.find(robot, categoryId))) throw notFound(categoryId);
  return changeRules(ctx, robot, actor, async (actor) => {
    const moved = await ctx.store.categories.remove(robot, categoryId, ctx.now(), actor);
    return {
      change: { changed: await rulesOf(ctx, robot, moved) },
      result: { uncategorized: moved.length },
    };
  });
}

/** The id of a category of the robot ('' stays ''), or a 400 naming the field. */
export async function checkedCategoryId(
  ctx: DomainContext,
  robot: Robot,
  categoryId: string,
  field = 'ruleCategoryId',
): Promise<string> {
  if (categoryId === '' || (await ctx.store.categories.find(robot, categoryId))) return categoryId;
  throw new ServiceError(
    'invalid-field',
    `${field} names no category of this robot: pick one from the robot's categories.`,
    field,
  );
}

/** The id of the category with this name, made if there is none ('' for a blank name). */
export async function categoryIdForName(
  ctx: DomainContext,
  robot: Robot,
  name: string,
): Promise<string> {
  const key = nameKey(name);
  if (key === '') return '';
  const known = (await ctx.store.categories.list(robot)).find((c) => c.nameKey === key);
  if (known) return known.categoryId;
  try {
    return (await ctx.store.categories.create(robot, name, key, ctx.now())).categoryId;
  } catch (error) {
    // Made meanwhile by another writer: use it.
    if (!(error instanceof UniqueViolation)) throw error;
    const made = (await ctx.store.categories.list(robot)).find((c) => c.nameKey === key);
    if (!made) throw error;
    return made.categoryId;
  }
}

/** The names of the robot's categories by id. */
export async function categoryNames(
  ctx: DomainContext,
  robot: Robot,
): Promise<Map<string, string>> {
  return new Map((await ctx.store.categories.list(robot)).map((c) => [c.categoryId, c.name]));
}
