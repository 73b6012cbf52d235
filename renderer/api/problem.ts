/**
 * A problem to tell the user about, in a form that can be said in any language: what is wrong
 * (an Ajv keyword, a check of the editor, or a service error code) and the field it is about.
 * Sentences are made from it only when shown (describe-problem.ts), so a change of language
 * changes them too.
 * @module
 */
export interface Problem {
  /** The field as the API names it (`ruleName`, `questions[2]`, `synonyms[0][1]`), if any. */
  field?: string | undefined;
  /**
   * An Ajv keyword (`minLength`, `pattern`…), a check of the editor (`date`, `date-order`,
   * `not-above`, `active`), or a service error code (`rule-name-taken`, `network-error`…).
   */
  keyword: string;
  /** Ajv's params (`limit`, `pattern`, `type`), or the check's (`other`, `value`, `name`). */
  params: Record<string, unknown>;
}
