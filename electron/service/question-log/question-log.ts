/**
 * The question log of every robot: records each answered question (the domain's AskRecorder,
 * plugged in by index.ts), keeps it within each robot's retention, and reads it back for the
 * log view, the export, the inbox, rule analytics and the dashboard (docs/question-log.md).
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
  RuleHits,
} from '../question-log-types';
import { toCsv } from '../question-log-types';
import type { InboxMark, LogKey, QuestionLogRepository } from '../store/contract/question-log';
import type { RobotKey } from '../store/contract/records';
import { RuleHitCounter, dashboard, ruleAnalytics } from './analytics';
import type { RuleFacts } from './analytics';
import { ClickMemory } from './click-memory';
import { DISMISS_MS, buildInbox } from './inbox';

const DAY_MS = 86_400_000;

/** What the log needs to know of a robot. */
export interface LoggedRobot {
  retentionDays: number;
  maxBytes: number;
  /** A BESTMATCH under this score goes to the inbox. */
  lowScore: number;
}

export interface QuestionLogOptions {
  repository: QuestionLogRepository;
  /** The robot's log settings; undefined for a robot that no longer exists. */
  robot: (log: LogKey) => LoggedRobot | undefined;
  now: () => number;
  logger: Logger;
}

export interface LogFilter {
  from?: number;
  to?: number;
  offset: number;
  limit: number;
  /** Part of the question or of the userId. */
  q?: string;
  outcome?: 'answered' | 'recommended' | 'fallback';
  source?: 'api' | 'try';
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

const outcomeOf = (entry: LoggedQuestion) =>
  entry.module === 'NONE'
    ? 'fallback'
    : entry.answerType === 'RECOMMEND'
      ? 'recommended'
      : 'answered';

export class QuestionLog {
  private readonly clicks = new ClickMemory();
  /** Hits per rule of robots whose figures were asked for, kept up to date by `record`. */
  private readonly hitCounters = new Map<LogKey, RuleHitCounter>();

  /** Entries that failed before reaching the repository. */
  private recordFailures = 0;

  constructor(private readonly options: QuestionLogOptions) {}

  /** Entries lost since the start: failed here, or dropped by the repository (the metrics). */
  get writeFailures(): number {
    return this.recordFailures + (this.repository.failedWrites ?? 0);
  }

  private get repository(): QuestionLogRepository {
    return this.options.repository;
  }

  private settingsOf(log: LogKey): LoggedRobot {
    return (
      this.options.robot(log) ?? { retentionDays: 90, maxBytes: 200 * 1024 * 1024, lowScore: 0 }
    );
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
    this.repository.append(log, entry);
    this.hitCounters.get(log)?.add(entry);
  }

  /** The entries kept: within the robot's retention, oldest first. */
  private async kept(log: LogKey, from = 0, to = Infinity): Promise<LoggedQuestion[]> {
    this.recordQueued();
    const keepFrom = this.options.now() - this.settingsOf(log).retentionDays * DAY_MS;
    return this.repository.read(log, Math.max(from, keepFrom), to);
  }

  async page(robot: RobotKey, filter: LogFilter): Promise<QuestionLogPage> {
    const entries = await this.kept(logKey(robot), filter.from, filter.to);
    const q = filter.q?.trim();
    const needle = q ? normalizeText(q) : '';
    const matching = entries.filter(
      (entry) =>
        (filter.source === undefined || entry.source === filter.source) &&
        (filter.outcome === undefined || outcomeOf(entry) === filter.outcome) &&
        (!q ||
          entry.userId.includes(q) ||
          entry.question.includes(q) ||
          (needle !== '' && normalizeText(entry.question).includes(needle))),
    );
    matching.reverse();
    return {
      entries: matching.slice(filter.offset, filter.offset + filter.limit),
      total: matching.length,
    };
  }

  async csv(robot: RobotKey, from?: number, to?: number): Promise<string> {
    return toCsv(await this.kept(logKey(robot), from, to));
  }

  async clear(robot: RobotKey): Promise<number> {
    this.recordQueued();
    const log = logKey(robot);
    this.hitCounters.delete(log);
    return this.repository.clear(log);
  }

