import type { TryResult } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';

export function TryResultView({
  question,
  result,
  onOpenRule,
}: {
  question: string;
  result: TryResult;
  onOpenRule: (ruleId: string) => void;
}) {
  const { t, formatNumber } = useI18n();
  const { result: answer } = result;
  const score = (value: number) => formatNumber(value, { maximumFractionDigits: 4 });
  return (
    <div className="try-result" data-testid="try-result">
      <p className="try-asked" data-testid="try-asked">
        {t('try.asked')} <q>{question}</q>
      </p>
      <p className={`decision decision-${result.decision}`}>
        {t(`try.decision.${result.decision}`)}
      </p>
      <dl className="try-fields">
        <dt>answerType</dt>
        <dd>
          <code data-testid="try-answer-type">{answer.answerType}</code>
        </dd>
        <dt>answer</dt>
        <dd className="try-answer" data-testid="try-answer">
          {answer.answer}
        </dd>
        <dt>score</dt>
        <dd>{score(answer.score)}</dd>
        <dt>module</dt>
        <dd>
          <code>{answer.module}</code>
        </dd>
        <dt>items</dt>
        <dd>
          {answer.items === null ? (
            <code>null</code>
          ) : (
            <ol className="try-items">
              {answer.items.map((item) => (
                <li key={item.ruleId}>
                  {item.question} <span className="muted">({score(item.score)})</span>
                </li>
              ))}
            </ol>
          )}
        </dd>
      </dl>
      <details className="try-json">
        <summary>{t('try.rawJson')}</summary>
        <pre>{JSON.stringify(answer, null, 2)}</pre>
      </details>
      <h3>{t('try.candidates')}</h3>
      {result.candidates.length === 0 ? (
        <p className="hint">{t('try.noCandidates')}</p>
      ) : (
        <ol className="candidates" aria-label={t('try.candidates')}>
          {result.candidates.map((candidate) => (
            <li key={candidate.ruleId}>
              <button
                type="button"
                className="candidate"
                onClick={() => onOpenRule(candidate.ruleId)}
                title={t('try.openRule')}
              >
                <span className="candidate-top">
                  <span className="candidate-name">{candidate.ruleName}</span>
                  <span className="candidate-score">{score(candidate.score)}</span>
                </span>
                <span className="candidate-question">
                  {t('try.matched')} <q>{candidate.question}</q>
                </span>
                <span className="candidate-parts">
                  {Object.entries(candidate.parts)
                    .map(([name, value]) => `${name} ${score(value)}`)
                    .join(' · ')}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
