import { useCallback, useEffect, useState } from 'react';
import type {
  ConsoleRobot,
  ConsoleRule,
  ConsoleTenant,
} from '../../../electron/service/console-types';
import type { InboxGroup } from '../../../electron/service/question-log-types';
import { EmptyState } from '../../components/EmptyState';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { NewRuleForm } from './NewRuleForm';
import { RulePicker } from './RulePicker';
import { TestCaseForm } from './TestCaseForm';
import type { TestExpectationChoice } from './TestCaseForm';

/**
 * Missed questions, grouped: add them to the suggested rule in one click, to another rule,
 * start a new rule from them, keep them as test cases, or dismiss them (docs/question-log.md).
 */
export function InboxPage({ tenant, robot }: { tenant: ConsoleTenant; robot: ConsoleRobot }) {
  const { t } = useI18n();
  const { client, reload } = useWorkspace();
  const toasts = useToasts();
  const ref = { tenantId: tenant.tenantId, robotId: robot.robotId };
  const [groups, setGroups] = useState<InboxGroup[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // In review mode an addition waits in the draft: the message says when it is answered.
  const inReview = robot.settings.publishMode === 'review';

  const load = useCallback(
    () =>
      client.inbox({ tenantId: tenant.tenantId, robotId: robot.robotId }).then(
        ({ groups: next }) => {
          setGroups(next);
          setError(null);
        },
        (failure: unknown) => setError(describeError(t, failure)),
      ),
    [client, tenant.tenantId, robot.robotId, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (run: () => Promise<string>) => {
    try {
      toasts.show(await run());
      await load();
    } catch (failure) {
      toasts.show(describeError(t, failure), { tone: 'error' });
    }
  };

  const addTo = (group: InboxGroup, ruleId: string, ruleName: string) =>
    act(async () => {
      const questions = group.examples.map((example) => example.question);
      const result = await client.inboxAddPhrasings(ref, group.key, ruleId, questions);
      if (result.notFitting.length > 0) {
        return t('inbox.notFitting', { rule: ruleName, questions: result.notFitting.join(' / ') });
      }
      const added = { count: result.added.length, rule: ruleName };
      return inReview ? t('inbox.addedForReview', added) : t('inbox.added', added);
    });

  const markAsTests = (group: InboxGroup, choice: TestExpectationChoice) =>
    act(async () => {
      const result = await client.inboxTestCases(ref, {
        key: group.key,
        questions: group.examples.map((example) => example.question),
        ...(choice.expect === 'rule'
          ? { expect: 'rule', ruleId: choice.ruleId }
          : { expect: 'fallback' }),
      });
      return result.caseIds.length === 0
        ? t('inbox.testsPresent')
        : t('inbox.testsAdded', { count: result.caseIds.length });
    });

  return (
    <div className="page inbox-page" data-testid="inbox-page">
      <header className="page-header">
        <div>
          <h1>
            {t('inbox.title')} <span className="view-header-meta">{robot.name}</span>
          </h1>
          <p className="page-subtitle">{t('inbox.intro')}</p>
        </div>
        <button type="button" className="button" onClick={() => void load()}>
          {t('inbox.refresh')}
        </button>
      </header>
      {error ? <p className="error-message">{error}</p> : null}
      {groups === null ? (
        <p className="muted">{t('common.loading')}</p>
      ) : groups.length === 0 ? (
        <EmptyState title={t('inbox.emptyTitle')}>{t('inbox.empty')}</EmptyState>
      ) : (
        <ol className="inbox-list">
          {groups.map((group) => (
            <InboxCard
              key={group.key}
              group={group}
              robotRef={ref}
              onAdd={(ruleId, ruleName) => void addTo(group, ruleId, ruleName)}
              onNewRule={(ruleName, answer) =>
                void act(async () => {
                  await client.inboxNewRule(ref, {
                    key: group.key,
                    ruleName,
                    answer,
                    questions: group.examples.map((example) => example.question).slice(0, 10),
                  });
                  void reload();
                  return inReview
                    ? t('inbox.ruleCreatedForReview', { rule: ruleName })
                    : t('inbox.ruleCreated', { rule: ruleName });
                })
              }
              onTestCase={(choice) => void markAsTests(group, choice)}
              onDismiss={() =>
                void act(async () => {
                  await client.inboxDismiss(ref, [group.key]);
                  return t('inbox.dismissed');
                })
              }
            />
          ))}
        </ol>
      )}
    </div>
  );
}

function InboxCard({
  group,
  robotRef,
  onAdd,
  onNewRule,
  onTestCase,
  onDismiss,
}: {
  group: InboxGroup;
  robotRef: { tenantId: number; robotId: string };
  onAdd: (ruleId: string, ruleName: string) => void;
  onNewRule: (ruleName: string, answer: string) => void;
  onTestCase: (choice: TestExpectationChoice) => void;
  onDismiss: () => void;
}) {
  const { t, formatTime } = useI18n();
  const [mode, setMode] = useState<'none' | 'pick' | 'new' | 'test'>('none');
  const first = group.examples[0]?.question ?? group.key;
  return (
    <li className="card inbox-card" data-testid="inbox-group">
      <header className="inbox-card-header">
        <span className="badge inbox-count" title={t('inbox.occurrences')}>
          ×{group.count}
        </span>
        <h2 className="inbox-question">{first}</h2>
        <span className="muted inbox-last">{formatTime(group.lastAt)}</span>
      </header>
      <ul className="inbox-examples">
        {group.examples.map((example) => (
          <li key={example.question}>
            {example.question} <span className="muted">×{example.count}</span>
          </li>
        ))}
      </ul>
      <p className="muted inbox-outcomes">
        {t('inbox.outcomes', {
          fallback: group.outcomes.fallback,
          recommended: group.outcomes.recommended,
          lowScore: group.outcomes.lowScore,
        })}
      </p>
      {group.chosen.length > 0 ? (
        <p className="inbox-chosen">
          {group.chosen.map((choice) => (
            <span key={choice.ruleId} className="badge badge-new">
              {t('inbox.chosen', { rule: choice.ruleName, count: choice.count })}
            </span>
          ))}
        </p>
      ) : null}
      <div className="button-row inbox-actions">
        {group.suggestedRuleId !== null && group.suggestedRuleName !== null ? (
          <button
            type="button"
            className="button button-primary"
            onClick={() => onAdd(group.suggestedRuleId ?? '', group.suggestedRuleName ?? '')}
          >
            {t('inbox.addTo', { rule: group.suggestedRuleName })}
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          onClick={() => setMode(mode === 'pick' ? 'none' : 'pick')}
        >
          {t('inbox.addToOther')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => setMode(mode === 'new' ? 'none' : 'new')}
        >
          {t('inbox.newRule')}
        </button>
        <button
          type="button"
          className="button"
          aria-expanded={mode === 'test'}
          onClick={() => setMode(mode === 'test' ? 'none' : 'test')}
        >
          {t('inbox.markTest')}
        </button>
        <button type="button" className="button" onClick={onDismiss}>
          {t('inbox.dismiss')}
        </button>
      </div>
      {mode === 'pick' ? (
        <RulePicker
          robotRef={robotRef}
          initial={first}
          onPick={(rule: ConsoleRule) => {
            setMode('none');
            onAdd(rule.ruleId, rule.ruleName);
          }}
        />
      ) : null}
      {mode === 'test' ? (
        <TestCaseForm
          robotRef={robotRef}
          initial={first}
          suggested={
            group.suggestedRuleId !== null && group.suggestedRuleName !== null
              ? { ruleId: group.suggestedRuleId, ruleName: group.suggestedRuleName }
              : null
          }
          onChoose={(choice) => {
            setMode('none');
            onTestCase(choice);
          }}
        />
      ) : null}
      {mode === 'new' ? (
        <NewRuleForm
          initialName={first}
          onSubmit={(ruleName, answer) => {
            setMode('none');
            onNewRule(ruleName, answer);
          }}
        />
      ) : null}
    </li>
  );
}
