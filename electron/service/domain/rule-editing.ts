/**
 * Rule editing for the editor (console API): one rule at a time, or many ids at once. Every
 * write goes through the one path of rule changes (rule-changes.ts).
 * @module
 */
import type {
  ConsoleRule,
  DeletedConsoleRule,
  DuplicateQuestion,
  RuleEdit,
  RulePage,
  RulePatch,
  RuleQuery,
} from '../console-types';
import { ServiceError } from '../errors';
import { normalizeText } from '../matching/normalize';
import { UniqueViolation } from '../store/contract/errors';
import type {
  NewRule,
  RuleContent,
  RuleFieldsPatch,
  RuleHitFigure,
  StoredRule,
} from '../store/contract/records';
import { effectiveWindowProblems } from '../validation/effective-window';
import { categoryIdForName, categoryNames, checkedCategoryId } from './categories';
import type { DomainContext } from './context';
import { timeOrderedUuid } from './ids';
import type { Robot } from './robot-directory';
import { changeRules } from './rule-changes';
import { lastCollidingRuleIds } from './rule-collisions';
import { requireRule, ruleNameKey, ruleNameTaken, ruleNotFound } from './rules';
import { toConsoleRule } from './rule-views';

/** A page of the robot's rules, filtered and sorted by the store so that 100k rules stay quick. */
/**
 * The question log's hits of a robot's rules: of every rule hit (no ids), or of these rules.
 */
export type RuleHitReader = (ruleIds?: readonly string[]) => Promise<RuleHitFigure[]>;

/**
 * A page of the robot's rules. `hits` (the question log's, when it is on) gives each row its
 * figures; every rule's are read only to sort by hits or last hit, else the page's alone.
 */
export async function queryRules(
  ctx: DomainContext,
  robot: Robot,
  query: RuleQuery,
  hits?: RuleHitReader,
): Promise<RulePage> {
  const text = query.q?.trim();
  const now = ctx.now();
  const byHits = query.sort === 'hits' || query.sort === 'lastHit';
  const hitFigures = hits && byHits ? await hits() : undefined;
  const ruleIds = query.conflicts ? await lastCollidingRuleIds(ctx, robot) : undefined;
  const [{ rows, total }, names] = await Promise.all([
    ctx.store.rules.query(robot, {
      offset: query.offset ?? 0,
      limit: query.limit ?? 100,
      ...(text ? { text } : {}),
      ...(query.active !== undefined ? { active: query.active } : {}),
      ...(query.state !== undefined ? { state: query.state } : {}),
      ...(query.category !== undefined ? { category: query.category } : {}),
      ...(ruleIds !== undefined ? { ruleIds } : {}),
      sort: query.sort ?? 'created',
      descending: query.dir === 'desc',
      now,
      ...(hitFigures !== undefined ? { hitFigures } : {}),
    }),
    categoryNames(ctx, robot),
  ]);
  const views = rows.map((rule) => toConsoleRule(rule, now, names));
  if (hits === undefined) return { rows: views, total };
  const figures = hitFigures ?? (await hits(views.map((view) => view.ruleId)));
  const byRule = new Map(figures.map((figure) => [figure.ruleId, figure]));
  return {
    rows: views.map((view) => {
      const figure = byRule.get(view.ruleId);
      const lastHit = figure?.lastHit ?? null;
      return {
        ...view,
        hits: figure?.hits ?? 0,
        lastHit: lastHit === null ? null : new Date(lastHit).toISOString(),
      };
    }),
    total,
  };
}

/** A rule as the editor sees it now. */
async function consoleView(
  ctx: DomainContext,
  robot: Robot,
  rule: StoredRule,
): Promise<ConsoleRule> {
  return toConsoleRule(rule, ctx.now(), await categoryNames(ctx, robot));
}

export async function getConsoleRule(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
): Promise<ConsoleRule> {
  return consoleView(ctx, robot, await requireRule(ctx, robot, ruleId));
}

/** The category an edit files a rule under: by name (made if new), else by id (checked). */
async function categoryOf(
  ctx: DomainContext,
  robot: Robot,
  edit: Pick<RuleEdit, 'ruleCategoryId' | 'categoryName'>,
  current: string,
): Promise<string> {
  if (edit.categoryName !== undefined) return categoryIdForName(ctx, robot, edit.categoryName);
  if (edit.ruleCategoryId !== undefined) return checkedCategoryId(ctx, robot, edit.ruleCategoryId);
  return current;
}

function assertWindow(begin: string | null | undefined, end: string | null | undefined): void {
  const [problem] = effectiveWindowProblems(begin ?? null, end ?? null);
  if (problem) throw new ServiceError('invalid-field', problem.message, problem.field, problem);
}

