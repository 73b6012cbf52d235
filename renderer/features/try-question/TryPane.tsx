import type { CollisionCheck } from '../collisions/useCollisions';
import { useEffect, useState } from 'react';
import { LIMITS } from '../../../electron/service/limits';
import type { RobotRef } from '../../api/console-client';
import type { ConsoleClient } from '../../api/console-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError, describeProblem } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import type { PhrasingOutcome } from '../../lib/rules/phrasing';
import { asOfFromInput, AsOfPicker } from './AsOfPicker';
import { KeepAsTest } from '../test-sets/KeepAsTest';
import { PublishedAnswer } from '../test-sets/PublishedAnswer';
import { TryResultView } from './TryResultView';
import { useTryQuestion } from './useTryQuestion';

/** Ask a question as the API would be asked, and see the answer and why. */
export function TryPane({
  client,
  robotRef,
  onOpenRule,
  onAddPhrasing,
  onClose,
  collisions,
  initialQuestion,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  /** The robot's collision check: the answer's rule and candidates in one are said so. */
  collisions: CollisionCheck;
  onOpenRule: (ruleId: string) => void;
  onAddPhrasing: (ruleId: string, question: string) => Promise<PhrasingOutcome>;
  onClose: () => void;
  /** Asked as the pane opens (a link from another screen). */
  initialQuestion?: string;
}) {
  const { t } = useI18n();
  const [question, setQuestion] = useState(initialQuestion ?? '');
  /** "Ask as of a date": the datetime-local value, or null to ask now. */
  const [asOf, setAsOf] = useState<string | null>(null);
  const tryer = useTryQuestion(client, robotRef);
  const tooLong = Array.from(question).length > LIMITS.askQuestionMax;
  const asOfUnreadable = asOf !== null && asOfFromInput(asOf) === null;

  const submit = (text: string) => {
    if (text.trim() === '' || Array.from(text).length > LIMITS.askQuestionMax) return;
    if (asOfUnreadable) return;
    void tryer.ask(text, asOf === null ? null : asOfFromInput(asOf));
  };
  // A question a link brought is asked once, as the pane opens.
  useEffect(() => {
    if (initialQuestion) void tryer.ask(initialQuestion, null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialQuestion]);

  return (
    <aside className="try-pane" aria-label={t('try.title')} data-testid="try-pane">
      <header className="try-header">
        <h2>{t('try.title')}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('common.close')}
          onClick={onClose}
        >
          ×
        </button>
      </header>
      <form
        className="try-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit(question);
        }}
      >
        <input
          type="search"
          value={question}
          placeholder={t('try.placeholder')}
          aria-label={t('try.question')}
          aria-invalid={tooLong || undefined}
          onChange={(event) => setQuestion(event.target.value)}
          autoFocus
        />
        <button
          type="submit"
          className="button button-primary"
          disabled={tryer.busy || question.trim() === '' || tooLong || asOfUnreadable}
        >
          {t('try.ask')}
        </button>
      </form>
      <AsOfPicker value={asOf} onChange={setAsOf} />
      {tooLong ? (
        <p className="field-error">
          {describeProblem(t, {
            field: 'question',
            keyword: 'maxLength',
            params: { limit: LIMITS.askQuestionMax },
          })}
        </p>
      ) : null}
      {tryer.error ? <ErrorMessage>{describeError(t, tryer.error)}</ErrorMessage> : null}
      <div className="try-body">
        {tryer.turns.length > 1 ? (
          <section className="try-conversation" aria-label={t('try.conversation')}>
            <header>
              <h3>{t('try.conversation')}</h3>
              <button type="button" className="link-button" onClick={tryer.newConversation}>
                {t('try.newConversation')}
              </button>
            </header>
            <ol data-testid="try-turns">
              {tryer.turns.slice(0, -1).map((turn, i) => (
                <li key={i}>
                  <span className="try-turn-q">{turn.question}</span>
                  <span className="try-turn-a">{turn.answer}</span>
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        {tryer.result ? (
          <>
            <KeepAsTest client={client} robotRef={robotRef} outcome={tryer.result} />
            <PublishedAnswer
              client={client}
              robotRef={robotRef}
              question={tryer.result.question}
              draft={tryer.result.answer}
            />
          </>
        ) : null}
        {tryer.result ? (
          <TryResultView
            outcome={tryer.result}
            collisions={collisions}
            onChoose={(number) => {
              setQuestion(String(number));
              submit(String(number));
            }}
            onOpenRule={onOpenRule}
            onAddPhrasing={async (ruleId, text) => {
              const outcome = await onAddPhrasing(ruleId, text);
              // Asked again: the answer with the new phrasing.
              if (outcome.kind === 'added') void tryer.ask(text, tryer.result?.asOf ?? null);
              return outcome;
            }}
          />
        ) : (
          <p className="hint">{t('try.empty')}</p>
        )}
        {tryer.history.length > 0 ? (
          <section className="try-history" aria-label={t('try.history')}>
            <header>
              <h3>{t('try.history')}</h3>
              <button type="button" className="link-button" onClick={tryer.clearHistory}>
                {t('try.clearHistory')}
              </button>
            </header>
            <ul>
              {tryer.history.map((item) => (
                <li key={item}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      setQuestion(item);
                      submit(item);
                    }}
                  >
                    {item}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </aside>
  );
}
