/**
 * The question log of every robot: records each answered question with what it adds to the
 * robot's figures (the domain's AskRecorder, plugged in by index.ts), keeps each log within its
 * robot's budgets, and answers the editor's reads: pages of the log by index, the export a slice
 * at a time, and the inbox, rule analytics and the dashboard from the figures kept
 * (docs/question-log.md).
 * @module
 */
import type { AskResult } from '../api-types';
import type { Logger } from '../logger';
import { normalizeText } from '../matching/normalize';
import type {
  Dashboard,
  InboxGroup,
  LoggedQuestion,
  QuestionLogPage,
  RuleAnalytics,
  RuleAnalyticsPage,
  RuleHits,
} from '../question-log-types';
import { CSV_COLUMNS, csvRow } from '../question-log-types';
import type {
  EntryFigures,
  InboxMark,
  LogFilter,
  LogKey,
  QuestionLogRepository,
} from '../store/contract/question-log';
import { DAY_MS } from '../store/contract/question-log';
import type { RobotKey } from '../store/contract/records';
import { dashboard, ruleAnalytics, ruleAnalyticsJson } from './analytics';
import type { RuleFacts } from './analytics';
import { ruleAnalyticsPage } from './analytics-page';
import type { AnalyticsPageInput } from './analytics-page';
import { ClickMemory } from './click-memory';
import { DISMISS_MS, MarkIndex, TextKeys, entryFigures } from './entry-figures';
import type { MissSettings } from './entry-figures';
import { GroupIndex } from './grouping';
import { inboxGroup, rulesNamed } from './inbox';

/** What the log needs to know of a robot. */
export interface LoggedRobot extends MissSettings {
  retentionDays: number;
  maxBytes: number;
}

export interface QuestionLogOptions {
  repository: QuestionLogRepository;
  /** The robot's log settings; undefined for a robot that no longer exists. */
  robot: (log: LogKey) => LoggedRobot | undefined;
  now: () => number;
  logger: Logger;
  /** How often the robots' budget settings are checked for a change (ms). */
  budgetCheckMs?: number;
}

export interface PageFilter {
  from?: number;
  to?: number;
  /** A page's `next`: the entries older than it. */
  before?: string;
  offset: number;
  limit: number;
  /** Part of the question or of the user id. */
  q?: string;
  outcome?: 'answered' | 'recommended' | 'fallback';
  source?: 'api' | 'try';
  ruleId?: string;
  userId?: string;
}

export const logKey = (robot: RobotKey): LogKey => `${robot.tenantId}/${robot.robotId}`;

/**
 * The log key of each robot object seen, made once: recording then compares and hashes the same
 * string on every ask instead of a new one.
 */
const keys = new WeakMap<RobotKey, LogKey>();
function cachedLogKey(robot: RobotKey): LogKey {
  let key = keys.get(robot);
  if (key === undefined) {
    key = logKey(robot);
    keys.set(robot, key);
  }
  return key;
}

const DEFAULT_ROBOT: LoggedRobot = {
  retentionDays: 90,
  maxBytes: 500 * 1024 * 1024,
  lowScore: 0,
  evidenceScore: 1,
  margin: 0.1,
};

/** What the log holds of each robot's log it has opened. */
interface LogState {
  ready: boolean;
  opened: Promise<void>;
  groups: GroupIndex;
  marks: MarkIndex;
  /** Entries recorded while the log opened, appended once it is open. */
  waiting: LoggedQuestion[];
  /** The budgets last applied. */
  budgets: string;
  /**
   * The first pass of its budgets (at start): reads wait for it, so that what the budgets drop
   * is never read, whatever a long rebuild of other logs' figures takes meanwhile.
   */
  firstPass: Promise<void> | null;
}

export class QuestionLog {
  private readonly clicks = new ClickMemory();
  private readonly keysOf = new TextKeys();
  private readonly logs = new Map<LogKey, LogState>();
  private readonly budgetTimer: NodeJS.Timeout;

  /** Entries that failed before reaching the repository. */
  private recordFailures = 0;

  constructor(private readonly options: QuestionLogOptions) {
    this.budgetTimer = setInterval(() => void this.followBudgets(), options.budgetCheckMs ?? 2000);
    this.budgetTimer.unref();
  }

  private get repository(): QuestionLogRepository {
    return this.options.repository;
  }

