import type { Problem } from '../../api/problem';
import { problemOfError } from '../../i18n/server-problem';
import { checkCategoryName } from '../../lib/rules/rule-checks';

/**
 * A problem with a category's name, named as the category (the service calls the field
 * `name`, which elsewhere is a robot's).
 */
export function categoryNameProblem(error: unknown): Problem {
  return { ...problemOfError(error), field: 'categoryName' };
}

/** The problem of a name typed for a category, before anything is sent; null if none. */
export function typedNameProblem(name: string): Problem | null {
  const problem = checkCategoryName(name);
  return problem ? { ...problem, field: 'categoryName' } : null;
}
