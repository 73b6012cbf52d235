/**
 * The embedded question log (docs/question-log.md): each robot's entries in segment files per
 * UTC day beside the database (segments.ts, indexed by segment-index.ts), its figures in memory
 * (kept-figures.ts) saved per day with the log position they cover (figure-files.ts).
 *
 * `<data>/question-log/<tenantId>/<robotId>/`: `YYYY-MM-DD-SSSS.jsonl` + `.idx` (the entries),
 * `figures/YYYY-MM-DD.jsonl` (the day's figures), `marks.json` (the inbox's marks).
 *
 * Entries are buffered and written once a second; their figures count at once. A crash loses at
 * most the last second of entries and never the figures of an entry kept: at open, each day's
 * saved figures are read and the entries after the position they cover are counted again (all of
 * the day's when its figures are missing or of another format: rebuilt from the raw log). The
 * figures are saved (a checkpoint) every few minutes, or sooner after many entries, and at stop:
 * meanwhile new figures are held back, so that what is saved is exactly what the position covers.
 * Lines that cannot be written (a full disk, a read-only folder, an I/O error) are dropped with
 * their figures taken back, counted, and reported to the service's output once writing works
 * again: they never end the process nor fail an ask.
 * @module
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../logger';
import type { LoggedQuestion } from '../../../question-log-types';
import type {
  DayNumber,
  EntryFigures,
  InboxMark,
  LogFigures,
  LogKey,
  LostEntries,
  PageRequest,
  PageResult,
  QuestionLogRepository,
  Replay,
} from '../../contract/question-log';
import { DIRECTORY_MODE, writeFileAtomicAsync } from '../../../files/durable-fs';
import { FlushSchedule } from '../../sql/flush-schedule';
import { DAY_MS, dayOf } from '../../sql/question-log-line';
import { encodeDay, inboxRowOfLine, loadDay, loadInboxRows, saveDay } from './figure-files';
import type { InboxLine } from './figure-files';
import {
  CLOSED_INBOX_MAX,
  DayTables,
  KeptFigures,
  addInboxRow,
  keepMostFrequent,
  occurrences,
} from './kept-figures';
import type { InboxCounts } from './kept-figures';
import { exportRows } from './segment-export';
import { SegmentLog, segmentBytesFor } from './segments';
import type { Position } from './segments';

export const LOG_DIR = 'question-log';
const MARKS_FILE = 'marks.json';
const FIGURES_DIR = 'figures';
const FIGURES_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;

export interface DayFileLogOptions {
  dataDir: string;
  logger: Logger;
  /** How often buffered lines are written and synced (ms). */
  flushMs?: number;
  /** The service's clock (which days are closed). */
  now?: () => number;
  /** Entries a text search reads per page at most (segments.ts SEARCH_BUDGET; tests set less). */
  searchBudget?: number;
  /** Figures are saved at least this often when entries came (ms)… */
  checkpointMs?: number;
  /** …or once this many entries came. */
  checkpointEntries?: number;
}

const dayNumber = (name: string): DayNumber => Math.floor(Date.parse(name) / DAY_MS);
const dayName = (day: DayNumber): string => dayOf(day * DAY_MS);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Inbox rows of a day file added to the figures between two turns of the event loop. */
const ROWS_PER_TURN = 2000;
const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException | null)?.code ?? String(error);

