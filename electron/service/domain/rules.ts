/**
 * Knowledge rules over the openapi: batch import, single read, paged list.
 * @module
 */
import type { ValidateFunction } from 'ajv';
import type {
  BatchFailure,
  BatchImportResult,
  RuleDetail,
  RuleInput,
  RuleList,
  RuleListItem,
} from '../api-types';
import { ServiceError } from '../errors';
import type { NewRule, StoredRule } from '../store/contract/records';
import { forEachInSlices, mapInSlices } from '../time-slices';
import { check } from '../validation/ajv';
import type { DomainContext } from './context';
import { timeOrderedUuid } from './ids';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import { changeRules } from './rule-changes';
import { RuleOrder } from './rule-order';
import { toRuleDetail, toRuleListItem } from './rule-views';

/** The key under which rule names are unique within a robot. */
export function ruleNameKey(ruleName: string): string {
  return ruleName.trim();
}

export function ruleNameTaken(ruleName: string): ServiceError {
  return new ServiceError(
    'rule-name-taken',
    `A rule named "${ruleNameKey(ruleName)}" already exists in this robot.`,
    'ruleName',
    { params: { ruleName: ruleNameKey(ruleName) } },
  );
}

/**
 * Imports a batch: each rule is checked on its own; the valid ones are written in one
 * transaction (one journal record, one fsync) and the others reported in `failInfo`.
 */
export function importRules(
  ctx: DomainContext,
  robot: Robot,
  items: readonly unknown[],
  validateRule: ValidateFunction,
  actor: string,
): Promise<BatchImportResult> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const failInfo: BatchFailure[] = [];
    const valid: { index: number; input: RuleInput }[] = [];
    // In slices: questions asked meanwhile are not held up by the checks of a whole batch.
    await forEachInSlices(items, (item, index) => {
      const problem = check(validateRule, item, `rule ${index}`);
      if (problem) {
        failInfo.push({ index, ruleName: nameOf(item), code: problem.code, msg: problem.message });
      } else {
        valid.push({ index, input: item as RuleInput });
      }
    });
    const taken = await ctx.store.rules.takenNameKeys(
      robot,
      valid.map(({ input }) => ruleNameKey(input.ruleName)),
    );
    const now = ctx.now();
    const claimed = new Set<string>();
    const accepted: NewRule[] = [];
    await forEachInSlices(valid, ({ index, input }) => {
      const key = ruleNameKey(input.ruleName);
      if (taken.has(key) || claimed.has(key)) {
        const { code, message } = ruleNameTaken(input.ruleName);
        failInfo.push({ index, ruleName: input.ruleName, code, msg: message });
        return;
      }
      claimed.add(key);
      accepted.push({
        ruleId: timeOrderedUuid(now),
        ruleName: input.ruleName,
        nameKey: key,
        categoryId: '',
        active: true,
        allowSimGen: null,
        effectBegin: null,
        effectEnd: null,
        questions: input.questions,
        answer: input.answer,
        createdAt: now,
      });
    });
    failInfo.sort((a, b) => a.index - b.index);
    const added = await ctx.store.rules.insert(robot, accepted, now, actor);
    // The interface: `active` is null in import results.
    const succeed = await mapInSlices(added, (rule): RuleListItem => ({
      ...toRuleListItem(rule),
      active: null,
    }));
    return { change: { added }, result: { failInfo, succeed } };
  });
}

function nameOf(item: unknown): string {
  const name = (item as { ruleName?: unknown } | null)?.ruleName;
  return typeof name === 'string' ? name : '';
}

export function ruleNotFound(robot: Robot, ruleId: string): ServiceError {
  return new ServiceError(
    'rule-not-found',
    `Rule ${ruleId} does not exist in robot ${robot.robotId}.`,
  );
}

/** A rule of the robot, or the contract's 404. */
export async function requireRule(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
): Promise<StoredRule> {
  const rule = await ctx.store.rules.find(robot, ruleId);
  if (!rule) throw ruleNotFound(robot, ruleId);
  return rule;
}

export async function getRule(
  ctx: DomainContext,
  robot: Robot,
  ruleId: string,
): Promise<RuleDetail> {
  return toRuleDetail(await requireRule(ctx, robot, ruleId));
}

/**
 * The robot's rule order, built from the store on first use. Built in the robot's write queue,
 * so that no write falls between reading the positions and keeping the order in step.
 */
async function ruleOrderOf(ctx: DomainContext, robot: Robot): Promise<RuleOrder> {
  const key = robotKey(robot);
  const known = ctx.orders.get(key);
  if (known) return known;
  return ctx.writes.run(key, async () => {
    const built = ctx.orders.get(key) ?? new RuleOrder(await ctx.store.rules.seqs(robot));
    ctx.orders.set(key, built);
    return built;
  });
}

/**
 * A page of the robot's rules in creation order: the rule order in memory names the page's
 * first position, and the page is read from there along the (tenant, robot, seq) index, so the
 * last page costs what the first does. The rules read must be exactly the ones the order names;
 * if they are not (a write that forgot to keep the order in step), the order is rebuilt from the
 * store and the page read again.
 */
export async function listRules(
  ctx: DomainContext,
  robot: Robot,
  page: number,
  pageSize: number,
): Promise<RuleList> {
  let order = await ruleOrderOf(ctx, robot);
  let rules = await readPage(ctx, robot, order, page, pageSize);
  if (rules === null) {
    ctx.logger.error(`the rule order of robot ${robotKey(robot)} was stale; rebuilt`);
    ctx.orders.set(robotKey(robot), undefined);
    order = await ruleOrderOf(ctx, robot);
    rules = (await readPage(ctx, robot, order, page, pageSize)) ?? [];
  }
  return { list: rules.map(toRuleListItem), totalCount: order.size };
}

/** The rules of one page, or null when they are not the ones `order` names. */
async function readPage(
  ctx: DomainContext,
  robot: Robot,
  order: RuleOrder,
  page: number,
  pageSize: number,
): Promise<StoredRule[] | null> {
  const start = page * pageSize;
  if (start >= order.size) return [];
  const seqs = order.slice(start, pageSize);
  const rules = await ctx.store.rules.pageFrom(robot, seqs[0] as number, seqs.length);
  if (rules.length !== seqs.length) return null;
  for (let i = 0; i < rules.length; i++) if (rules[i]?.seq !== seqs[i]) return null;
  return rules;
}
