/**
 * What to do about a case that failed, from its row of the run: teach the expected rule the
 * question (add it as a phrasing), open that rule in the grid, take what the robot answered as
 * the new expectation, or change the expectation by hand (the case's form).
 * @module
 */
import { useState } from 'react';
import type { CaseResult, TestCaseInput } from '../../../electron/service/publishing-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { samePhrasing } from '../../lib/rules/phrasing';
import { LIMITS } from '../../../electron/service/limits';
import { acceptedCase } from './case-form';

export interface FailedCaseActionsProps {
  client: ConsoleClient;
  robotRef: RobotRef;
  result: CaseResult;
  /** The expected rule's name (null: none expected, or deleted since). */
  expectedName: string | null;
  /** Changes the case (its id is the result's). */
  onUpdate: (input: TestCaseInput) => Promise<void>;
  /** Opens the case's form in the list of cases. */
  onEdit: () => void;
  /** Shows a rule in the robot's grid. */
  onOpenRule: (ruleId: string) => void;
}

export function FailedCaseActions(props: FailedCaseActionsProps) {
  const { t } = useI18n();
  const { client, robotRef, result, expectedName } = props;
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const expected = result.ruleId !== null && expectedName !== null ? result.ruleId : null;

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      setNote(await work());
    } catch (error) {
      setNote(describeError(t, error));
    } finally {
      setBusy(false);
    }
  };

  const teach = (ruleId: string, ruleName: string) =>
    act(async () => {
      const rule = await client.rule(robotRef, ruleId);
      if (rule.questions.some((q) => samePhrasing(q, result.question)))
        return t('tests.fix.present', { rule: ruleName });
      if (rule.questions.length >= LIMITS.questionsMax)
        return t('tests.fix.full', { rule: ruleName, max: LIMITS.questionsMax });
      await client.patchRule(robotRef, ruleId, {
        questions: [...rule.questions, result.question.trim()],
      });
      return t('tests.fix.added', { rule: ruleName });
    });

  const accept = () =>
    act(async () => {
      await props.onUpdate(acceptedCase(result));
      return t('tests.fix.accepted');
    });

  return (
    <div className="case-actions" role="group" aria-label={t('tests.fix.title')}>
      {expected && expectedName ? (
        <>
          <button
            type="button"
            className="link-button"
            disabled={busy}
            onClick={() => void teach(expected, expectedName)}
          >
            {t('tests.fix.teach', { rule: expectedName })}
          </button>
          <button type="button" className="link-button" onClick={() => props.onOpenRule(expected)}>
            {t('tests.fix.open', { rule: expectedName })}
          </button>
        </>
      ) : null}
      <button type="button" className="link-button" disabled={busy} onClick={() => void accept()}>
        {t('tests.fix.accept')}
      </button>
      <button type="button" className="link-button" onClick={props.onEdit}>
        {t('tests.fix.edit')}
      </button>
      {note ? (
        <span className="hint" role="status">
          {note}
        </span>
      ) : null}
    </div>
  );
}
