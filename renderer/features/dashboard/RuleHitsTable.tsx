import { useMemo, useState } from 'react';
import type { RuleAnalytics } from '../../../electron/service/question-log-types';
import { useI18n } from '../../i18n/useI18n';

type SortKey = 'hits' | 'lastHit' | 'recommended';
const SHOWN = 50;

/** Hits, choices, recommendations and last hit of the robot's rules, sortable, 50 at a time. */
export function RuleHitsTable({ analytics }: { analytics: RuleAnalytics }) {
  const { t, formatTime, formatNumber } = useI18n();
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'hits',
    descending: true,
  });
  const rows = useMemo(() => {
    const value = (row: RuleAnalytics['rules'][number]) => row[sort.key] ?? -1;
    return [...analytics.rules]
      .sort((a, b) => (sort.descending ? value(b) - value(a) : value(a) - value(b)))
      .slice(0, SHOWN);
  }, [analytics, sort]);
  const header = (key: SortKey, label: string) => {
    const active = sort.key === key;
    return (
      <th aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
        <button
          type="button"
          className="link-button"
          onClick={() => setSort({ key, descending: active ? !sort.descending : true })}
        >
          {label}
          {active ? (sort.descending ? ' ▼' : ' ▲') : ''}
        </button>
      </th>
    );
  };
  return (
    <div className="qlog-scroll">
      <table className="report-table qlog-table rule-hits" data-testid="rule-hits">
        <thead>
          <tr>
            <th>{t('dashboard.rule')}</th>
            {header('hits', t('dashboard.hits'))}
            {header('recommended', t('dashboard.timesRecommended'))}
            {header('lastHit', t('dashboard.lastHit'))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.ruleId}>
              <td>
                {/* One line, cut with an ellipsis, never mid-word: the whole name on hover. */}
                <span className="rule-hits-name" title={row.ruleName}>
                  {row.ruleName}
                </span>
              </td>
              <td>
                {formatNumber(row.hits)}
                {row.chosen > 0 ? (
                  <span className="muted"> ({t('dashboard.chosen', { count: row.chosen })})</span>
                ) : null}
                {row.fromMenu > 0 ? (
                  <span className="muted">
                    {' '}
                    ({t('dashboard.fromMenu', { count: row.fromMenu })})
                  </span>
                ) : null}
              </td>
              <td>{formatNumber(row.recommended)}</td>
              <td>{row.lastHit === null ? '—' : formatTime(row.lastHit)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
