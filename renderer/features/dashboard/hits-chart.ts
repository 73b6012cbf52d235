import type { ChartConfiguration } from 'chart.js';
import type { Dashboard, RuleAnalytics } from '../../../electron/service/question-log-types';

/** Rules drawn in the hits-over-time chart (the most hit first). */
const RULES_DRAWN = 5;
const PALETTE = ['#1565c0', '#2e7d32', '#6a1b9a', '#ef6c00', '#00838f'];

/**
 * Hits per day of the most hit rules, over the dashboard's days (a day without hits is 0);
 * null when no rule was hit.
 */
export function hitsOverTime(
  board: Dashboard,
  analytics: RuleAnalytics,
  names: ReadonlyMap<string, string>,
): ChartConfiguration | null {
  const drawn = analytics.hitsByDay.slice(0, RULES_DRAWN);
  if (drawn.length === 0) return null;
  return {
    type: 'line',
    data: {
      labels: board.days.map((day) => day.day.slice(5)),
      datasets: drawn.map((rule, i) => {
        const byDay = new Map(rule.days.map((day) => [day.day, day.hits]));
        const color = PALETTE[i % PALETTE.length] ?? '#1565c0';
        return {
          label: names.get(rule.ruleId) ?? rule.ruleId,
          data: board.days.map((day) => byDay.get(day.day) ?? 0),
          borderColor: color,
          backgroundColor: color,
        };
      }),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  };
}
