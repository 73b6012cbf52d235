/**
 * A test case as its form holds it (question, expectation, the rule picked or typed), the case
 * it sends, and the field a refusal belongs to: a rule that does not exist is said at the rule's
 * field, in words that say what to do, not as a failure of the whole form.
 * @module
 */
import type {
  CaseResult,
  TestCaseInput,
  TestCaseView,
  TestExpectation,
} from '../../../electron/service/publishing-types';
import { problemOfError } from '../../i18n/server-problem';
import { describeProblem } from '../../i18n/describe-problem';
import type { Translate } from '../../i18n/types';

/** The rule field: the text typed, and the rule picked (null until one is). */
export interface RuleChoice {
  text: string;
  rule: { ruleId: string; ruleName: string } | null;
}

export const NO_RULE: RuleChoice = { text: '', rule: null };

export interface CaseDraft {
  question: string;
  expect: TestExpectation;
  rule: RuleChoice;
}

export const EMPTY_CASE: CaseDraft = { question: '', expect: 'rule', rule: NO_RULE };

/** The fields of the form a problem is said at; `form`: none of them. */
export type CaseField = 'question' | 'rule' | 'form';
export type CaseErrors = Partial<Record<CaseField, string>>;

export function draftOfCase(view: TestCaseView): CaseDraft {
  const rule =
    view.ruleId !== null && view.ruleName !== null
      ? { text: view.ruleName, rule: { ruleId: view.ruleId, ruleName: view.ruleName } }
      : NO_RULE;
  return { question: view.question, expect: view.expect, rule };
}

/** The case to send, or the problems to say first (nothing is sent then). */
export function caseInputOf(
  t: Translate,
  draft: CaseDraft,
): { input: TestCaseInput } | { errors: CaseErrors } {
  const question = draft.question.trim();
  if (question === '') return { errors: { question: t('tests.needQuestion') } };
  if (draft.expect === 'fallback') return { input: { question, expect: 'fallback' } };
  const { rule, text } = draft.rule;
  if (rule) return { input: { question, expect: draft.expect, ruleId: rule.ruleId } };
  if (text.trim() === '') return { errors: { rule: t('tests.pickRule') } };
  return { input: { question, expect: draft.expect, ruleName: text.trim() } };
}

/** A refusal of the service, said at the field it is about. */
export function caseErrorsOf(t: Translate, error: unknown, draft: CaseDraft): CaseErrors {
  const problem = problemOfError(error);
  const field = problem.field ?? '';
  if (/(ruleName|ruleId)$/.test(field)) {
    return problem.keyword === 'rule-not-found' && draft.rule.rule === null
      ? { rule: t('tests.noSuchRule', { name: draft.rule.text.trim() }) }
      : problem.keyword === 'rule-not-found'
        ? { rule: t('tests.ruleDeleted') }
        : { rule: describeProblem(t, { ...problem, field: 'ruleName' }) };
  }
  if (/question$/.test(field))
    return { question: describeProblem(t, { ...problem, field: 'question' }) };
  return { form: describeProblem(t, problem) };
}

/** What a failed case got, as the case that would expect it (“accept the new answer”). */
export function acceptedCase(result: CaseResult): TestCaseInput {
  const [ruleId] = result.got.ruleIds;
  if (result.got.kind === 'bestmatch' && ruleId)
    return { question: result.question, expect: 'rule', ruleId };
  if (result.got.kind === 'recommend' && ruleId)
    return { question: result.question, expect: 'recommend', ruleId };
  return { question: result.question, expect: 'fallback' };
}
