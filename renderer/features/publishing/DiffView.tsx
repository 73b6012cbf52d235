import type { RulesDiff } from '../../../electron/service/publishing-types';
import { useI18n } from '../../i18n/useI18n';

const show = (value: unknown): string =>
  Array.isArray(value) ? value.join(' | ') : value === null ? '—' : String(value);

/** Rules added, removed and changed field by field, with phrasings added and removed. */
export function DiffView({ diff, title }: { diff: RulesDiff; title: string }) {
  const { t } = useI18n();
  const empty = diff.added.length + diff.removed.length + diff.changed.length === 0;
  return (
    <section className="card" aria-label={title} data-testid="diff-view">
      <header className="card-header">
        <h2>{title}</h2>
        <span className="hint">
          {t('publishing.diffCounts', {
            added: diff.added.length,
            changed: diff.changed.length,
            removed: diff.removed.length,
          })}
        </span>
      </header>
      {empty ? <p className="hint">{t('publishing.diffEmpty')}</p> : null}
      <ul className="diff-list">
        {diff.added.map((rule) => (
          <li key={`a${rule.ruleId}`}>
            <span className="badge badge-added">{t('publishing.added')}</span> {rule.ruleName}
          </li>
        ))}
        {diff.removed.map((rule) => (
          <li key={`r${rule.ruleId}`}>
            <span className="badge badge-warn">{t('publishing.removed')}</span> {rule.ruleName}
          </li>
        ))}
        {diff.changed.map((rule) => (
          <li key={`c${rule.ruleId}`}>
            <span className="badge">{t('publishing.changed')}</span> {rule.ruleName}
            <table className="table diff-fields">
              <tbody>
                {rule.fields
                  .filter((change) => change.field !== 'questions')
                  .map((change) => (
                    <tr key={change.field}>
                      <th scope="row">{change.field}</th>
                      <td className="diff-from">{show(change.from)}</td>
                      <td className="diff-to">{show(change.to)}</td>
                    </tr>
                  ))}
                {rule.questionsAdded.map((q) => (
                  <tr key={`+${q}`}>
                    <th scope="row">{t('publishing.questionAdded')}</th>
                    <td />
                    <td className="diff-to">{q}</td>
                  </tr>
                ))}
                {rule.questionsRemoved.map((q) => (
                  <tr key={`-${q}`}>
                    <th scope="row">{t('publishing.questionRemoved')}</th>
                    <td className="diff-from">{q}</td>
                    <td />
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ul>
    </section>
  );
}
