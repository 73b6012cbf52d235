/**
 * Figures computed from the log: hits per rule (with last hit and hits per day), rules often
 * recommended together, and the dashboard's questions per day and top questions.
 * @module
 */
import { normalizeText } from '../matching/normalize';
import type {
  Dashboard,
  DashboardDay,
  LoggedQuestion,
  RuleAnalytics,
  RuleHits,
} from '../question-log-types';
import { isMissed } from './inbox';

const DAY_MS = 86_400_000;
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
/** A rule of the knowledge base answered: matched (BESTMATCH or MENU), chosen, or a menu entry. */
const answered = (entry: LoggedQuestion) => entry.module === 'KB' && entry.ruleId !== null;
/** A reply to a menu ("2"): an answered ask, but no question worth listing among the top ones. */
const isMenuReply = (entry: LoggedQuestion) => entry.menuEntry !== null;

/** Hits per rule of the openapi's questions (the try pane's are the editor's own tests). */
export class RuleHitCounter {
  readonly hits = new Map<string, RuleHits>();

  private of(ruleId: string): RuleHits {
    let hits = this.hits.get(ruleId);
    if (!hits) {
      hits = { ruleId, hits: 0, chosen: 0, fromMenu: 0, recommended: 0, lastHit: null };
      this.hits.set(ruleId, hits);
    }
    return hits;
  }

  add(entry: LoggedQuestion): void {
    if (entry.source !== 'api') return;
    if (answered(entry) && entry.ruleId !== null) {
      const hits = this.of(entry.ruleId);
      hits.hits += 1;
      if (entry.chosenFrom !== null) hits.chosen += 1;
      if (isMenuReply(entry)) hits.fromMenu += 1;
      hits.lastHit = Math.max(hits.lastHit ?? 0, entry.at);
    }
    for (const ruleId of entry.recommended) this.of(ruleId).recommended += 1;
  }
}

export interface RuleFacts {
  ruleId: string;
  ruleName: string;
  effectEnd: string | null;
}

/** How many confusable pairs are reported. */
const PAIRS_MAX = 50;
const HITS_BY_DAY_RULES = 20;

export function ruleAnalytics(
  entries: readonly LoggedQuestion[],
  rules: readonly RuleFacts[],
  now: number,
): RuleAnalytics {
  const counter = new RuleHitCounter();
  const pairs = new Map<string, number>();
  const byDay = new Map<string, Map<string, number>>();
  for (const entry of entries) {
    counter.add(entry);
    if (entry.source !== 'api') continue;
    if (answered(entry) && entry.ruleId !== null) {
      const days = byDay.get(entry.ruleId) ?? new Map<string, number>();
      const day = dayOf(entry.at);
      days.set(day, (days.get(day) ?? 0) + 1);
      byDay.set(entry.ruleId, days);
    }
    const items = entry.recommended;
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const [a, b] = [items[i] as string, items[j] as string].sort();
        const key = `${a}\u0000${b}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }
  const known = new Set(rules.map((rule) => rule.ruleId));
  const soon = now + 30 * DAY_MS;
  const rows = rules.map((rule) => ({
    ...(counter.hits.get(rule.ruleId) ?? {
      ruleId: rule.ruleId,
      hits: 0,
      chosen: 0,
      fromMenu: 0,
      recommended: 0,
      lastHit: null,
    }),
    ruleName: rule.ruleName,
    effectEnd: rule.effectEnd,
  }));
  const top = [...rows]
    .filter((row) => row.hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .slice(0, HITS_BY_DAY_RULES);
  return {
    rules: rows,
    neverHit: rows.filter((row) => row.hits === 0).map((row) => row.ruleId),
    confusable: [...pairs]
      .map(([key, count]) => {
        const [a = '', b = ''] = key.split('\u0000');
        return { a, b, count };
      })
      .filter((pair) => known.has(pair.a) && known.has(pair.b))
      .sort((x, y) => y.count - x.count)
      .slice(0, PAIRS_MAX),
    expiring: rules
      .filter((rule) => {
        if (rule.effectEnd === null) return false;
        const end = Date.parse(rule.effectEnd);
        return end >= now && end <= soon;
      })
      .map((rule) => ({ ruleId: rule.ruleId, effectEnd: rule.effectEnd as string })),
    hitsByDay: top.map((row) => ({
      ruleId: row.ruleId,
      days: [...(byDay.get(row.ruleId) ?? [])]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([day, hits]) => ({ day, hits })),
    })),
  };
}

const TOP_MAX = 20;

/** The most frequent questions (by normalised text, shown as typed most often). */
function topQuestions(entries: readonly LoggedQuestion[]): { question: string; count: number }[] {
  const byKey = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const entry of entries) {
    const key = normalizeText(entry.question);
    const known = byKey.get(key) ?? { count: 0, spellings: new Map<string, number>() };
    known.count += 1;
    known.spellings.set(entry.question, (known.spellings.get(entry.question) ?? 0) + 1);
    byKey.set(key, known);
  }
  return [...byKey.values()]
    .sort((a, b) => b.count - a.count)
    .slice(0, TOP_MAX)
    .map(({ count, spellings }) => ({
      question: [...spellings].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
      count,
    }));
}

/** The last `days` UTC days up to `now`, every day listed (zeros included). */
export function dashboard(
  entries: readonly LoggedQuestion[],
  days: number,
  now: number,
  lowScore: number,
): Dashboard {
  const api = entries.filter((entry) => entry.source === 'api');
  const perDay = new Map<string, DashboardDay>();
  for (let i = days - 1; i >= 0; i--) {
    const day = dayOf(now - i * DAY_MS);
    perDay.set(day, { day, total: 0, answered: 0, recommended: 0, fallback: 0 });
  }
  for (const entry of api) {
    const day = perDay.get(dayOf(entry.at));
    if (!day) continue;
    day.total += 1;
    if (entry.module === 'NONE') day.fallback += 1;
    else if (entry.answerType === 'RECOMMEND') day.recommended += 1;
    else day.answered += 1;
  }
  return {
    days: [...perDay.values()],
    topQuestions: topQuestions(api.filter((entry) => !isMenuReply(entry))),
    topMissed: topQuestions(api.filter((entry) => isMissed(entry, lowScore))),
  };
}
