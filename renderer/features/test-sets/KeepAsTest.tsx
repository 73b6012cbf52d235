import { useState } from 'react';
import type { TryResult } from '../../../electron/service/console-types';
import type { TestCaseInput } from '../../../electron/service/publishing-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { publishingClient } from '../../api/publishing-client';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

/** A question asked in the try pane and the answer it got (the try pane's outcome has more). */
export interface TriedQuestion {
  question: string;
  answer: TryResult;
}

/** The answer the try pane shows, as a test case: this question must keep getting it. */
export function caseOf(outcome: TriedQuestion): TestCaseInput {
  const { answer, question } = outcome;
  const first = answer.candidates[0];
  if (answer.decision === 'bestmatch' && first) {
    return { question, expect: 'rule', ruleId: first.ruleId };
  }
  const item = answer.result.items?.[0];
  if (answer.decision === 'recommend' && item) {
    return { question, expect: 'recommend', ruleId: item.ruleId };
  }
  return { question, expect: 'fallback' };
}

/** "Keep this as a test", in one click from the try pane. */
export function KeepAsTest({
  client,
  robotRef,
  outcome,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  outcome: TriedQuestion;
}) {
  const { t } = useI18n();
  const [state, setState] = useState<{ question: string; message: string } | null>(null);
  const kept = state?.question === outcome.question;
  return (
    <div className="keep-as-test">
      <button
        type="button"
        className="button button-small"
        disabled={kept}
        onClick={() => {
          publishingClient(client, robotRef)
            .addCases([caseOf(outcome)])
            .then(
              () => setState({ question: outcome.question, message: t('tests.kept') }),
              (error: unknown) => setState({ question: '', message: describeError(t, error) }),
            );
        }}
      >
        {t('tests.keep')}
      </button>
      {state ? <span className="hint">{state.message}</span> : null}
    </div>
  );
}
