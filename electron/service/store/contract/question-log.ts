/**
 * Where the question log is kept (docs/question-log.md): the raw log of every answered question,
 * read by index (time, outcome, rule, user id, text), and the figures kept as asks are recorded
 * (counts per day and hour, rule hits, confusable pairs, top questions, the inbox's groups), durable
 * with the entries they summarise. The embedded store writes segment files beside the database and
 * keeps the figures in memory with checkpoints (store/embedded/question-log/); a team server keeps
 * both in tables (store/postgres/question-log*.ts). Appends are buffered and durable within about
 * a second (`flush`); an entry and its figures are written together.
 * @module
 */
import type { LoggedQuestion } from '../../question-log-types';
import type { RobotKey } from './records';

/** A UTC day in ms. */
export const DAY_MS = 86_400_000;

/** A robot's log: `tenantId/robotId`. */
export type LogKey = string;

/**
 * What the inbox remembers of a question (by its normalised text): dismissed or handled at `at`,
 * or (`fallback`) made a test case that expects the fallback: its fallback answers are no miss
 * any more.
 */
export interface InboxMark {
  key: string;
  at: number;
  kind: 'dismissed' | 'handled' | 'fallback';
  /**
   * Review mode: the version published when the group was handled. The fix is in the draft
   * until it is published, so occurrences answered by this version or an older one still
   * predate it.
   */
  version?: number | null;
}

