/**
 * Live validation of a rule against the interface's limits, field by field, with the service's
 * schemas (the grid marks the cell; the import refuses the row before sending it).
 * @module
 */
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../../../electron/service/limits';
import { RuleInputSchema } from '../../../electron/service/validation/schemas';
import { compileCheck } from '../../api/field-check';
import type { FieldProblem } from '../../api/field-check';
import type { EditableRule, RuleField } from './grid-row';

const CHECKS = {
  ruleName: compileCheck(RuleInputSchema.properties.ruleName, 'ruleName'),
  questions: compileCheck(RuleInputSchema.properties.questions, 'questions'),
  answer: compileCheck(RuleInputSchema.properties.answer, 'answer'),
  ruleCategoryId: compileCheck(Type.String({ maxLength: LIMITS.categoryMax }), 'ruleCategoryId'),
};

export type RuleProblems = Partial<Record<RuleField, FieldProblem>>;

const ISO_WITH_OFFSET =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function checkDate(value: string | null, field: RuleField): FieldProblem | null {
  if (value === null || (ISO_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value)))) {
    return null;
  }
  return { field, message: `${field} is not a valid date.`, keyword: 'date', params: {} };
}

const cache = new WeakMap<EditableRule, RuleProblems>();

/** The problems of each field (none: `{}`); memoised per rule object. */
export function checkRule(rule: EditableRule): RuleProblems {
  const cached = cache.get(rule);
  if (cached) return cached;
  const problems: RuleProblems = {};
  for (const field of ['ruleName', 'questions', 'answer', 'ruleCategoryId'] as const) {
    const problem = CHECKS[field](rule[field]);
    if (problem) problems[field] = problem;
  }
  const begin = checkDate(rule.effectBeignDate, 'effectBeignDate');
  const end = checkDate(rule.effectEndDate, 'effectEndDate');
  if (begin) problems.effectBeignDate = begin;
  if (end) problems.effectEndDate = end;
  if (
    !begin &&
    !end &&
    rule.effectBeignDate &&
    rule.effectEndDate &&
    Date.parse(rule.effectBeignDate) > Date.parse(rule.effectEndDate)
  ) {
    problems.effectEndDate = {
      field: 'effectEndDate',
      message: 'effectEndDate must not be before effectBeignDate.',
      keyword: 'date-order',
      params: { other: 'effectBeignDate' },
    };
  }
  cache.set(rule, problems);
  return problems;
}

export function isValidRule(rule: EditableRule): boolean {
  return Object.keys(checkRule(rule)).length === 0;
}