/** What the store knows of one robot's log. */
class RobotLog {
  readonly segments: SegmentLog<EntryFigures | null>;
  readonly figures = new KeptFigures();
  loaded: Promise<void> | null = null;
  opened: Promise<void> | null = null;
  /** Figures held back while a checkpoint saves the others. */
  held: EntryFigures[] | null = null;
  /** Settled once the figures held back count (the checkpoint under way is done). */
  heldCounted: Promise<void> = Promise.resolve();
  /** Work on the figures' structure (checkpoints, retention, clearing), one at a time. */
  chain: Promise<void> = Promise.resolve();
  /**
   * The retention or clearing under way (figure reads wait for it). Not a checkpoint: it saves
   * the figures as they stand (new ones held back), and waiting for its writes and syncs held an
   * editor's read for seconds at volume.
   */
  reshaping: Promise<void> = Promise.resolve();
  /** The position and time of each day's saved figures. */
  readonly saved = new Map<DayNumber, { position: Position | null; savedAt: number }>();
  unsaved = 0;
  lastCheckpoint = 0;
  maxBytes: number | null = null;
  /** Bytes of each day's figure file: they count in the size budget. */
  readonly figureBytes = new Map<DayNumber, number>();
  lost: LostEntries | null = null;
  /** Lost since writing last worked (reported once it works again), and why. */
  failing: { count: number; since: number; until: number; code: string } | null = null;

  constructor(
    readonly key: LogKey,
    readonly dir: string,
  ) {
    this.segments = new SegmentLog(dir);
  }

  /**
   * What the size budget leaves the entries: the budget less the figure files, which stay when
   * entries go (the folder as a whole keeps to the budget).
   */
  entryBudget(): number | null {
    if (this.maxBytes === null) return null;
    let figures = 0;
    for (const bytes of this.figureBytes.values()) figures += bytes;
    return Math.max(0, this.maxBytes - figures);
  }

  get figuresDir(): string {
    return join(this.dir, FIGURES_DIR);
  }