/** The name is free in the robot (or held by `exceptRuleId`), else the contract's 409. */
async function assertNameFree(
  ctx: DomainContext,
  robot: Robot,
  ruleName: string,
  exceptRuleId?: string,
): Promise<void> {
  const holder = await ctx.store.rules.nameHolder(robot, ruleNameKey(ruleName));
  if (holder !== undefined && holder !== exceptRuleId) throw ruleNameTaken(ruleName);
}

/** A uniqueness race lost to another writer, in the API's terms. */
function asConflict(error: unknown, ruleName: string): unknown {
  if (!(error instanceof UniqueViolation)) return error;
  if (error.key === 'rule-name') return ruleNameTaken(ruleName);
  if (error.key === 'rule-id') return new ServiceError('rule-exists', 'This rule already exists.');
  return error;
}

function contentOf(edit: RuleEdit): RuleContent {
  return {
    ruleName: edit.ruleName,
    nameKey: ruleNameKey(edit.ruleName),
    categoryId: edit.ruleCategoryId ?? '',
    active: edit.active !== false,
    allowSimGen: edit.allowSimGen ?? null,
    effectBegin: edit.effectBeignDate ?? null,
    effectEnd: edit.effectEndDate ?? null,
    questions: edit.questions,
    answer: edit.answer,
    matchPolicy: edit.matchPolicy ?? 'similarity',
    negativeKeywords: edit.negativeKeywords ?? [],
    menu: edit.menu ?? null,
  };
}

/** Every menu entry leads to a rule of the robot (the rule itself may be one: "back to menu"). */
async function assertMenu(
  ctx: DomainContext,
  robot: Robot,
  menu: RuleContent['menu'],
  selfId?: string,
): Promise<void> {
  for (const [i, entry] of (menu ?? []).entries()) {
    if (entry.ruleId === selfId) continue;
    if ((await ctx.store.rules.find(robot, entry.ruleId)) === undefined) {
      throw new ServiceError(
        'invalid-field',
        `Menu entry ${i + 1} leads to no rule of this robot (${entry.ruleId}).`,
        `menu[${i}].ruleId`,
      );
    }
  }
}

export function createRule(
  ctx: DomainContext,
  robot: Robot,
  edit: RuleEdit,
  actor: string,
): Promise<ConsoleRule> {
  assertWindow(edit.effectBeignDate, edit.effectEndDate);
  return changeRules(ctx, robot, actor, async (actor) => {
    await assertNameFree(ctx, robot, edit.ruleName);
    await assertMenu(ctx, robot, edit.menu);
    const categoryId = await categoryOf(ctx, robot, edit, '');
    const now = ctx.now();
    const rule: NewRule = {
      ...contentOf(edit),
      categoryId,
      ruleId: timeOrderedUuid(now),
      createdAt: now,
    };
    const added = await ctx.store.rules
      .insert(robot, [rule], now, actor)
      .catch((error: unknown) => Promise.reject(asConflict(error, edit.ruleName)));
    return { change: { added }, result: await consoleView(ctx, robot, added[0] as StoredRule) };
  });
}

export function updateRule(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
  patch: RulePatch,
  actor: string,
): Promise<ConsoleRule> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const current = await requireRule(ctx, robot, ruleId);
    const pick = <T>(given: T | undefined, kept: T): T => (given === undefined ? kept : given);
    const ruleName = pick(patch.ruleName, current.ruleName);
    const content: RuleContent = {
      ruleName,
      nameKey: ruleNameKey(ruleName),
      categoryId: await categoryOf(ctx, robot, patch, current.categoryId),
      active: pick(patch.active, current.active),
      allowSimGen: pick(patch.allowSimGen, current.allowSimGen),
      effectBegin: pick(patch.effectBeignDate, current.effectBegin),
      effectEnd: pick(patch.effectEndDate, current.effectEnd),
      questions: pick(patch.questions, current.questions),
      answer: pick(patch.answer, current.answer),
      matchPolicy: pick(patch.matchPolicy, current.matchPolicy),
      negativeKeywords: pick(patch.negativeKeywords, current.negativeKeywords),
      menu: pick(patch.menu, current.menu),
    };
    assertWindow(content.effectBegin, content.effectEnd);
    if (patch.menu !== undefined) await assertMenu(ctx, robot, patch.menu, ruleId);
    if (patch.ruleName !== undefined) await assertNameFree(ctx, robot, patch.ruleName, ruleId);
    const updated = await ctx.store.rules
      .update(robot, ruleId, content, ctx.now(), actor)
      .catch((error: unknown) => Promise.reject(asConflict(error, ruleName)));
    if (!updated) throw ruleNotFound(robot, ruleId);
    return { change: { changed: [updated] }, result: await consoleView(ctx, robot, updated) };
  });
}