  private settingsOf(log: LogKey): LoggedRobot {
    return this.options.robot(log) ?? DEFAULT_ROBOT;
  }

  private figuresOf(log: LogKey, state: LogState, entry: LoggedQuestion): EntryFigures | null {
    return entryFigures(entry, {
      settings: this.settingsOf(log),
      marks: state.marks,
      groups: state.groups,
      keys: this.keysOf,
    });
  }

  /** A log, opened once: its marks read, its figures brought up to its last entry. */
  private state(log: LogKey): LogState {
    let state = this.logs.get(log);
    if (state) return state;
    const opening: LogState = {
      ready: false,
      opened: Promise.resolve(),
      groups: new GroupIndex(),
      marks: new MarkIndex(),
      waiting: [],
      budgets: '',
      firstPass: null,
    };
    opening.opened = (async () => {
      opening.marks = new MarkIndex(await this.repository.marks(log));
      await this.repository.open(log, {
        known: (groups) => opening.groups.load(groups),
        figuresOf: (entry) => this.figuresOf(log, opening, entry),
      });
      opening.ready = true;
      const waiting = opening.waiting;
      opening.waiting = [];
      for (const entry of waiting) this.appendSafely(log, opening, entry);
    })().catch((error: unknown) => {
      this.options.logger.error(`could not open the question log of ${log}`, error);
    });
    this.logs.set(log, opening);
    state = opening;
    return state;
  }

  private append(log: LogKey, state: LogState, entry: LoggedQuestion): void {
    this.repository.append(log, entry, this.figuresOf(log, state, entry));
  }

  /** Appends outside any request: a throw would end the process, not one ask. */
  private appendSafely(log: LogKey, state: LogState, entry: LoggedQuestion): void {
    try {
      this.append(log, state, entry);
    } catch (error) {
      this.options.logger.error('could not record a question in the log', error);
    }
  }

  /** The log once open, the asks of the current turn recorded. */
  private async opened(robot: RobotKey): Promise<{ log: LogKey; state: LogState }> {
    this.recordQueued();
    const log = logKey(robot);
    const state = this.state(log);
    await state.opened;
    await state.firstPass;
    return { log, state };
  }

  /**
   * The domain's AskRecorder. In the ask's turn it only queues the entry: the asks answered in
   * one turn of the event loop are recorded together right after it (setImmediate), before any
   * next request is read, so a user's next question still finds their RECOMMEND. Done one by
   * one amid the matching, the same work cost about three times as much (cold caches); see
   * docs/question-log.md. Every reader takes the queue first.
   */
  record(robot: RobotKey, entry: LoggedQuestion, items: AskResult['items']): void {
    const queued = this.queued;
    queued.push({ robot, entry, items });
    if (queued.length === 1) setImmediate(this.recordQueued);
  }

  private queued: { robot: RobotKey; entry: LoggedQuestion; items: AskResult['items'] }[] = [];

  private readonly recordQueued = (): void => {
    const queued = this.queued;
    if (queued.length === 0) return;
    this.queued = [];
    for (const { robot, entry, items } of queued) {
      try {
        this.recordNow(robot, entry, items);
      } catch (error) {
        // Outside any request: a throw here would end the process, not one ask.
        this.options.logger.error('could not record a question in the log', error);
        this.recordFailures += 1;
      }
    }
  };

  private recordNow(robot: RobotKey, entry: LoggedQuestion, items: AskResult['items']): void {
    const log = cachedLogKey(robot);
    if (entry.source === 'api') {
      const choice = this.clicks.take(
        `${log}\u0000${entry.userId}`,
        entry.at,
        entry.question,
        items,
      );
      if (choice && choice.ruleId === entry.ruleId) entry.chosenFrom = choice.question;
    }
    // A RECOMMEND's items come only with it: the second's score tells a clear first from a close call.
    if (items && entry.answerType === 'RECOMMEND') entry.runnerUp = items[1]?.score ?? 0;
    const state = this.logs.get(log) ?? this.state(log);
    if (state.ready) this.append(log, state, entry);
    else state.waiting.push(entry);
  }

  /** Where the robot's retention starts (ms). */
  private keepFrom(log: LogKey): number {
    return this.options.now() - this.settingsOf(log).retentionDays * DAY_MS;
  }

