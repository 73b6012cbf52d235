import type { MenuItem } from '../../../electron/service/api-types';
import type { TryResult } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import { formatScore } from './format-score';
import type { SkippedRule } from './skipped-rules';

/** The answer as the customer would get it: the rule's answer, a list to pick from, or the fallback. */
export function TryVerdict({
  result,
  skipped,
  onChoose,
}: {
  result: TryResult;
  skipped: SkippedRule[];
  onChoose?: (number: number) => void;
}) {
  const { t, formatNumber } = useI18n();
  const { result: answer, decision } = result;
  const top = result.candidates[0];
  const score = formatScore(answer.score, formatNumber);
  const menu = answer.answerType === 'MENU' ? (answer.items as MenuItem[] | null) : null;
  return (
    <section className="try-verdict" aria-label={t('try.customerSees')} data-testid="try-verdict">
      <h3>{t('try.customerSees')}</h3>
      <div className={`try-bubble try-bubble-${decision}`} data-testid="try-answer">
        <p className="try-bubble-text">{answer.answer}</p>
        {decision === 'recommend' && answer.items ? (
          <ol className="try-suggestions" aria-label={t('try.suggestions')}>
            {answer.items.map((item) => (
              <li key={item.ruleId}>{item.question}</li>
            ))}
          </ol>
        ) : null}
        {menu ? (
          <ol className="try-menu" aria-label={t('try.menu')} data-testid="try-menu">
            {menu.map((item) => (
              <li key={item.number}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onChoose?.(item.number)}
                  title={t('try.chooseEntry', { n: item.number })}
                >
                  {item.number}. {item.question}
                </button>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
      <p className={`try-why try-why-${decision}`} data-testid="try-why">
        {result.chosen
          ? t('try.chosen', { n: result.chosen.number, rule: top?.ruleName ?? '' })
          : result.smallTalk
            ? t('try.smallTalk', {
                intent: result.smallTalk.intent,
                question: result.smallTalk.question,
              })
            : decision === 'bestmatch' && top
              ? top.policy === 'contains'
                ? t('try.byKeyword', { rule: top.ruleName, keyword: top.keyword ?? '' })
                : top.policy === 'exact'
                  ? t('try.byExact', { rule: top.ruleName })
                  : t('try.answeredBy', { rule: top.ruleName, score })
              : decision === 'recommend'
                ? t('try.suggested')
                : t('try.fallback')}
        {menu ? ` ${t('try.menuNext')}` : ''}
      </p>
      {result.semantic ? <SemanticNote result={result} /> : null}
      {(result.excluded ?? []).map((rule) => (
        <p key={rule.ruleId} className="notice try-excluded" data-testid="try-excluded">
          {t('try.excluded', { rule: rule.ruleName, keyword: rule.keyword })}
        </p>
      ))}
      {skipped.map((rule) => (
        <SkippedNote key={rule.ruleId} rule={rule} />
      ))}
    </section>
  );
}

/** How the robot's embedding model took part: fused (with the nearest phrasing), or why not. */
function SemanticNote({ result }: { result: TryResult }) {
  const { t, formatNumber } = useI18n();
  const note = result.semantic;
  if (!note) return null;
  const nearest = result.candidates[0]?.nearest;
  const lexicalOnly =
    note.state === 'timeout' || note.state === 'failed' || note.state === 'dimension';
  return (
    <p
      className={`notice try-semantic${lexicalOnly ? ' notice-warn' : ''}`}
      data-testid="try-semantic"
      data-state={note.state}
    >
      {t(`try.semantic.${note.state}`, { model: note.model, ms: note.ms })}
      {nearest && note.state === 'fused'
        ? ` ${t('try.semantic.nearest', {
            question: nearest.question,
            cosine: formatNumber(nearest.cosine, { maximumFractionDigits: 2 }),
          })}`
        : ''}
    </p>
  );
}

function SkippedNote({ rule }: { rule: SkippedRule }) {
  const { t, formatDateTime } = useI18n();
  const params = { rule: rule.ruleName, date: formatDateTime(rule.date) };
  return (
    <p className="notice notice-warn try-skipped" data-testid="try-skipped">
      {rule.state === 'inactive'
        ? t('try.skipped.inactive', params)
        : rule.state === 'scheduled'
          ? t('try.skipped.scheduled', params)
          : t('try.skipped.expired', params)}
    </p>
  );
}
