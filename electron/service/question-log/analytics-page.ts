/**
 * A page of rule analytics (decision 118): the robot's rules of the page with their running
 * totals read by index (store/contract/question-log.ts `rulesOf`), the rules never hit and
 * expiring among them; the confusable pairs and the hits per day of the most hit rules as in the
 * whole reply (analytics.ts), from the figures' indexes, rules since deleted left out. Its cost
 * is the page's, neither the robot's size nor the log's.
 * @module
 */
import type { RuleAnalytics, RuleAnalyticsPage } from '../question-log-types';
import type { LogFigures, LogKey } from '../store/contract/question-log';
import { DAY_MS } from '../store/contract/question-log';
import type { RuleFacts } from '../store/contract/records';
import { HITS_BY_DAY_RULES, PAIRS_MAX, analyticsRow, dayName } from './analytics';

/** The rules of a page of analytics, and which rule ids still exist (deleted ones are left out). */
export interface AnalyticsPageInput {
  rules: readonly RuleFacts[];
  total: number;
  existing: (ruleIds: readonly string[]) => Promise<ReadonlySet<string>>;
}

export async function ruleAnalyticsPage(
  figures: LogFigures,
  log: LogKey,
  page: AnalyticsPageInput,
  now: number,
): Promise<RuleAnalyticsPage> {
  const ids = page.rules.map((rule) => rule.ruleId);
  const hits = new Map((await figures.rulesOf(log, ids)).map((row) => [row.ruleId, row]));
  const rows: RuleAnalytics['rules'] = page.rules.map((rule) =>
    analyticsRow(rule, hits.get(rule.ruleId)),
  );
  // More are read than shown: rules since deleted are left out.
  const most = await figures.mostHit(log, HITS_BY_DAY_RULES * 4);
  const pairs = await figures.pairs(log, PAIRS_MAX * 4);
  const known = await page.existing([
    ...new Set([...most.map((row) => row.ruleId), ...pairs.flatMap((pair) => [pair.a, pair.b])]),
  ]);
  const top = most.filter((row) => known.has(row.ruleId)).slice(0, HITS_BY_DAY_RULES);
  const days = await figures.ruleDays(
    log,
    top.map((row) => row.ruleId),
  );
  const soon = now + 30 * DAY_MS;
  return {
    rules: rows,
    neverHit: rows.filter((row) => row.hits === 0).map((row) => row.ruleId),
    confusable: pairs.filter((pair) => known.has(pair.a) && known.has(pair.b)).slice(0, PAIRS_MAX),
    expiring: page.rules.flatMap((rule) => {
      if (rule.effectEnd === null) return [];
      const end = Date.parse(rule.effectEnd);
      return end >= now && end <= soon ? [{ ruleId: rule.ruleId, effectEnd: rule.effectEnd }] : [];
    }),
    hitsByDay: top.map((row) => ({
      ruleId: row.ruleId,
      days: days
        .filter((day) => day.ruleId === row.ruleId)
        .map((day) => ({ day: dayName(day.day), hits: day.hits })),
    })),
    total: page.total,
  };
}
