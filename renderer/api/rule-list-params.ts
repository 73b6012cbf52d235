/**
 * The rules list's query string (`GET …/rules?…`).
 * @module
 */
import type { RuleQuery } from '../../electron/service/console-types';

/**
 * An empty search is left out, but an empty `category` is a filter of its own (the rules
 * without a category) and is sent as `category=`.
 */
export function ruleListParams(query: RuleQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || (value === '' && key !== 'category')) continue;
    params.set(key, String(value));
  }
  return params.toString();
}
