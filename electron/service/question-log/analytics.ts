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
  LogFiguresJson,
  LogKey,
  RuleRow,
  TextCount,
} from '../store/contract/question-log';
import { DAY_MS, OUTCOMES } from '../store/contract/question-log';
import type { RobotKey, RuleFacts } from '../store/contract/records';

export const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export type { RuleFacts };

/** How many confusable pairs are reported. */
export const PAIRS_MAX = 50;
export const HITS_BY_DAY_RULES = 20;
const TOP_MAX = 20;
/** Rules made into rows per turn of the event loop (a few ms of work). */
const ROWS_SLICE = 2000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function forEachInCounts<T>(items: readonly T[], each: (item: T) => void): Promise<void> {
  for (let i = 0; i < items.length; i += ROWS_SLICE) {
    if (i > 0) await nextTurn();
    for (let j = i; j < Math.min(items.length, i + ROWS_SLICE); j++) each(items[j] as T);
  }
}

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

/** Whether `a` ranks before `b` among the most hit rules (ties in byte order of id). */
const hitBefore = (a: RuleRow, b: RuleRow) =>
  a.hits > b.hits || (a.hits === b.hits && a.ruleId < b.ruleId);

/** Keeps `top` the `max` best rows seen, best first, without sorting every rule hit. */
function keepBest(top: RuleRow[], row: RuleRow, max: number): void {
  const last = top[top.length - 1];
  if (top.length === max && last !== undefined && !hitBefore(row, last)) return;
  let at = top.length;
  while (at > 0 && hitBefore(row, top[at - 1] as RuleRow)) at--;
  top.splice(at, 0, row);
  if (top.length > max) top.pop();
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
  const rows: RuleAnalytics['rules'] = [];
  const neverHit: string[] = [];
  const expiring: RuleAnalytics['expiring'] = [];
  const top: RuleRow[] = [];
  // Every per-rule step in one pass, ROWS_SLICE rules a turn: 100k rules never hold the asks
  // meanwhile (decision 154). Slices of a millisecond took a turn each on a loaded machine and
  // shared them with the service's other batch work: 2.3x the wall time of 10k rules.
  await forEachInCounts(rules, (rule) => {
    known.add(rule.ruleId);
    const hit = hits.get(rule.ruleId);
    const row = analyticsRow(rule, hit);
    rows.push(row);
    if (row.hits === 0) neverHit.push(rule.ruleId);
    else if (hit) keepBest(top, hit, HITS_BY_DAY_RULES);
    if (rule.effectEnd !== null) {
      const end = Date.parse(rule.effectEnd);
      if (end >= now && end <= soon)
        expiring.push({ ruleId: rule.ruleId, effectEnd: rule.effectEnd });
    }
  });
  return {
    rules: rows,
    neverHit,
    confusable: await confusable(figures, log, (ruleId) => known.has(ruleId)),
    expiring,
    hitsByDay: await hitsByDay(
      figures,
      log,
      top.map((row) => row.ruleId),
    ),
  };
}

/** Hits per day of these rules (the most hit), in their order. */
async function hitsByDay(
  figures: LogFigures,
  log: LogKey,
  ruleIds: readonly string[],
): Promise<RuleAnalytics['hitsByDay']> {
  const days = await figures.ruleDays(log, ruleIds);
  return ruleIds.map((ruleId) => ({
    ruleId,
    days: days
      .filter((day) => day.ruleId === ruleId)
      .map((day) => ({ day: dayName(day.day), hits: day.hits })),
  }));
}

/** The pairs most recommended together, those with a rule since deleted left out. */
async function confusable(
  figures: LogFigures,
  log: LogKey,
  known: (ruleId: string) => boolean,
): Promise<RuleAnalytics['confusable']> {
  // More are read than shown, for those left out.
  return (await figures.pairs(log, PAIRS_MAX * 4))
    .filter((pair) => known(pair.a) && known(pair.b))
    .slice(0, PAIRS_MAX);
}

/**
 * Whole rule analytics as the JSON text of `ruleAnalytics`' answer (same bytes), its two long
 * lists serialised by the store (decision 162): the node never holds 10k rules' objects.
 */
export async function ruleAnalyticsJson(
  figures: LogFigures,
  json: LogFiguresJson,
  log: LogKey,
  robot: RobotKey,
  now: number,
): Promise<string> {
  const slices = await json.analytics(log, robot, HITS_BY_DAY_RULES);
  const soon = now + 30 * DAY_MS;
  const expiring = slices.ending.filter(({ effectEnd }) => {
    const end = Date.parse(effectEnd);
    return end >= now && end <= soon;
  });
  const pairs = await figures.pairs(log, PAIRS_MAX * 4);
  const known = await json.known(
    robot,
    pairs.flatMap((pair) => [pair.a, pair.b]),
  );
  const fields: [keyof RuleAnalytics, string][] = [
    ['rules', `[${slices.rules.join(',')}]`],
    ['neverHit', `[${slices.neverHit.join(',')}]`],
    ['confusable', JSON.stringify(await confusable(figures, log, (ruleId) => known.has(ruleId)))],
    ['expiring', JSON.stringify(expiring)],
    [
      'hitsByDay',
      JSON.stringify(
        await hitsByDay(
          figures,
          log,
          slices.mostHit.map((row) => row.ruleId),
        ),
      ),
    ],
  ];
  return `{${fields.map(([key, value]) => `"${key}":${value}`).join(',')}}`;
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
