import { useEffect, useMemo, useState } from 'react';
import type { ChartConfiguration } from 'chart.js';
import type { ConsoleRobot, ConsoleTenant } from '../../../electron/service/console-types';
import type { Dashboard, RuleAnalyticsPage } from '../../../electron/service/question-log-types';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { QuestionLogTable } from '../question-log/QuestionLogTable';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { ChartCanvas } from './Chart';
import { hitsOverTime } from './hits-chart';
import { RuleHitsTable } from './RuleHitsTable';

/** Never-hit rules named on the dashboard (the count says how many there are). */
const NEVER_HIT_NAMED = 10;
/**
 * Rules whose figures are asked at a time: a robot's rules are read a page at a time and more on
 * demand (every rule's at once cost a robot of 10,000 rules a second of the service's time).
 */
export const ANALYTICS_PAGE = 100;

const COLORS = {
  answered: '#2e7d32',
  recommended: '#f9a825',
  fallback: '#c62828',
  total: '#1565c0',
};

/** Questions per day by outcome, top questions and misses, rule figures, and the log itself. */
export function DashboardPage({ tenant, robot }: { tenant: ConsoleTenant; robot: ConsoleRobot }) {
  const { t, formatTime } = useI18n();
  const { client } = useWorkspace();
  const ref = useMemo(
    () => ({ tenantId: tenant.tenantId, robotId: robot.robotId }),
    [tenant.tenantId, robot.robotId],
  );
  const [board, setBoard] = useState<Dashboard | null>(null);
  const [analytics, setAnalytics] = useState<RuleAnalyticsPage | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    Promise.all([client.dashboard(ref, 30), client.analyticsPage(ref, 0, ANALYTICS_PAGE)]).then(
      ([nextBoard, nextAnalytics]) => {
        setBoard(nextBoard);
        setAnalytics(nextAnalytics);
      },
      (failure: unknown) => setError(describeError(t, failure)),
    );
  }, [client, ref, t]);

  /** The next page of rules, added to those shown (the robot's pairs and top hits kept). */
  const showMoreRules = () => {
    if (!analytics) return;
    setLoadingMore(true);
    client.analyticsPage(ref, analytics.rules.length, ANALYTICS_PAGE).then(
      (next) => {
        setAnalytics({
          ...analytics,
          rules: [...analytics.rules, ...next.rules],
          neverHit: [...analytics.neverHit, ...next.neverHit],
          expiring: [...analytics.expiring, ...next.expiring],
          total: next.total,
        });
        setLoadingMore(false);
      },
      (failure: unknown) => {
        setError(describeError(t, failure));
        setLoadingMore(false);
      },
    );
  };

  const perDay = useMemo<ChartConfiguration | null>(() => {
    if (!board) return null;
    const labels = board.days.map((day) => day.day.slice(5));
    const series = (key: 'answered' | 'recommended' | 'fallback') => ({
      label: t(`dashboard.${key}`),
      data: board.days.map((day) => day[key]),
      backgroundColor: COLORS[key],
      stack: 'questions',
    });
    return {
      type: 'bar',
      data: { labels, datasets: [series('answered'), series('recommended'), series('fallback')] },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
      },
    };
  }, [board, t]);

  const shares = useMemo<ChartConfiguration | null>(() => {
    if (!board) return null;
    const share = (key: 'answered' | 'recommended' | 'fallback') =>
      board.days.map((day) => (day.total === 0 ? null : Math.round((day[key] / day.total) * 100)));
    return {
      type: 'line',
      data: {
        labels: board.days.map((day) => day.day.slice(5)),
        datasets: (['answered', 'recommended', 'fallback'] as const).map((key) => ({
          label: t(`dashboard.${key}`),
          data: share(key),
          borderColor: COLORS[key],
          backgroundColor: COLORS[key],
          spanGaps: true,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { min: 0, max: 100, ticks: { callback: (value) => `${value}%` } } },
      },
    };
  }, [board, t]);

  const count = t('dashboard.count');
  const top = useMemo(
    () => (board ? topChart(board.topQuestions, COLORS.total, count) : null),
    [board, count],
  );
  const missed = useMemo(
    () => (board ? topChart(board.topMissed, COLORS.fallback, count) : null),
    [board, count],
  );

  const totals = board?.days.reduce(
    (sum, day) => ({
      total: sum.total + day.total,
      answered: sum.answered + day.answered,
      recommended: sum.recommended + day.recommended,
      fallback: sum.fallback + day.fallback,
    }),
    { total: 0, answered: 0, recommended: 0, fallback: 0 },
  );
  const names = useMemo(
    () => new Map(analytics?.rules.map((rule) => [rule.ruleId, rule.ruleName]) ?? []),
    [analytics],
  );
  const hits = useMemo(
    () => (board && analytics ? hitsOverTime(board, analytics, names) : null),
    [board, analytics, names],
  );
  const neverHit = analytics?.neverHit.slice(0, NEVER_HIT_NAMED).map((id) => names.get(id) ?? id);

  return (
    <div className="page dashboard-page" data-testid="dashboard-page">
      <header className="page-header">
        <div>
          <h1>
            {t('dashboard.title')} <span className="view-header-meta">{robot.name}</span>
          </h1>
          <p className="page-subtitle">{t('dashboard.intro')}</p>
        </div>
      </header>
      {error ? <p className="error-message">{error}</p> : null}
      {totals ? (
        <p className="dashboard-totals" data-testid="dashboard-totals">
          {t('dashboard.totals', totals)}
        </p>
      ) : null}
      <div className="dashboard-grid">
        {perDay ? (
          <section className="card dashboard-card">
            <h2>{t('dashboard.perDay')}</h2>
            <ChartCanvas config={perDay} label={t('dashboard.perDay')} />
          </section>
        ) : null}
        {shares ? (
          <section className="card dashboard-card">
            <h2>{t('dashboard.shares')}</h2>
            <ChartCanvas config={shares} label={t('dashboard.shares')} />
          </section>
        ) : null}
        {top ? (
          <section className="card dashboard-card">
            <h2>{t('dashboard.topQuestions')}</h2>
            <ChartCanvas config={top} label={t('dashboard.topQuestions')} />
          </section>
        ) : null}
        {missed ? (
          <section className="card dashboard-card">
            <h2>{t('dashboard.topMissed')}</h2>
            <ChartCanvas config={missed} label={t('dashboard.topMissed')} />
          </section>
        ) : null}
        {hits ? (
          <section className="card dashboard-card">
            <h2>{t('dashboard.hitsOverTime')}</h2>
            <ChartCanvas config={hits} label={t('dashboard.hitsOverTime')} />
          </section>
        ) : null}
      </div>
      {analytics ? (
        <section className="card dashboard-rules" data-testid="rule-analytics">
          <h2>{t('dashboard.rules')}</h2>
          <ul className="dashboard-facts">
            <li>
              {t('dashboard.neverHit', {
                count: analytics.neverHit.length,
                total: analytics.rules.length,
              })}
              {neverHit && neverHit.length > 0 ? (
                <span className="muted" data-testid="never-hit">
                  {' '}
                  {t('dashboard.neverHitNames', {
                    rules: `${neverHit.join(', ')}${analytics.neverHit.length > neverHit.length ? '…' : ''}`,
                  })}
                </span>
              ) : null}
            </li>
            {analytics.confusable.slice(0, 5).map((pair) => (
              <li key={`${pair.a}-${pair.b}`}>
                {t('dashboard.confusable', {
                  a: names.get(pair.a) ?? pair.a,
                  b: names.get(pair.b) ?? pair.b,
                  count: pair.count,
                })}
              </li>
            ))}
            {analytics.expiring.slice(0, 5).map((rule) => (
              <li key={rule.ruleId}>
                {t('dashboard.expiring', {
                  rule: names.get(rule.ruleId) ?? rule.ruleId,
                  end: formatTime(rule.effectEnd),
                })}
              </li>
            ))}
          </ul>
          <RuleHitsTable analytics={analytics} />
          <p className="muted" data-testid="rule-analytics-shown">
            {t('dashboard.rulesShown', { shown: analytics.rules.length, total: analytics.total })}{' '}
            {analytics.rules.length < analytics.total ? (
              <button
                type="button"
                className="link-button"
                onClick={showMoreRules}
                disabled={loadingMore}
                aria-busy={loadingMore}
              >
                {t('dashboard.moreRules')}
              </button>
            ) : null}
          </p>
        </section>
      ) : null}
      <QuestionLogTable robotRef={ref} robot={robot} />
    </div>
  );
}

/** A horizontal bar chart of the ten most asked questions. */
function topChart(
  rows: { question: string; count: number }[],
  color: string,
  label: string,
): ChartConfiguration {
  const shown = rows.slice(0, 10);
  return {
    type: 'bar',
    data: {
      labels: shown.map((row) =>
        row.question.length > 28 ? `${row.question.slice(0, 27)}…` : row.question,
      ),
      datasets: [{ label, data: shown.map((row) => row.count), backgroundColor: color }],
    },
    options: {
      animation: false,
      indexAxis: 'y',
      maintainAspectRatio: false,
      plugins: { legend: { display: false } },
      scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  };
}
