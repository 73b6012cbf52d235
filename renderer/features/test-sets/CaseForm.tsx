/**
 * A test case's form, to add one or to change one: the question, what it must get, and the rule
 * (picked by name). Problems are said at their field.
 * @module
 */
import { useId, useState } from 'react';
import type { TestCaseInput, TestExpectation } from '../../../electron/service/publishing-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { describedBy, FieldMessage } from '../../components/FieldMessage';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useI18n } from '../../i18n/useI18n';
import { caseErrorsOf, caseInputOf } from './case-form';
import type { CaseDraft, CaseErrors } from './case-form';
import { RuleCombobox } from './RuleCombobox';

const EXPECTATIONS: TestExpectation[] = ['rule', 'recommend', 'fallback'];

export function CaseForm({
  client,
  robotRef,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  testId,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  initial: CaseDraft;
  submitLabel: string;
  /** Sends the case; a refusal is said in the form, which keeps what was typed. */
  onSubmit: (input: TestCaseInput) => Promise<void>;
  /** Editing: gives up (adding has no cancel). */
  onCancel?: () => void;
  testId: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<CaseErrors>({});
  const [busy, setBusy] = useState(false);

  // Functional updates: a send still under way must not bring back what was typed before it.
  const change = (next: Partial<CaseDraft>, field: keyof CaseErrors) => {
    setDraft((current) => ({ ...current, ...next }));
    setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));
  };

  const submit = async () => {
    const made = caseInputOf(t, draft);
    if ('errors' in made) {
      setErrors(made.errors);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(made.input);
      setErrors({});
      // Adding: the question sent is cleared, unless the next one was typed while it was sent.
      const sent = draft.question;
      if (!onCancel)
        setDraft((current) => (current.question === sent ? { ...current, question: '' } : current));
    } catch (error) {
      setErrors(caseErrorsOf(t, error, draft));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="case-form"
      data-testid={testId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="case-field case-question">
        <input
          aria-label={t('tests.question')}
          placeholder={t('tests.question')}
          value={draft.question}
          aria-invalid={errors.question ? true : undefined}
          aria-describedby={describedBy(`${id}-q`, errors.question)}
          onChange={(event) => change({ question: event.target.value }, 'question')}
        />
        <FieldMessage id={`${id}-q`} error={errors.question} />
      </div>
      <select
        aria-label={t('tests.expect')}
        value={draft.expect}
        onChange={(event) => change({ expect: event.target.value as TestExpectation }, 'rule')}
      >
        {EXPECTATIONS.map((e) => (
          <option key={e} value={e}>
            {t(`tests.expect.${e}`)}
          </option>
        ))}
      </select>
      {draft.expect === 'fallback' ? null : (
        <RuleCombobox
          client={client}
          robotRef={robotRef}
          value={draft.rule}
          onChange={(rule) => change({ rule }, 'rule')}
          error={errors.rule ?? null}
        />
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {submitLabel}
      </button>
      {onCancel ? (
        <button type="button" className="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      ) : null}
      {errors.form ? <ErrorMessage>{errors.form}</ErrorMessage> : null}
    </form>
  );
}