  /** Applies every robot's retention (at start and every hour); returns the entries removed. */
  async enforceRetention(): Promise<number> {
    this.recordQueued();
    let removed = 0;
    const now = this.options.now();
    for (const log of await this.repository.logs()) {
      const settings = this.settingsOf(log);
      const gone = await this.repository.enforceRetention(
        log,
        now - settings.retentionDays * DAY_MS,
        settings.maxBytes,
      );
      if (gone > 0) this.hitCounters.delete(log);
      removed += gone;
      // Marks older than anything the log still holds hide nothing any more.
      const marks = await this.repository.marks(log);
      // A test case's expected fallback stays expected as long as the log lasts.
      const live = marks.filter(
        (mark) =>
          mark.kind === 'fallback' || mark.at + DISMISS_MS > now - settings.retentionDays * DAY_MS,
      );
      if (live.length < marks.length) await this.repository.saveMarks(log, live);
    }
    return removed;
  }

  async inbox(
    robot: RobotKey,
    limit: number,
    namesOf: (ruleIds: string[]) => Promise<Map<string, string>>,
  ): Promise<InboxGroup[]> {
    const groups = await this.groups(robot);
    const shown = groups.slice(0, limit);
    const ids = new Set<string>();
    for (const group of shown) {
      if (group.suggestedRuleId) ids.add(group.suggestedRuleId);
      for (const choice of group.chosen) ids.add(choice.ruleId);
    }
    const names = await namesOf([...ids]);
    return shown.map(({ texts: _texts, ...group }) => {
      const suggested =
        group.suggestedRuleId !== null && names.has(group.suggestedRuleId)
          ? group.suggestedRuleId
          : null;
      return {
        ...group,
        chosen: group.chosen
          .filter((choice) => names.has(choice.ruleId))
          .map((choice) => ({ ...choice, ruleName: names.get(choice.ruleId) ?? '' })),
        suggestedRuleId: suggested,
        suggestedRuleName: suggested === null ? null : (names.get(suggested) ?? null),
      };
    });
  }

  private async groups(robot: RobotKey) {
    const log = logKey(robot);
    const [entries, marks] = await Promise.all([this.kept(log), this.repository.marks(log)]);
    return buildInbox({ entries, marks, lowScore: this.settingsOf(log).lowScore });
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
    const log = logKey(robot);
    const wanted = new Set(keys);
    const groups = (await this.groups(robot)).filter((group) => wanted.has(group.key));
    const at = this.options.now();
    // A key not (or no longer) in the inbox is marked as it is: its question, normalised.
    const texts = new Set(groups.flatMap((group) => group.texts));
    for (const key of keys) texts.add(normalizeText(key));
    const marks = (await this.repository.marks(log)).filter((m) => !texts.has(m.key));
    for (const key of texts)
      marks.push({ key, at, kind, ...(version !== null ? { version } : {}) });
    await this.repository.saveMarks(log, marks);
    return groups.length;
  }

  /** Hits and last hit of every rule hit in the log kept (the rules grid's columns). */
  async ruleHits(robot: RobotKey): Promise<RuleHits[]> {
    this.recordQueued();
    const log = logKey(robot);
    let counter = this.hitCounters.get(log);
    if (!counter) {
      // Registered once read (in the same turn): `record` then keeps it up to date.
      counter = new RuleHitCounter();
      for (const entry of await this.kept(log)) counter.add(entry);
      this.hitCounters.set(log, counter);
    }
    return [...counter.hits.values()];
  }

  async analytics(robot: RobotKey, rules: readonly RuleFacts[]): Promise<RuleAnalytics> {
    return ruleAnalytics(await this.kept(logKey(robot)), rules, this.options.now());
  }

  async dashboard(robot: RobotKey, days: number): Promise<Dashboard> {
    const log = logKey(robot);
    const now = this.options.now();
    const entries = await this.kept(log, now - days * DAY_MS);
    return dashboard(entries, days, now, this.settingsOf(log).lowScore);
  }

  close(): Promise<void> {
    this.recordQueued();
    return this.repository.close();
  }
}
