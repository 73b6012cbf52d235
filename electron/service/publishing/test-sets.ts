/**
 * A robot's test set: cases typed in the grid, kept from the try pane, or imported from a sheet
 * (parsed in the editor's worker, sent as JSON). A case names its rule by id, or by name (a
 * sheet's way); the rule must exist in the draft when the case is written.
 * @module
 */
import type { TestCaseInput, TestCaseView } from '../publishing-types';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { ruleNameKey } from '../domain/rules';
import { ServiceError } from '../errors';
import type { TestCaseContent, TestCaseRecord } from '../store/contract/test-sets';

async function contentOf(
  ctx: DomainContext,
  robot: Robot,
  input: TestCaseInput,
  field: string,
): Promise<TestCaseContent> {
  const question = input.question.trim();
  if (input.expect === 'fallback') return { question, expect: 'fallback', ruleId: null };
  let ruleId = input.ruleId ?? null;
  if (ruleId === null && input.ruleName !== undefined) {
    ruleId = (await ctx.store.rules.nameHolder(robot, ruleNameKey(input.ruleName))) ?? null;
    if (ruleId === null) {
      throw new ServiceError(
        'rule-not-found',
        `${field}: no rule is named "${input.ruleName.trim()}".`,
        `${field}.ruleName`,
      );
    }
  }
  if (ruleId === null) {
    throw new ServiceError(
      'missing-field',
      `${field}: a case expecting ${input.expect} names its rule (ruleId or ruleName).`,
      `${field}.ruleId`,
    );
  }
  if (!(await ctx.store.rules.find(robot, ruleId))) {
    throw new ServiceError(
      'rule-not-found',
      `${field}: rule ${ruleId} does not exist.`,
      `${field}.ruleId`,
    );
  }
  return { question, expect: input.expect, ruleId };
}

export async function listCases(ctx: DomainContext, robot: Robot): Promise<TestCaseView[]> {
  const cases = await ctx.store.testSets.cases(robot);
  const ids = [...new Set(cases.map((c) => c.ruleId).filter((id): id is string => id !== null))];
  const names = await ctx.store.rules.namesOf(ids);
  return cases.map((c) => ({
    ...c,
    ruleName: c.ruleId === null ? null : (names.get(c.ruleId) ?? null),
  }));
}

/** Adds cases, all or none: one bad case refuses the whole batch, naming it. */
export async function addCases(
  ctx: DomainContext,
  robot: Robot,
  inputs: readonly TestCaseInput[],
): Promise<TestCaseRecord[]> {
  const contents: TestCaseContent[] = [];
  for (const [i, input] of inputs.entries()) {
    contents.push(await contentOf(ctx, robot, input, `cases[${i}]`));
  }
  return ctx.store.testSets.add(robot, contents, ctx.now());
}

export async function updateCase(
  ctx: DomainContext,
  robot: Robot,
  caseId: number,
  input: TestCaseInput,
): Promise<TestCaseRecord> {
  const content = await contentOf(ctx, robot, input, 'case');
  const updated = await ctx.store.testSets.update(robot, caseId, content, ctx.now());
  if (!updated)
    throw new ServiceError('test-case-not-found', `Test case ${caseId} does not exist.`);
  return updated;
}

export async function removeCases(
  ctx: DomainContext,
  robot: Robot,
  caseIds: readonly number[],
): Promise<number> {
  return ctx.store.testSets.remove(robot, caseIds);
}
