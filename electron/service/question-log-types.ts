/**
 * The question log as the console API speaks it (docs/question-log.md): logged questions, the
 * inbox of missed questions, rule analytics and the dashboard; and the layout of its export,
 * shared by the service's CSV and the editor's .xlsx. Routes (`R` =
 * /console/api/tenants/:tenantId/robots/:robotId):
 *   GET  R/question-log?from&to&before&offset&limit&q&outcome&source&ruleId&userId
 *                                                → QuestionLogPage (newest first; `before`: a
 *                                                  page's `next`, to page back to the oldest)
 *   GET  R/question-log/export.csv?from&to       → text/csv, streamed (the editor builds .xlsx
 *                                                  itself, from pages)
 *   POST R/question-log/clear                    → { removed }
 *   GET  R/inbox?limit                           → { groups: InboxGroup[] }
 *   POST R/inbox/add-phrasings                   InboxAddPhrasings → InboxAddResult
 *   POST R/inbox/new-rule                        InboxNewRule → { ruleId }
 *   POST R/inbox/test-cases                      InboxTestCases → InboxTestCasesResult
 *   POST R/inbox/dismiss                         { keys } → { dismissed }
 *   GET  R/rule-hits                             → { rules: RuleHits[] }
 *   GET  R/analytics?offset&limit                → RuleAnalytics (every rule of the robot;
 *                                                  with `limit`, a page of them in creation
 *                                                  order and `total`: RuleAnalyticsPage)
 *   GET  R/dashboard?days                        → Dashboard
 * Request bodies are their schemas' types (validation/question-log-schemas.ts).
 * @module
 */
import type { Static } from '@sinclair/typebox';
import type {
  InboxAddPhrasingsBody,
  InboxNewRuleBody,
  InboxTestCasesBody,
} from './validation/question-log-schemas';

/** Where a question came from: the openapi ask route, or the editor's try pane. */
export type QuestionSource = 'api' | 'try';

/** One logged question. Times are ms since the epoch. */
export interface LoggedQuestion {
  at: number;
  userId: string;
  channel: string;
  question: string;
  /** The answer's `answerType` (BESTMATCH, RECOMMEND, or a later kind such as MENU). */
  answerType: string;
  /** The answer's `module`: KB, or NONE for the fallback. */
  module: string;
  score: number;
  /** The rule that answered (BESTMATCH from the knowledge base), else null. */
  ruleId: string | null;
  /** The rules recommended (RECOMMEND), in the order given; empty otherwise. */
  recommended: string[];
  /**
   * The published version that answered (review mode, or the try pane's published edition);
   * null when the draft answered (live mode, the try pane's draft).
   */
  version: number | null;
  source: QuestionSource;
  /**
   * Click feedback: this question is one of the items a RECOMMEND offered the same user a
   * moment before; that earlier question, else null.
   */
  chosenFrom: string | null;
  /**
   * A menu follow-up: the number of the menu entry this reply chose (the rule answered is the
   * entry's), else null. Absent from lines written before menus were logged.
   */
  menuEntry: number | null;
  /**
   * A RECOMMEND: the score of its second item (0 with a single item), so that the inbox can tell
   * a clear first item from a close call. Absent on other lines and on older ones.
   */
  runnerUp?: number;
}

/** Entries the log could not write (a full disk, a read-only folder, an I/O error). */
export interface LostQuestions {
  count: number;
  /** First and last loss since the service started (ms). */
  since: number;
  until: number;
}

export interface QuestionLogPage {
  entries: LoggedQuestion[];
  /** Entries matching the filter; null when counting them would mean reading the whole log. */
  total: number | null;
  /** Pass as `before` for the next (older) page; null once the oldest entry is shown. */
  next: string | null;
  /** Entries of this robot the log could not write since the service started, or null. */
  lost: LostQuestions | null;
  /**
   * Entries of this robot recorded and not yet written and synced when the page was answered
   * (about a second's worth at most): 0 once every entry recorded before the page is durable
   * (or, failing, counted in `lost`). What a test waits for before it kills the service.
   */
  unwritten: number;
  /**
   * With a text filter (`q`): how far the search got. A search reads a bounded number of entries
   * per page, so a page may hold fewer entries than asked with a `next` that continues it: the
   * editor says "searched `entries` of `of`" and offers to continue.
   */
  searched?: { entries: number; of: number };
}

/** A choice made from a RECOMMEND: the rule picked, how often. */
export interface InboxChoice {
  ruleId: string;
  ruleName: string;
  count: number;
}

/** Similar missed questions, most frequent first. */
export interface InboxGroup {
  /** Stable id of the group: the normalised text of the question that started it. */
  key: string;
  /** Occurrences in the log (every question of the group). */
  count: number;
  /** Distinct questions of the group, most frequent first (at most 10, as first typed), with their counts. */
  examples: { question: string; count: number }[];
  /** Latest occurrence (ms). */
  lastAt: number;
  /** Outcomes seen in the group. */
  outcomes: { fallback: number; recommended: number; lowScore: number };
  /** Rules users chose after a RECOMMEND of this group's questions: the strongest evidence. */
  chosen: InboxChoice[];
  /**
   * The rule to add the questions to, when the evidence supports one: the rule users chose most,
   * else the rule the matcher's ranking clearly put first for at least half of the occurrences;
   * else null.
   */
  suggestedRuleId: string | null;
  suggestedRuleName: string | null;
}

