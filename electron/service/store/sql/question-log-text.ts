/**
 * What a text filter of the question log matches, the same in both stores: an entry whose
 * question or user id holds the text as typed, in lower case, capitalised or in capitals. (A
 * fuller case folding would mean lowering every line read; these are the spellings people type
 * and search for, and the embedded store finds them with a byte search of its segment files.)
 * @module
 */
import type { LoggedQuestion } from '../../question-log-types';

/** The spellings of a text a filter looks for. */
export function textVariants(text: string): string[] {
  const lower = text.toLowerCase();
  const capital = lower.charAt(0).toUpperCase() + lower.slice(1);
  return [...new Set([text, lower, capital, text.toUpperCase()])].filter((v) => v.length > 0);
}

/** Whether the entry's question or user id holds one of the spellings. */
export function holdsText(entry: LoggedQuestion, variants: readonly string[]): boolean {
  return variants.some(
    (variant) => entry.question.includes(variant) || entry.userId.includes(variant),
  );
}