function patchRules(
  ctx: DomainContext,
  robot: Robot,
  ruleIds: readonly string[],
  patch: RuleFieldsPatch,
  actor: string,
): Promise<{ updated: number }> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const changed = await ctx.store.rules.patchMany(robot, ruleIds, patch, ctx.now(), actor);
    return { change: { changed }, result: { updated: changed.length } };
  });
}

export function deleteRules(
  ctx: DomainContext,
  robot: Robot,
  ruleIds: readonly string[],
  actor: string,
): Promise<{ deleted: number }> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const removed = await ctx.store.rules.remove(robot, ruleIds, ctx.now(), actor);
    return { change: { removed }, result: { deleted: removed.length } };
  });
}

/** The phrasings of the robot's other rules, as the matcher reads them (similar phrasings). */
export async function otherPhrasingKeys(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const rule of await ctx.store.rules.questions(robot)) {
    if (rule.ruleId === ruleId) continue;
    for (const question of rule.questions) keys.add(normalizeText(question));
  }
  return keys;
}

export function setRulesActive(
  ctx: DomainContext,
  robot: Robot,
  ruleIds: readonly string[],
  active: boolean,
  actor: string,
): Promise<{ updated: number }> {
  return patchRules(ctx, robot, ruleIds, { active }, actor);
}

/**
 * Files many rules under one category in one transaction (Excel import, grid): by id, or by name
 * (made if new); '' for none.
 */
export async function setRulesCategory(
  ctx: DomainContext,
  robot: Robot,
  ruleIds: readonly string[],
  category: { categoryId: string } | { name: string },
  actor: string,
): Promise<{ updated: number }> {
  const categoryId =
    'name' in category
      ? await categoryIdForName(ctx, robot, category.name)
      : await checkedCategoryId(ctx, robot, category.categoryId, 'categoryId');
  return patchRules(ctx, robot, ruleIds, { categoryId }, actor);
}

/**
 * A restore that met a rule made since the delete, in the API's terms: its name taken in the
 * robot, or its id taken anywhere in the store (a bundle imported meanwhile kept that id).
 */
function restoreConflict(error: unknown): unknown {
  if (!(error instanceof UniqueViolation)) return error;
  if (error.key === 'rule-name') {
    return new ServiceError(
      'rule-name-taken',
      'A rule made since the delete has the name of a rule to put back: rename one of them first.',
      'ruleName',
    );
  }
  if (error.key === 'rule-id') {
    return new ServiceError(
      'rule-exists',
      'A rule made since the delete has the id of a rule to put back: it cannot be put back.',
      'ruleIds',
    );
  }
  return error;
}

/**
 * Puts deleted rules back from the robot's trash (the editor's undo of a delete): same ids,
 * content and, where still free, the same position. All or nothing: a rule whose name was taken
 * since fails the call.
 */
export function restoreRules(
  ctx: DomainContext,
  robot: Robot,
  ruleIds: readonly string[],
  actor: string,
): Promise<{ restored: number }> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const added = await ctx.store.rules
      .restore(robot, ruleIds, ctx.now(), actor)
      .catch((error: unknown) => Promise.reject(restoreConflict(error)));
    return { change: { added }, result: { restored: added.length } };
  });
}

/** The robot's trash, most recently deleted first. */
export async function deletedRules(
  ctx: DomainContext,
  robot: Robot,
  limit: number,
): Promise<DeletedConsoleRule[]> {
  const [rules, names] = await Promise.all([
    ctx.store.rules.deleted(robot, limit),
    categoryNames(ctx, robot),
  ]);
  const now = ctx.now();
  return rules.map((rule) => ({
    ...toConsoleRule(rule, now, names),
    deletedAt: new Date(rule.deletedAt).toISOString(),
  }));
}

/** Phrasings that, once normalised as the matcher does, appear in more than one rule. */
export async function duplicateQuestions(
  ctx: DomainContext,
  robot: Robot,
): Promise<DuplicateQuestion[]> {
  const byQuestion = new Map<string, { question: string; ruleIds: Set<string> }>();
  for (const rule of await ctx.store.rules.questions(robot)) {
    for (const question of rule.questions) {
      const key = normalizeText(question);
      if (key === '') continue;
      let entry = byQuestion.get(key);
      if (!entry) {
        entry = { question, ruleIds: new Set() };
        byQuestion.set(key, entry);
      }
      entry.ruleIds.add(rule.ruleId);
    }
  }
  return [...byQuestion.values()]
    .filter((entry) => entry.ruleIds.size > 1)
    .map((entry) => ({ question: entry.question, ruleIds: [...entry.ruleIds] }));
}