  async page(robot: RobotKey, filter: PageFilter): Promise<QuestionLogPage> {
    const { log, state } = await this.opened(robot);
    const q = filter.q?.trim();
    const logFilter: LogFilter = {
      from: Math.max(filter.from ?? 0, this.keepFrom(log)),
      to: filter.to ?? Number.MAX_SAFE_INTEGER,
      ...(filter.outcome !== undefined ? { outcome: filter.outcome } : {}),
      ...(filter.source !== undefined ? { source: filter.source } : {}),
      ...(filter.ruleId !== undefined ? { ruleId: filter.ruleId } : {}),
      ...(filter.userId !== undefined ? { userId: filter.userId } : {}),
      ...(q ? { text: q } : {}),
    };
    // A store that cannot say what it has not written yet writes it first (the team server's
    // page flushes anyway): the page then says every entry recorded before it is durable.
    if (!this.repository.unwritten) await this.repository.flush();
    const page = await this.repository.page(log, {
      filter: logFilter,
      before: filter.before ?? null,
      offset: filter.offset,
      limit: filter.limit,
    });
    const unwritten = (this.repository.unwritten?.(log) ?? 0) + state.waiting.length;
    return { ...page, lost: this.repository.lost(log), unwritten };
  }

  /**
   * The entries since `from` (ms; never before the retention), oldest first, a slice at a time:
   * what an impact preview replays (publishing/impact.ts).
   */
  async *entriesSince(robot: RobotKey, from: number): AsyncGenerator<LoggedQuestion[]> {
    const { log } = await this.opened(robot);
    const start = Math.max(from, this.keepFrom(log));
    yield* this.repository.slices(log, start, Number.MAX_SAFE_INTEGER);
  }

  /** The log as CSV, a slice of rows at a time (the header first), oldest first. */
  async *csv(robot: RobotKey, from?: number, to?: number): AsyncGenerator<string | Uint8Array> {
    const { log } = await this.opened(robot);
    yield `\ufeff${CSV_COLUMNS.join(',')}\r\n`;
    const start = Math.max(from ?? 0, this.keepFrom(log));
    // Made by the store where it has its own way: the embedded one on the loop in small turns
    // (decision 202), the team server in a worker thread (decision 193).
    const rows = this.repository.csvRows?.(log, start, to ?? Number.MAX_SAFE_INTEGER);
    if (rows) {
      yield* rows;
      return;
    }
    for await (const slice of this.repository.slices(log, start, to ?? Number.MAX_SAFE_INTEGER)) {
      let text = '';
      for (const entry of slice) text += `${csvRow(entry)}\r\n`;
      yield text;
    }
  }

  async clear(robot: RobotKey): Promise<number> {
    const { log } = await this.opened(robot);
    return this.repository.clear(log);
  }

  /** Applies a robot's budgets: retention days, then size; its marks too old to matter go. */
  private async applyBudgets(log: LogKey, state: LogState): Promise<number> {
    const settings = this.settingsOf(log);
    const now = this.options.now();
    // Marked at the start so that the next check does not run it again meanwhile; forgotten if
    // it fails (a purge past the database's timeout), so that the next check tries again.
    const budgets = `${settings.retentionDays}/${settings.maxBytes}`;
    state.budgets = budgets;
    const keepFrom = now - settings.retentionDays * DAY_MS;
    let removed: number;
    try {
      removed = await this.repository.enforceRetention(log, keepFrom, settings.maxBytes);
    } catch (error) {
      if (state.budgets === budgets) state.budgets = '';
      throw error;
    }
    const marks = await this.repository.marks(log);
    // A test case's expected fallback stays expected as long as the log lasts; a review-mode fix
    // remembers its version as long as that version may answer.
    const live = marks.filter(
      (mark) =>
        mark.kind === 'fallback' ||
        typeof mark.version === 'number' ||
        mark.at + DISMISS_MS > keepFrom,
    );
    if (live.length < marks.length) {
      await this.repository.saveMarks(log, live);
      state.marks = new MarkIndex(live);
    }
    return removed;
  }

  /**
   * Applies every robot's budgets (at start and every hour), each log once open; returns the
   * entries removed. The passes are under way when `started` resolves: a read waits for its
   * log's first one.
   */
  async enforceRetention(started?: () => void): Promise<number> {
    this.recordQueued();
    const passes = (await this.repository.logs()).map((log) => {
      const state = this.state(log);
      const pass = state.opened.then(() => this.applyBudgets(log, state));
      state.firstPass ??= pass.then(
        () => undefined,
        () => undefined,
      );
      return pass;
    });
    started?.();
    let removed = 0;
    for (const pass of passes) removed += await pass;
    return removed;
  }