  /** Runs `work` after the figure work under way; reads wait for it too. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Like `exclusive`, for work that changes what the figures hold: reads wait for it. */
  reshape<T>(work: () => Promise<T>): Promise<T> {
    const run = this.exclusive(work);
    this.reshaping = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

export class DayFileLog implements QuestionLogRepository {
  private readonly root: string;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly robots = new Map<LogKey, RobotLog>();
  private readonly writes: FlushSchedule;
  private readonly checkpointTimer: NodeJS.Timeout;
  private readonly checkpointMs: number;
  private readonly checkpointEntries: number;
  private readonly searchBudget: number | undefined;
  private failures = 0;
  readonly figures: LogFigures;

  constructor(options: DayFileLogOptions) {
    this.root = join(options.dataDir, LOG_DIR);
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.checkpointMs = options.checkpointMs ?? 5 * 60_000;
    this.checkpointEntries = options.checkpointEntries ?? 50_000;
    this.searchBudget = options.searchBudget;
    this.writes = new FlushSchedule(() => this.writeBuffered(), options.flushMs);
    this.checkpointTimer = setInterval(() => void this.checkpointDue(), 10_000);
    this.checkpointTimer.unref();
    this.figures = this.figureReads();
  }

  private robot(log: LogKey): RobotLog {
    let robot = this.robots.get(log);
    if (!robot) {
      const [tenantId = '', robotId = ''] = log.split('/');
      robot = new RobotLog(
        log,
        join(this.root, encodeURIComponent(tenantId), encodeURIComponent(robotId)),
      );
      if (this.searchBudget !== undefined) robot.segments.searchBudget = this.searchBudget;
      this.robots.set(log, robot);
    }
    return robot;
  }

  /** The robot's segments, read (and repaired) once. */
  private async segmentsOf(log: LogKey): Promise<RobotLog> {
    const robot = this.robot(log);
    robot.loaded ??= robot.segments.load();
    await robot.loaded;
    return robot;
  }

  // ——— Figures ———

  open(log: LogKey, replay: Replay): Promise<void> {
    const robot = this.robot(log);
    robot.opened ??= this.segmentsOf(log)
      .then(() => robot.exclusive(() => this.loadFigures(robot, replay)))
      .then(() => {
        // Not awaited: a read meanwhile waits for the walk it would have made itself.
        robot.figures.rank().catch((error: unknown) => {
          this.logger.error(`could not rank the question log figures of ${robot.key}`, error);
        });
      });
    return robot.opened;
  }

  /** Days whose figures are complete: before yesterday. */
  private closedBefore(): DayNumber {
    return Math.floor(this.now() / DAY_MS) - 1;
  }

  private async loadFigures(robot: RobotLog, replay: Replay): Promise<void> {
    const markAt = new Map((await this.marks(robot.key)).map((mark) => [mark.key, mark.at]));
    const fileDays = existsSync(robot.figuresDir)
      ? readdirSync(robot.figuresDir)
          .map((name) => FIGURES_FILE.exec(name)?.[1])
          .filter((day): day is string => day !== undefined)
      : [];
    const days = [...new Set([...fileDays, ...robot.segments.days()])].sort();
    for (const name of days) {
      const day = dayNumber(name);
      const tables = new DayTables(day);
      const rows: { key: string; row: InboxCounts }[] = [];
      const header = fileDays.includes(name)
        ? await loadDay(join(robot.figuresDir, `${name}.jsonl`), (row) =>
            loadRow(tables, rows, row),
          )
        : null;
      // A file that cannot be read counts for nothing: the day is rebuilt from its entries.
      const kept = header ? tables : new DayTables(day);
      if (header) kept.hours.set(header.hours.slice(0, kept.hours.length));
      robot.figures.days.set(day, kept);
      robot.figures.addRuleTotals(kept, 1);
      if (header) {
        let added = 0;
        for (const { key, row } of rows) {
          // Marked after the save: the figures of its occurrences were forgotten then.
          if ((markAt.get(key) ?? -1) >= header.savedAt) continue;
          addInboxRow(kept.inboxRows, key, row, 1);
          robot.figures.addToTotals(key, row, 1);
          // A busy day's tens of thousands of rows, a slice a turn (asks wait for none of it).
          if (++added % ROWS_PER_TURN === 0) await nextTurn();
        }
        robot.saved.set(day, { position: header.position, savedAt: header.savedAt });
        robot.figureBytes.set(day, statSync(join(robot.figuresDir, `${name}.jsonl`)).size);
        if (header.position) robot.segments.reserveSeq(name, header.position.seq);
        for (let i = 0; i < rows.length; i += ROWS_PER_TURN) {
          const slice = rows.slice(i, i + ROWS_PER_TURN);
          replay.known(new Map(slice.map(({ key, row }) => [key, row.group])));
          await nextTurn();
        }
      }
      kept.unsaved = 0;
      for await (const slice of robot.segments.entriesFrom(name, header?.position ?? null)) {
        for (const entry of slice) {
          const figures = replay.figuresOf(entry);
          if (figures) robot.figures.apply(figures, 1);
        }
        await nextTurn();
      }
      if (day < this.closedBefore()) await this.closeDay(robot, kept, !header || kept.unsaved > 0);
      await nextTurn();
    }
  }

  /** Closes a day: keeps its most frequent inbox questions, saves it if asked, drops its rows. */
  private async closeDay(robot: RobotLog, tables: DayTables, save: boolean): Promise<void> {
    const rows = tables.inbox;
    if (!rows) return;
    robot.figures.pruneInbox(rows, CLOSED_INBOX_MAX);
    if (save) await this.saveDay(robot, tables, robot.segments.endOf(dayName(tables.day)), rows);
    robot.figures.close(tables);
  }

  private async saveDay(
    robot: RobotLog,
    tables: DayTables,
    position: Position | null,
    rows: Iterable<[string, InboxCounts]>,
  ): Promise<void> {
    await mkdir(robot.figuresDir, { recursive: true, mode: DIRECTORY_MODE });
    const savedAt = this.now();
    const bytes = await saveDay(
      join(robot.figuresDir, `${dayName(tables.day)}.jsonl`),
      tables,
      { savedAt, position },
      rows,
    );
    robot.saved.set(tables.day, { position, savedAt });
    robot.figureBytes.set(tables.day, bytes);
    tables.unsaved = 0;
  }

  /** A closed day's inbox rows: its file's (those not forgotten since) and those added since. */
  private async closedRows(robot: RobotLog, tables: DayTables): Promise<Map<string, InboxCounts>> {
    const rows = new Map<string, InboxCounts>();
    const file = await loadInboxRows(join(robot.figuresDir, `${dayName(tables.day)}.jsonl`));
    if (file) {
      const markAt = new Map((await this.marks(robot.key)).map((mark) => [mark.key, mark.at]));
      for (const { key, row } of file.rows) {
        if ((markAt.get(key) ?? -1) < file.savedAt) addInboxRow(rows, key, row, 1);
      }
    }
    for (const [key, row] of tables.late) addInboxRow(rows, key, row, 1);
    return rows;
  }

  /**
   * Saves the figures of the days changed since their last save, closing the days before
   * yesterday. New figures are held back only while the days are encoded: the log's flush and
   * the files' writes and syncs come after, so a read waits for no disk (decision 141), a day
   * closing included (decision 154: what is buffered is flushed first, without a hold, and the
   * days close in one step, so that a read sees a day open or closed, never half of it).
   */
  private checkpoint(robot: RobotLog): Promise<void> {
    return robot.exclusive(async () => {
      if (!robot.opened) return;
      const closedBefore = this.closedBefore();
      const due = () =>
        [...robot.figures.days.values()].filter(
          (tables) => tables.unsaved > 0 || (tables.day < closedBefore && !tables.closed),
        );
      if (due().some((t) => t.closed || t.day < closedBefore)) {
        const lostBefore = robot.lost?.count ?? 0;
        await this.flush();
        // Entries counted in the figures were lost: their positions are not the log's any more.
        if ((robot.lost?.count ?? 0) > lostBefore) return;
      }
      const days = due();
      if (days.length === 0) return;
      robot.held = [];
      let counted = (): void => undefined;
      robot.heldCounted = new Promise((resolve) => (counted = resolve));
      const release = () => {
        const held = robot.held;
        robot.held = null;
        for (const figures of held ?? []) robot.figures.apply(figures, 1);
        counted();
      };
      try {
        const ends = new Map(days.map((t) => [t.day, robot.segments.endOf(dayName(t.day))]));
        await this.saveDays(robot, days, ends, closedBefore, release);
      } catch (error) {
        this.logger.error(`could not save the question log figures of ${robot.key}`, error);
      } finally {
        release();
      }
    });
  }

  /**
   * Each day encoded at its position while new figures are held back (a day closing from a
   * pruned copy of its inbox, a closed day from its file and what came late), the closing days
   * then closed and `release` called in one step; then the log flushed up to those positions and
   * the files written (a figure file never covers lines not yet on disk).
   */
  private async saveDays(
    robot: RobotLog,
    days: readonly DayTables[],
    ends: ReadonlyMap<DayNumber, Position | null>,
    closedBefore: DayNumber,
    release: () => void,
  ): Promise<void> {
    const savedAt = this.now();
    const unsaved = robot.unsaved;
    const encoded: {
      tables: DayTables;
      position: Position | null;
      bytes: Buffer;
      unsaved: number;
      closes: boolean;
      late: Map<string, InboxCounts> | null;
    }[] = [];
    for (const tables of days) {
      const position = ends.get(tables.day) ?? null;
      const closes = tables.day < closedBefore && !tables.closed;
      let rows: Iterable<[string, InboxCounts]> = tables.inbox ?? [];
      let late: Map<string, InboxCounts> | null = null;
      if (closes) {
        const copy = new Map(tables.inbox ?? []);
        keepMostFrequent(copy, CLOSED_INBOX_MAX, occurrences);
        rows = copy;
      } else if (tables.closed) {
        rows = await this.closedRows(robot, tables);
        // What comes late from now on is the next save's.
        late = tables.late;
        tables.late = new Map();
      }
      const bytes = await encodeDay(tables, { savedAt, position }, rows);
      encoded.push({ tables, position, bytes, unsaved: tables.unsaved, closes, late });
    }
    for (const { tables, closes } of encoded) {
      if (!closes) continue;
      robot.figures.pruneInbox(tables.inbox ?? new Map(), CLOSED_INBOX_MAX);
      robot.figures.close(tables);
    }
    release();
    const lostBefore = robot.lost?.count ?? 0;
    await this.flush();
    // Entries counted in the figures were lost: their positions are not the log's any more.
    if ((robot.lost?.count ?? 0) > lostBefore) {
      for (const { tables, late } of encoded) {
        for (const [key, row] of late ?? []) addInboxRow(tables.late, key, row, 1);
      }
      return;
    }
    await mkdir(robot.figuresDir, { recursive: true, mode: DIRECTORY_MODE });
    for (const { tables, position, bytes, unsaved: dayUnsaved } of encoded) {
      await writeFileAtomicAsync(join(robot.figuresDir, `${dayName(tables.day)}.jsonl`), bytes);
      robot.saved.set(tables.day, { position, savedAt });
      robot.figureBytes.set(tables.day, bytes.length);
      // Figures counted since the encoding stay to save.
      tables.unsaved = Math.max(0, tables.unsaved - dayUnsaved);
    }
    robot.unsaved = Math.max(0, robot.unsaved - unsaved);
    robot.lastCheckpoint = this.now();
  }

  private async checkpointDue(): Promise<void> {
    const now = this.now();
    for (const robot of this.robots.values()) {
      if (robot.unsaved === 0 && robot.figures.days.size === 0) continue;
      const due =
        robot.unsaved >= this.checkpointEntries ||
        (robot.unsaved > 0 && now - robot.lastCheckpoint >= this.checkpointMs);
      const closing = [...robot.figures.days.values()].some(
        (tables) => tables.day < this.closedBefore() && !tables.closed,
      );
      if (due || closing) await this.checkpoint(robot);
    }
  }

  private figureReads(): LogFigures {
    /**
     * A robot's figures once open and no retention or clearing is under way, with every entry
     * appended so far counted: an entry that arrived during a checkpoint is held back until it
     * ends, so a read then waits for it (an ask followed by a look at the inbox sees the ask).
     */
    const ready = async (log: LogKey): Promise<KeptFigures> => {
      const robot = this.robot(log);
      await robot.opened;
      await robot.reshaping;
      if (robot.held && robot.held.length > 0) await robot.heldCounted;
      return robot.figures;
    };
    return {
      hours: async (log, fromDay, toDay) => (await ready(log)).hours(fromDay, toDay),
      rules: async (log) => (await ready(log)).ruleRows(),
      rulesOf: async (log, ruleIds) => (await ready(log)).ruleRowsOf(ruleIds),
      mostHit: async (log, limit) => (await ready(log)).mostHit(limit),
      ruleDays: async (log, ruleIds) => (await ready(log)).ruleDays(ruleIds),
      pairs: async (log, limit) => (await ready(log)).pairs(limit),
      top: async (log, fromDay, toDay, missed, limit) =>
        (await ready(log)).top(fromDay, toDay, missed, limit),
      inbox: async (log, limit) => (await ready(log)).inboxGroups(limit),
      groupTexts: async (log, groups) => (await ready(log)).groupTexts(groups),
      forget: async (log, keys) => {
        const robot = this.robot(log);
        await robot.opened;
        await robot.exclusive(async () => robot.figures.forget(keys));
      },
    };
  }

  // ——— Entries ———

  append(log: LogKey, entry: LoggedQuestion, figures: EntryFigures | null): void {
    const robot = this.robot(log);
    robot.segments.append(entry, figures);
    if (!figures) return;
    robot.unsaved += 1;
    if (robot.held) robot.held.push(figures);
    else robot.figures.apply(figures, 1);
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writeBuffered(): Promise<void> {
    for (const robot of this.robots.values()) {
      if (!robot.segments.hasPending) continue;
      const { lost, error } = await robot.segments.write();
      if (lost.length > 0)
        this.lose(
          robot,
          lost.map((line) => line.tag),
          error,
        );
      else if (robot.failing) this.recovered(robot);
      // Segments closed by this write get their text filter (in the background).
      robot.segments.filterClosed();
      const budget = robot.entryBudget();
      if (budget !== null) {
        // The size budget holds as entries come, the current day included.
        await robot.segments.dropOldestOver(budget).catch((failure: unknown) => {
          this.logger.error(
            `could not drop the oldest question log entries of ${robot.key}`,
            failure,
          );
        });
      }
    }
  }

  /** Entries whose lines could not be written: their figures are taken back, and they count. */
  private lose(robot: RobotLog, tags: (EntryFigures | null)[], error: unknown): void {
    for (const figures of tags) {
      if (!figures) continue;
      const held = robot.held?.indexOf(figures) ?? -1;
      if (held >= 0) robot.held?.splice(held, 1);
      else robot.figures.apply(figures, -1);
    }
    const now = this.now();
    this.failures += tags.length;
    robot.lost = {
      count: (robot.lost?.count ?? 0) + tags.length,
      since: robot.lost?.since ?? now,
      until: now,
    };
    if (!robot.failing) {
      // Said once: while the disk is full, the service's own output may be on it too.
      this.logger.error(
        `question log: could not write ${tags.length} entries of ${robot.key} (${errorCode(error)}); ` +
          'entries are dropped and counted until writing works again',
        error,
      );
    }
    robot.failing = {
      count: (robot.failing?.count ?? 0) + tags.length,
      since: robot.failing?.since ?? now,
      until: now,
      code: robot.failing?.code ?? errorCode(error),
    };
  }

  private recovered(robot: RobotLog): void {
    const failing = robot.failing;
    robot.failing = null;
    if (!failing) return;
    this.logger.warn(
      `question log: ${failing.count} entries of ${robot.key} could not be written (${failing.code}) ` +
        `from ${new Date(failing.since).toISOString()} to ${new Date(failing.until).toISOString()}; ` +
        'writing works again',
    );
  }

  writeFailures(): number {
    return this.failures;
  }

  unwritten(log: LogKey): number {
    return this.robots.get(log)?.segments.unwritten() ?? 0;
  }

  lost(log: LogKey): LostEntries | null {
    return this.robots.get(log)?.lost ?? null;
  }

  async page(log: LogKey, request: PageRequest): Promise<PageResult> {
    const robot = await this.segmentsOf(log);
    // Lines not written yet are read from memory (segments.ts): no write and sync per page.
    return robot.segments.page(request);
  }

  async *slices(log: LogKey, from: number, to: number): AsyncIterable<LoggedQuestion[]> {
    const robot = await this.segmentsOf(log);
    await this.flush();
    yield* robot.segments.slices(from, to);
  }

  /** The rows of an export, made from the segment files a small chunk a turn (decision 202). */
  async *csvRows(log: LogKey, from: number, to: number): AsyncIterable<Uint8Array> {
    const robot = await this.segmentsOf(log);
    await this.flush();
    yield* exportRows(robot.segments.exportJob(from, to));
  }

  async clear(log: LogKey): Promise<number> {
    const robot = await this.segmentsOf(log);
    await robot.opened;
    return robot.reshape(async () => {
      await this.writes.settled();
      const removed = await robot.segments.clear();
      robot.figures.clear();
      robot.saved.clear();
      robot.figureBytes.clear();
      robot.unsaved = 0;
      await rm(robot.figuresDir, { recursive: true, force: true });
      return removed;
    });
  }

  async enforceRetention(log: LogKey, keepFrom: number, maxBytes: number): Promise<number> {
    const robot = await this.segmentsOf(log);
    await robot.opened;
    robot.maxBytes = maxBytes;
    robot.segments.segmentBytes = segmentBytesFor(maxBytes);
    await this.flush();
    return robot.reshape(async () => {
      const firstKept = Math.floor(keepFrom / DAY_MS);
      let removed = await robot.segments.dropDaysBefore(dayName(firstKept));
      for (const tables of [...robot.figures.days.values()]) {
        if (tables.day >= firstKept) continue;
        robot.figures.addRuleTotals(tables, -1);
        const rows = tables.inbox ?? (await this.closedRows(robot, tables));
        for (const [key, row] of rows) robot.figures.addToTotals(key, row, -1);
        robot.figures.days.delete(tables.day);
        robot.saved.delete(tables.day);
        robot.figureBytes.delete(tables.day);
        await rm(join(robot.figuresDir, `${dayName(tables.day)}.jsonl`), { force: true });
      }
      removed += await robot.segments.dropOldestOver(robot.entryBudget() ?? maxBytes);
      return removed;
    });
  }

  async size(log: LogKey): Promise<number> {
    const robot = await this.segmentsOf(log);
    await this.flush();
    return robot.segments.size();
  }

  async logs(): Promise<LogKey[]> {
    const keys = new Set(this.robots.keys());
    if (existsSync(this.root)) {
      for (const tenant of await readdir(this.root)) {
        const tenantDir = join(this.root, tenant);
        if (!statSync(tenantDir).isDirectory()) continue;
        for (const robot of await readdir(tenantDir)) {
          keys.add(`${decodeURIComponent(tenant)}/${decodeURIComponent(robot)}`);
        }
      }
    }
    return [...keys];
  }

  async marks(log: LogKey): Promise<InboxMark[]> {
    const path = join(this.robot(log).dir, MARKS_FILE);
    if (!existsSync(path)) return [];
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
      return Array.isArray(parsed) ? (parsed as InboxMark[]) : [];
    } catch (error) {
      this.logger.error(`could not read ${path}; the inbox shows dismissed groups again`, error);
      return [];
    }
  }

  async saveMarks(log: LogKey, marks: readonly InboxMark[]): Promise<void> {
    const dir = this.robot(log).dir;
    mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE });
    await writeFileAtomicAsync(join(dir, MARKS_FILE), Buffer.from(JSON.stringify(marks)));
  }

