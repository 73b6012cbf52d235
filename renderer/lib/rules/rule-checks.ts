/**
 * Live validation of a rule against the interface's limits, field by field, with the service's
 * schemas (the grid marks the cell; the import refuses the row before sending it).
 * @module
 */
import { effectiveWindowProblems } from '../../../electron/service/validation/effective-window';
import { CategoryNameBody } from '../../../electron/service/validation/console-schemas';
import { RuleInputSchema } from '../../../electron/service/validation/schemas';
import { compileCheck } from '../../api/field-check';
import type { FieldProblem } from '../../api/field-check';
import type { EditableRule, RuleField } from './grid-row';

const CHECKS = {
  ruleName: compileCheck(RuleInputSchema.properties.ruleName, 'ruleName'),
  questions: compileCheck(RuleInputSchema.properties.questions, 'questions'),
  answer: compileCheck(RuleInputSchema.properties.answer, 'answer'),
};

const categoryNameCheck = compileCheck(CategoryNameBody.properties.name, 'categoryName');

/** The problem of a category's name (a new one, or one in a spreadsheet), or null. */
export function checkCategoryName(name: string): FieldProblem | null {
  return categoryNameCheck(name);
}

export type RuleProblems = Partial<Record<RuleField, FieldProblem>>;

const cache = new WeakMap<EditableRule, RuleProblems>();

/** The problems of each field (none: `{}`); memoised per rule object. */
export function checkRule(rule: EditableRule): RuleProblems {
  const cached = cache.get(rule);
  if (cached) return cached;
  const problems: RuleProblems = {};
  for (const field of ['ruleName', 'questions', 'answer'] as const) {
    const problem = CHECKS[field](rule[field]);
    if (problem) problems[field] = problem;
  }
  for (const window of effectiveWindowProblems(rule.effectBeignDate, rule.effectEndDate)) {
    problems[window.field] = {
      field: window.field,
      message: window.message,
      keyword: window.keyword,
      params: window.keyword === 'date-order' ? { other: 'effectBeignDate' } : {},
    };
  }
  cache.set(rule, problems);
  return problems;
}

export function isValidRule(rule: EditableRule): boolean {
  return Object.keys(checkRule(rule)).length === 0;
}
