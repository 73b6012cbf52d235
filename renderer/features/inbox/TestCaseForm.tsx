import type { ConsoleRule } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import { RulePicker } from './RulePicker';

/** What a group's test cases expect: the answer of a rule, or the fallback. */
export type TestExpectationChoice =
  { expect: 'rule'; ruleId: string; ruleName: string } | { expect: 'fallback' };

/**
 * Makes a group's questions test cases of the robot's test set: they must get the suggested
 * rule, another rule found like "add to another rule" finds it, or the fallback.
 */
export function TestCaseForm({
  robotRef,
  initial,
  suggested,
  onChoose,
}: {
  robotRef: { tenantId: number; robotId: string };
  initial: string;
  suggested: { ruleId: string; ruleName: string } | null;
  onChoose: (choice: TestExpectationChoice) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="inbox-test-case" role="group" aria-label={t('inbox.markTest')}>
      <p>{t('inbox.testIntro')}</p>
      <div className="button-row inbox-actions">
        {suggested ? (
          <button
            type="button"
            className="button button-primary"
            onClick={() => onChoose({ expect: 'rule', ...suggested })}
          >
            {t('inbox.expectRule', { rule: suggested.ruleName })}
          </button>
        ) : null}
        <button type="button" className="button" onClick={() => onChoose({ expect: 'fallback' })}>
          {t('inbox.expectFallback')}
        </button>
      </div>
      <p className="muted">{t('inbox.expectOther')}</p>
      <RulePicker
        robotRef={robotRef}
        initial={initial}
        onPick={(rule: ConsoleRule) =>
          onChoose({ expect: 'rule', ruleId: rule.ruleId, ruleName: rule.ruleName })
        }
      />
    </div>
  );
}