  /** A robot whose budget settings changed has them applied at once. */
  private async followBudgets(): Promise<void> {
    for (const [log, state] of this.logs) {
      if (!state.ready) continue;
      const settings = this.settingsOf(log);
      if (state.budgets === `${settings.retentionDays}/${settings.maxBytes}`) continue;
      await this.applyBudgets(log, state).catch((error: unknown) =>
        this.options.logger.error(`could not apply the question log budgets of ${log}`, error),
      );
    }
  }

  async inbox(
    robot: RobotKey,
    limit: number,
    namesOf: (ruleIds: string[]) => Promise<Map<string, string>>,
  ): Promise<InboxGroup[]> {
    const { log } = await this.opened(robot);
    const rows = await this.repository.figures.inbox(log, limit);
    const names = await namesOf([...new Set(rows.flatMap(rulesNamed))]);
    return rows.map((row) => inboxGroup(row, names));
  }

  /**
   * Marks groups (by key) as dismissed or handled: their questions leave the inbox (a dismissed
   * one for DISMISS_MS, a handled one until it is missed again, a `fallback` one until it gets
   * something other than the fallback). `version`: the published version when a robot in review
   * mode is fixed (its draft): misses of that version or older do not bring the group back.
   * Returns the groups found.
   */
  async mark(
    robot: RobotKey,
    keys: readonly string[],
    kind: InboxMark['kind'],
    version: number | null = null,
  ): Promise<number> {
    const { log, state } = await this.opened(robot);
    let found = 0;
    const texts = new Set<string>();
    for (const key of keys) {
      const members = await this.repository.figures.groupTexts(log, [key]);
      if (members.length > 0) found += 1;
      for (const text of members) texts.add(text);
      // A key not (or no longer) in the inbox is marked as it is: its question, normalised.
      texts.add(normalizeText(key));
    }
    const at = this.options.now();
    const marks = (await this.repository.marks(log)).filter((mark) => !texts.has(mark.key));
    for (const key of texts)
      marks.push({ key, at, kind, ...(version !== null ? { version } : {}) });
    await this.repository.saveMarks(log, marks);
    state.marks = new MarkIndex(marks);
    await this.repository.figures.forget(log, [...texts]);
    return found;
  }

  /**
   * Hits and last hit of every rule hit or recommended in the days kept, or of these rules only
   * (a page of the rules grid).
   */
  async ruleHits(robot: RobotKey, ruleIds?: readonly string[]): Promise<RuleHits[]> {
    const { log } = await this.opened(robot);
    return ruleIds === undefined
      ? this.repository.figures.rules(log)
      : this.repository.figures.rulesOf(log, ruleIds);
  }

  async analytics(robot: RobotKey, rules: readonly RuleFacts[]): Promise<RuleAnalytics> {
    const { log } = await this.opened(robot);
    return ruleAnalytics(this.repository.figures, log, rules, this.options.now());
  }

  /**
   * Whole rule analytics' JSON text (the answer's data) when the store serialises the rules
   * itself (PostgreSQL, decision 162); undefined otherwise (`analytics` then).
   */
  async analyticsJson(robot: RobotKey): Promise<string | undefined> {
    const { json } = this.repository.figures;
    if (!json) return undefined;
    const { log } = await this.opened(robot);
    return ruleAnalyticsJson(this.repository.figures, json, log, robot, this.options.now());
  }

  /** A page of rule analytics (decision 118): the page's rules read by index. */
  async analyticsPage(robot: RobotKey, page: AnalyticsPageInput): Promise<RuleAnalyticsPage> {
    const { log } = await this.opened(robot);
    return ruleAnalyticsPage(this.repository.figures, log, page, this.options.now());
  }

  async dashboard(robot: RobotKey, days: number): Promise<Dashboard> {
    const { log } = await this.opened(robot);
    return dashboard(this.repository.figures, log, days, this.options.now());
  }

  /** Entries of every robot the log could not write since the start (a full disk, …). */
  writeFailures(): number {
    return this.recordFailures + this.repository.writeFailures();
  }

  close(): Promise<void> {
    clearInterval(this.budgetTimer);
    this.recordQueued();
    return this.repository.close();
  }
}