/** `key`: the group handled (leaves the inbox); `questions`: in order of preference. */
export type InboxAddPhrasings = Static<typeof InboxAddPhrasingsBody>;

export interface InboxAddResult {
  ruleId: string;
  /** Questions added as phrasings. */
  added: string[];
  /** Questions the rule had already (same text once normalised). */
  present: string[];
  /** Questions that did not fit: the rule has its 10 phrasings. */
  notFitting: string[];
}

export type InboxNewRule = Static<typeof InboxNewRuleBody>;

/**
 * Mark a group as test cases of the robot's test set (docs/publishing.md): its questions must get
 * the rule `ruleId` (BESTMATCH; `ruleId` is then required), or the fallback.
 */
export type InboxTestCases = Static<typeof InboxTestCasesBody>;

export interface InboxTestCasesResult {
  /** Ids of the cases added, in the order of the questions. */
  caseIds: number[];
  /** Questions the test set had already (same text once normalised): not added again. */
  present: string[];
}

export interface RuleHits {
  ruleId: string;
  /** Answered (BESTMATCH or MENU), choices from a recommendation and menu replies included. */
  hits: number;
  /** Of which chosen from a RECOMMEND. */
  chosen: number;
  /** Of which replies choosing the rule's entry in a menu (menu follow-ups). */
  fromMenu: number;
  /** Times recommended. */
  recommended: number;
  lastHit: number | null;
}

export interface RuleAnalytics {
  /** Every rule of the robot with its figures over the log kept (retention). */
  rules: (RuleHits & { ruleName: string; effectEnd: string | null })[];
  /** Rules never answered in the log kept. */
  neverHit: string[];
  /** Pairs of rules often recommended together: likely to be confused. */
  confusable: { a: string; b: string; count: number }[];
  /** Rules whose effective window ends in the next 30 days. */
  expiring: { ruleId: string; effectEnd: string }[];
  /** Hits per day (UTC `YYYY-MM-DD`) of the 20 most hit rules. */
  hitsByDay: { ruleId: string; days: { day: string; hits: number }[] }[];
}

/**
 * A page of rule analytics: `rules`, `neverHit` and `expiring` are of the page's rules; the
 * confusable pairs and the hits per day of the most hit rules are the robot's, as unpaged.
 */
export interface RuleAnalyticsPage extends RuleAnalytics {
  /** The robot's rules (of every page). */
  total: number;
}

/** Questions of a day (or an hour) by outcome; `answered` includes small talk and menu replies. */
export interface DashboardCounts {
  total: number;
  answered: number;
  recommended: number;
  fallback: number;
  /** Of `answered`: small talk, and replies choosing a menu entry. */
  chat: number;
  menu: number;
}

export interface DashboardDay extends DashboardCounts {
  day: string;
}

export interface Dashboard {
  days: DashboardDay[];
  /** The current UTC day, hour by hour (0–23, every hour listed). */
  hours: (DashboardCounts & { hour: number })[];
  topQuestions: { question: string; count: number }[];
  /** Questions that got the fallback or a RECOMMEND (an answer, however low its score, is none). */
  topMissed: { question: string; count: number }[];
}

/** Columns of the log's export (CSV and .xlsx), and each entry's cells in that order. */
export const CSV_COLUMNS = [
  'time',
  'userId',
  'channel',
  'source',
  'question',
  'answerType',
  'module',
  'score',
  'ruleId',
  'recommended',
  'version',
  'chosenFrom',
  'menuEntry',
] as const;

/** A row's cells, in the order of `CSV_COLUMNS` (the editor's .xlsx uses the same). */
export function rowOf(entry: LoggedQuestion): (string | number)[] {
  return [
    new Date(entry.at).toISOString(),
    entry.userId,
    entry.channel,
    entry.source,
    entry.question,
    entry.answerType,
    entry.module,
    entry.score,
    entry.ruleId ?? '',
    entry.recommended.join(' '),
    entry.version ?? '',
    entry.chosenFrom ?? '',
    entry.menuEntry ?? '',
  ];
}

const FORMULA = /^[=+\-@\t\r]/;

function cell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The log as CSV (RFC 4180, UTF-8 with a byte-order mark so that Excel reads Chinese right).
 * Cells that a spreadsheet would run as a formula are prefixed with an apostrophe.
 */
export function toCsv(entries: readonly LoggedQuestion[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const entry of entries) lines.push(csvRow(entry));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/** One entry as a CSV line (without its line break): the export streams these. */
export function csvRow(entry: LoggedQuestion): string {
  return rowOf(entry).map(cell).join(',');
}