/** What the figures count an answer as, in this order wherever counts are listed. */
export const OUTCOMES = ['answered', 'recommended', 'fallback', 'chat', 'menu'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Why a question is in the inbox. */
export type MissKind = 'fallback' | 'recommended' | 'lowScore';

/** A UTC day as the figures number it: days since 1970-01-01. */
export type DayNumber = number;

/**
 * What one entry adds to its log's figures (question-log/entry-figures.ts makes it). A store applies
 * it with the entry, durable together. The try pane's questions add nothing (no figures).
 */
export interface EntryFigures {
  at: number;
  day: DayNumber;
  hour: number;
  outcome: Outcome;
  /** A rule of the knowledge base answered (a choice from a RECOMMEND or a menu reply included). */
  hit: { ruleId: string; chosen: boolean; fromMenu: boolean } | null;
  /** Rules a RECOMMEND listed. */
  recommended: readonly string[];
  /** The two rules a RECOMMEND listed first (in byte order): rules likely to be confused. */
  pair: readonly [string, string] | null;
  /** The question as the top questions count it (normalised) and as typed; null for menu replies. */
  question: { key: string; text: string } | null;
  /** A real miss (the fallback or a RECOMMEND): counted among the top missed questions. */
  missed: boolean;
  /**
   * In the inbox: the normalised question, its group, why, and the rule the matcher's own
   * ranking pointed to clearly (a low-score BESTMATCH's rule, or a RECOMMEND's first item well
   * ahead of the second), if any. Null when no miss, or hidden by the question's mark.
   */
  inbox: {
    key: string;
    group: string;
    text: string;
    kind: MissKind;
    evidence: string | null;
  } | null;
  /** A choice from a RECOMMEND: the normalised question that got it, its group, the rule chosen. */
  choice: { key: string; group: string; text: string; ruleId: string } | null;
}

/** An entry's outcome: the fallback, a RECOMMEND, small talk, a menu reply, else answered. */
export function outcomeOf(entry: LoggedQuestion): Outcome {
  if (entry.module === 'NONE') return 'fallback';
  if (entry.module === 'CHAT') return 'chat';
  if (entry.answerType === 'RECOMMEND') return 'recommended';
  return entry.menuEntry !== null ? 'menu' : 'answered';
}

/** The log's own outcomes as the API filters them: small talk and menu replies are answers. */
export function filterOutcome(outcome: Outcome): 'answered' | 'recommended' | 'fallback' {
  return outcome === 'recommended' || outcome === 'fallback' ? outcome : 'answered';
}

/** Which entries a read wants. Times are ms, `from` included, `to` excluded. */
export interface LogFilter {
  from: number;
  to: number;
  outcome?: 'answered' | 'recommended' | 'fallback';
  source?: 'api' | 'try';
  ruleId?: string;
  userId?: string;
  /** Part of the question or of the user id (letters in any case). */
  text?: string;
}

/** A page of the log, newest first. */
export interface PageRequest {
  filter: LogFilter;
  /** Entries older than this cursor (a page's `next`); null: from the newest. */
  before: string | null;
  /** Matching entries skipped first. */
  offset: number;
  limit: number;
}

export interface PageResult {
  entries: LoggedQuestion[];
  /** Entries matching the filter; null when only reading the whole log could count them. */
  total: number | null;
  /** The cursor of the next (older) page; null when this page reaches the oldest entry. */
  next: string | null;
  /** With a text filter: how far the search got (SearchProgress). */
  searched?: SearchProgress;
}

/**
 * How far a text search got: it reads a bounded number of entries per page (decision 97), so a
 * page may end with fewer entries than asked and a `next` that continues the search.
 */
export interface SearchProgress {
  /** Entries of the period searched read so far, newest first, this page's included. */
  entries: number;
  /** Entries of the period searched. */
  of: number;
}

/** Questions asked per hour of a day, by outcome (counts in the order of OUTCOMES). */
export interface HourRow {
  day: DayNumber;
  hour: number;
  counts: readonly number[];
}

/** A rule's figures over the days kept. */
export interface RuleRow {
  ruleId: string;
  hits: number;
  chosen: number;
  fromMenu: number;
  recommended: number;
  lastHit: number | null;
}

/** A question counted: its normalised text, as typed (first seen), how often. */
export interface TextCount {
  key: string;
  text: string;
  count: number;
}

/** An inbox group as the figures hold it (question-log/inbox.ts names rules and suggests one). */
/**
 * Rules listed per inbox group, most chosen (or most pointed to) first: a group's choices grow
 * with the log towards the robot's rules, and each is named for the editor (decision 130).
 */
export const INBOX_RULES_MAX = 10;

export interface InboxGroupRow {
  group: string;
  count: number;
  lastAt: number;
  outcomes: { fallback: number; recommended: number; lowScore: number };
  /** Rules users chose from the group's RECOMMEND lists, most chosen first (INBOX_RULES_MAX). */
  chosen: { ruleId: string; count: number }[];
  /** Rules the matcher's ranking pointed to clearly, most often first. */
  evidence: { ruleId: string; count: number }[];
  /** The group's questions, most frequent first (at most 10). */
  texts: TextCount[];
}

/** Lost entries of a log: appends its store could not write (a full disk, an I/O error). */
export interface LostEntries {
  count: number;
  /** First and last loss (ms). */
  since: number;
  until: number;
}

/** The figures of every log, as kept: reads answer from them, never from the raw log. */
/** The lists of whole rule analytics, serialised: each slice the items of a list, comma-joined. */
export interface AnalyticsSlices {
  rules: string[];
  neverHit: string[];
  /** The `limit` most hit rules of the robot, most first (ties in byte order of id). */
  mostHit: { ruleId: string; hits: number }[];
  /** The robot's rules with an end to their window, in creation order. */
  ending: { ruleId: string; effectEnd: string }[];
}

/**
 * The long lists of whole rule analytics made as JSON text by the store itself
 * (PostgreSQL, decision 162): the same bytes as `JSON.stringify` of what the reads of
 * `LogFigures` give, a slice of items at a time.
 */
export interface LogFiguresJson {
  /** Every rule of the robot with its totals, and those never hit, in creation order. */
  analytics(log: LogKey, robot: RobotKey, mostHit: number): Promise<AnalyticsSlices>;
  /** Those of these rule ids that are the robot's. */
  known(robot: RobotKey, ruleIds: readonly string[]): Promise<Set<string>>;
}

export interface LogFigures {
  /** Set by a store that serialises the long lists itself. */
  readonly json?: LogFiguresJson;
  /** Per hour of the days in [fromDay, toDay] that have questions. */
  hours(log: LogKey, fromDay: DayNumber, toDay: DayNumber): Promise<HourRow[]>;
  /** Every rule hit or recommended in the days kept. */
  rules(log: LogKey): Promise<RuleRow[]>;
  /** Those of these rules hit or recommended in the days kept (a page of rule analytics). */
  rulesOf(log: LogKey, ruleIds: readonly string[]): Promise<RuleRow[]>;
  /** The `limit` rules most hit in the days kept, most first (ties in byte order of id). */
  mostHit(log: LogKey, limit: number): Promise<RuleRow[]>;
  /** Hits per day of these rules. */
  ruleDays(
    log: LogKey,
    ruleIds: readonly string[],
  ): Promise<{ ruleId: string; day: DayNumber; hits: number }[]>;
  /** Pairs of rules most often listed first and second by a RECOMMEND. */
  pairs(log: LogKey, limit: number): Promise<{ a: string; b: string; count: number }[]>;
  /** The most asked questions of the days in [fromDay, toDay] (`missed`: real misses only). */
  top(
    log: LogKey,
    fromDay: DayNumber,
    toDay: DayNumber,
    missed: boolean,
    limit: number,
  ): Promise<TextCount[]>;
  /** The inbox's groups with occurrences, those with choices first, then by count. */
  inbox(log: LogKey, limit: number): Promise<InboxGroupRow[]>;
  /** Every normalised question of these groups. */
  groupTexts(log: LogKey, groups: readonly string[]): Promise<string[]>;
  /** Forgets the inbox figures of these questions: their occurrences so far are marked. */
  forget(log: LogKey, keys: readonly string[]): Promise<void>;
}

/** How a store counts again the entries its figures do not cover. */
export interface Replay {
  /** Questions already grouped (normalised text → group), told before the entries after them. */
  known(groups: ReadonlyMap<string, string>): void;
  figuresOf(entry: LoggedQuestion): EntryFigures | null;
}

export interface QuestionLogRepository {
  readonly figures: LogFigures;
  /**
   * Opens a log's figures (once; later calls wait for the first): the groups its figures know
   * are told to `replay.known`, and the entries they do not cover yet (after a crash, an
   * upgrade, or lost figures) are given to `replay.figuresOf` in order, oldest first, and what it
   * returns is counted. Entries are appended once the log is open.
   */
  open(log: LogKey, replay: Replay): Promise<void>;
  /** Buffers an entry and its figures (applied at once); durable at the next flush. */
  append(log: LogKey, entry: LoggedQuestion, figures: EntryFigures | null): void;
  /** Writes and syncs what is buffered. */
  flush(): Promise<void>;
  /**
   * Entries of the log appended and not yet written and synced (or lost). A store without it
   * has its log's page made durable by a flush first (the page's `unwritten` is then 0).
   */
  unwritten?(log: LogKey): number;
  /** A page of the log, newest first (unflushed entries included). */
  page(log: LogKey, request: PageRequest): Promise<PageResult>;
  /** The entries in [from, to), oldest first, a slice at a time. */
  slices(log: LogKey, from: number, to: number): AsyncIterable<LoggedQuestion[]>;
  /**
   * The CSV rows (`csvRow`, no header) of the entries in [from, to), oldest first, as bytes made
   * apart from the event loop, where the store can (the embedded one: a worker thread).
   */
  csvRows?(log: LogKey, from: number, to: number): AsyncIterable<Uint8Array>;
  /** Deletes every entry of the log and its figures; returns how many entries there were. */
  clear(log: LogKey): Promise<number>;
  /**
   * Drops the entries and figures of days before the day of `keepFrom`, then, while the log is
   * over `maxBytes`, its oldest entries (the figures stay); returns how many entries went.
   */
  enforceRetention(log: LogKey, keepFrom: number, maxBytes: number): Promise<number>;
  /** Bytes the log's entries take (what `maxBytes` bounds). */
  size(log: LogKey): Promise<number>;
  /** The logs that exist. */
  logs(): Promise<LogKey[]>;
  marks(log: LogKey): Promise<InboxMark[]>;
  /** Replaces the marks of the log (durable when it returns). */
  saveMarks(log: LogKey, marks: readonly InboxMark[]): Promise<void>;
  /** Entries of every log that could not be written, since the start. */
  writeFailures(): number;
  /** The log's lost entries since the start, or null. */
  lost(log: LogKey): LostEntries | null;
  /** Flushes, saves the figures and stops the timers. */
  close(): Promise<void>;
}
