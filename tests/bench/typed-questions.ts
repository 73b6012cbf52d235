/**
 * Questions a person might type, derived from a knowledge base's phrasings (for benchmarks).
 * @module
 */
import type { RuleInput } from '../../electron/service/api-types';

/** A phrasing with one word dropped or two characters swapped. */
export function typedVariant(phrasing: string, i: number): string {
  const words = phrasing.split(' ');
  if (words.length > 2) {
    words.splice(i % words.length, 1);
    return words.join(' ');
  }
  const chars = [...phrasing];
  const k = i % Math.max(1, chars.length - 1);
  [chars[k], chars[k + 1]] = [chars[k + 1] ?? '', chars[k] ?? ''];
  return chars.join('');
}

/**
 * Questions a person might type: a phrasing with one word dropped or two characters swapped.
 * Different `from` values give different questions (for warming up on other questions than
 * those measured).
 */
export function deriveQueries(rules: readonly RuleInput[], count: number, from = 0): string[] {
  const queries: string[] = [];
  for (let i = from; i < from + count; i++) {
    const rule = rules[(i * 7919) % rules.length] as RuleInput;
    const phrasing = rule.questions[i % rule.questions.length] ?? rule.ruleName;
    queries.push(typedVariant(phrasing, i));
  }
  return queries;
}
