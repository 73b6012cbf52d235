/**
 * Rule analytics and the dashboard, from the figures kept (never from the raw log): hits per rule
 * with last hit and hits per day, rules often recommended together, questions per day (and per
 * hour of the current day) by outcome, the top questions and the top missed ones.
 * @module
 */
import type { Dashboard, DashboardCounts, RuleAnalytics } from '../question-log-types';
import type {
  HourRow,
  LogFigures,
  LogKey,
  RuleRow,
  TextCount,
} from '../store/contract/question-log';
import { DAY_MS, OUTCOMES } from '../store/contract/question-log';
import type { RuleFacts } from '../store/contract/records';

export const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export type { RuleFacts };

/** How many confusable pairs are reported. */
export const PAIRS_MAX = 50;
export const HITS_BY_DAY_RULES = 20;
const TOP_MAX = 20;
/** Rules made into rows per turn of the event loop. */
const ROWS_SLICE = 2000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A rule's line of analytics: its figures (0 and null if never hit) beside its name. */
export function analyticsRow(
  rule: Pick<RuleFacts, 'ruleId' | 'ruleName' | 'effectEnd'>,
  row: RuleRow | undefined,
): RuleAnalytics['rules'][number] {
  return {
    ruleId: rule.ruleId,
    hits: row?.hits ?? 0,
    chosen: row?.chosen ?? 0,
    fromMenu: row?.fromMenu ?? 0,
    recommended: row?.recommended ?? 0,
    lastHit: row?.lastHit ?? null,
    ruleName: rule.ruleName,
    effectEnd: rule.effectEnd,
  };
}

export async function ruleAnalytics(
  figures: LogFigures,
  log: LogKey,
  rules: readonly RuleFacts[],
  now: number,
): Promise<RuleAnalytics> {
  const hits = new Map((await figures.rules(log)).map((row) => [row.ruleId, row]));
  const known = new Set<string>();
  const soon = now + 30 * DAY_MS;
  // A row a rule, a slice of rules a turn: a robot of 100k rules never holds asks meanwhile.
  const rows: RuleAnalytics['rules'] = [];
  for (let i = 0; i < rules.length; i += ROWS_SLICE) {
    if (i > 0) await nextTurn();
    for (const rule of rules.slice(i, i + ROWS_SLICE)) {
      known.add(rule.ruleId);
      rows.push(analyticsRow(rule, hits.get(rule.ruleId)));
    }
  }
  // The most hit rules are among those hit (usually far fewer than the robot's rules).
  const top = [...hits.values()]
    .filter((row) => row.hits > 0 && known.has(row.ruleId))
    .sort((a, b) => b.hits - a.hits || (a.ruleId < b.ruleId ? -1 : 1))
    .slice(0, HITS_BY_DAY_RULES);
  const days = await figures.ruleDays(
    log,
    top.map((row) => row.ruleId),
  );
  // Pairs of rules since deleted are left out: more are read than shown.
  const pairs = (await figures.pairs(log, PAIRS_MAX * 4))
    .filter((pair) => known.has(pair.a) && known.has(pair.b))
    .slice(0, PAIRS_MAX);
  return {
    rules: rows,
    neverHit: rows.filter((row) => row.hits === 0).map((row) => row.ruleId),
    confusable: pairs,
    expiring: rules
      .filter((rule) => {
        if (rule.effectEnd === null) return false;
        const end = Date.parse(rule.effectEnd);
        return end >= now && end <= soon;
      })
      .map((rule) => ({ ruleId: rule.ruleId, effectEnd: rule.effectEnd as string })),
    hitsByDay: top.map((row) => ({
      ruleId: row.ruleId,
      days: days
        .filter((day) => day.ruleId === row.ruleId)
        .map((day) => ({ day: dayName(day.day), hits: day.hits })),
    })),
  };
}

const zero = (): DashboardCounts => ({
  total: 0,
  answered: 0,
  recommended: 0,
  fallback: 0,
  chat: 0,
  menu: 0,
});

/** Adds counts (in the order of OUTCOMES) to a day's or an hour's figures. */
function addCounts(into: DashboardCounts, counts: readonly number[]): void {
  OUTCOMES.forEach((outcome, i) => {
    const count = counts[i] ?? 0;
    into.total += count;
    // Small talk and menu replies are answers too; they are also counted apart.
    if (outcome === 'chat' || outcome === 'menu') {
      into.answered += count;
      into[outcome] += count;
    } else into[outcome] += count;
  });
}

const asQuestions = (rows: readonly TextCount[]) =>
  rows.map((row) => ({ question: row.text, count: row.count }));

/** The last `days` UTC days up to `now`, every day listed (zeros included). */
export async function dashboard(
  figures: LogFigures,
  log: LogKey,
  days: number,
  now: number,
): Promise<Dashboard> {
  const today = Math.floor(now / DAY_MS);
  const first = today - days + 1;
  const perDay = new Map<number, DashboardCounts & { day: string }>();
  for (let day = first; day <= today; day++) perDay.set(day, { day: dayName(day), ...zero() });
  const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, ...zero() }));
  const rows: HourRow[] = await figures.hours(log, first, today);
  for (const row of rows) {
    const day = perDay.get(row.day);
    if (day) addCounts(day, row.counts);
    const hour = hours[row.hour];
    if (row.day === today && hour) addCounts(hour, row.counts);
  }
  return {
    days: [...perDay.values()],
    hours,
    topQuestions: asQuestions(await figures.top(log, first, today, false, TOP_MAX)),
    topMissed: asQuestions(await figures.top(log, first, today, true, TOP_MAX)),
  };
}