  /** Waits for the text filters of the segments closed so far (a bulk fill, tests). */
  async filtersBuilt(): Promise<void> {
    await this.flush();
    for (const robot of this.robots.values()) await robot.segments.filtersBuilt();
  }

  async close(): Promise<void> {
    clearInterval(this.checkpointTimer);
    await this.writes.stop();
    for (const robot of this.robots.values()) {
      await robot.segments.stopFilters();
      if (robot.opened && robot.unsaved > 0) await this.checkpoint(robot);
    }
    await this.writes.stop();
  }
}

/** A row of a day file into the day's tables (its inbox rows apart: marks may forget them). */
function loadRow(
  tables: DayTables,
  inbox: { key: string; row: InboxCounts }[],
  row: unknown[],
): void {
  switch (row[0]) {
    case 'r': {
      const [, ruleId, hits, chosen, fromMenu, recommended, lastHit] = row as [
        'r',
        string,
        number,
        number,
        number,
        number,
        number,
      ];
      tables.rules.set(ruleId, { hits, chosen, fromMenu, recommended, lastHit });
      break;
    }
    case 'p':
      tables.pairs.set(row[1] as string, row[2] as number);
      break;
    case 'q':
    case 'm':
      (row[0] === 'q' ? tables.questions : tables.missed).set(row[1] as string, {
        text: row[2] as string,
        count: row[3] as number,
      });
      break;
    case 'i':
      inbox.push(inboxRowOfLine(row as InboxLine));
      break;
    default:
      break;
  }
}
