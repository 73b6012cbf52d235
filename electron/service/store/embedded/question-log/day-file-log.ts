/**
 * The embedded question log: append-only day files beside the database, one JSON array per line,
 * buffered in memory and written and fsynced once a second (docs/question-log.md).
 *
 * `<data>/question-log/<tenantId>/<robotId>/YYYY-MM-DD.jsonl` (UTC days) and `marks.json` (the
 * inbox's dismissed and handled groups). A crash loses at most the last second of log lines; the
 * database is untouched by the log. A line cut short by a crash is skipped when read.
 * @module
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../logger';
import type { LoggedQuestion } from '../../../question-log-types';
import type { InboxMark, LogKey, QuestionLogRepository } from '../../contract/question-log';
import { DIRECTORY_MODE, FILE_MODE, writeFileAtomicAsync } from '../../../files/durable-fs';
import { FlushSchedule } from '../../sql/flush-schedule';
import { DAY_MS, clampTime, dayOf, decode, decodeRow, encode } from '../../sql/question-log-line';

export const LOG_DIR = 'question-log';
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const MARKS_FILE = 'marks.json';

export interface DayFileLogOptions {
  dataDir: string;
  logger: Logger;
  /** How often buffered lines are written and synced (ms). */
  flushMs?: number;
}

export class DayFileLog implements QuestionLogRepository {
  private readonly root: string;
  private readonly logger: Logger;
  /** Lines not yet handed to a write, by file path. */
  private buffer = new Map<string, string[]>();
  private readonly writes: FlushSchedule;
  /** Directories known to exist. */
  private readonly made = new Set<string>();

  constructor(options: DayFileLogOptions) {
    this.root = join(options.dataDir, LOG_DIR);
    this.logger = options.logger;
    this.writes = new FlushSchedule(() => this.writeBuffered(), options.flushMs);
  }

  private dirOf(log: LogKey): string {
    const [tenantId = '', robotId = ''] = log.split('/');
    return join(this.root, encodeURIComponent(tenantId), encodeURIComponent(robotId));
  }

  /** Entries dropped because they could not be written (the metrics read it). */
  failedWrites = 0;

  /** The file of the last entry appended, with its day: the next entry is nearly always there. */
  private last = { log: '', dayStart: 0, path: '' };

  private fileOf(log: LogKey, at: number): string {
    const last = this.last;
    if (log === last.log && at >= last.dayStart && at < last.dayStart + DAY_MS) return last.path;
    const path = join(this.dirOf(log), `${dayOf(at)}.jsonl`);
    this.last = { log, dayStart: at - (at % DAY_MS), path };
    return path;
  }

  append(log: LogKey, entry: LoggedQuestion): void {
    const path = this.fileOf(log, entry.at);
    const lines = this.buffer.get(path);
    if (lines) lines.push(encode(entry));
    else this.buffer.set(path, [encode(entry)]);
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  private async writeBuffered(): Promise<void> {
    if (this.buffer.size === 0) return;
    const batch = this.buffer;
    this.buffer = new Map();
    for (const [path, lines] of batch) {
      try {
        await this.appendLines(path, lines);
      } catch (error) {
        // The log is a record of traffic, not data: lines that cannot be written (a full disk)
        // are dropped rather than held in memory without bound.
        this.logger.error(`could not write ${lines.length} question log line(s) to ${path}`, error);
        this.failedWrites += lines.length;
      }
    }
  }

  /** Nothing here waits on the disk in the event loop: every call runs on libuv's threads. */
  private async appendLines(path: string, lines: string[]): Promise<void> {
    const dir = join(path, '..');
    if (!this.made.has(dir)) {
      await mkdir(dir, { recursive: true, mode: DIRECTORY_MODE });
      this.made.add(dir);
    }
    const handle = await open(path, 'a', FILE_MODE);
    let isNew: boolean;
    try {
      isNew = (await handle.stat()).size === 0;
      await handle.write(`${lines.join('\n')}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (isNew) await syncDirectory(dir);
  }

  /** The log's day files, oldest first. */
  private days(log: LogKey): { day: string; path: string }[] {
    const dir = this.dirOf(log);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((name) => DAY_FILE.exec(name)?.[1])
      .filter((day): day is string => day !== undefined)
      .sort()
      .map((day) => ({ day, path: join(dir, `${day}.jsonl`) }));
  }

  async read(log: LogKey, from: number, to: number): Promise<LoggedQuestion[]> {
    // Written first, then read in one turn: nothing is between the files and the buffer.
    await this.flush();
    const first = dayOf(clampTime(from));
    const last = dayOf(clampTime(to));
    const entries: LoggedQuestion[] = [];
    const take = (line: string) => {
      if (line.length === 0) return;
      const entry = decode(line);
      if (entry && entry.at >= from && entry.at < to) entries.push(entry);
    };
    for (const { day, path } of this.days(log)) {
      if (day < first || day > last) continue;
      const text = readFileSync(path, 'utf8');
      // One parse of the whole day is several times faster than a parse per line; a day with a
      // damaged line (a crash mid-write) is read line by line instead.
      let rows: unknown[] | null = null;
      try {
        rows = JSON.parse(`[${text.trimEnd().replaceAll('\n', ',')}]`) as unknown[];
      } catch {
        for (const line of text.split('\n')) take(line);
      }
      for (const row of rows ?? []) {
        const entry = decodeRow(row);
        if (entry && entry.at >= from && entry.at < to) entries.push(entry);
      }
    }
    const dir = this.dirOf(log);
    for (const [path, lines] of this.buffer) {
      if (path.startsWith(dir)) for (const line of lines) take(line);
    }
    // Day files are in order, and lines within a file nearly so (asks finish out of order).
    return entries.sort((a, b) => a.at - b.at);
  }

  private dropBuffered(log: LogKey): number {
    const dir = this.dirOf(log);
    let dropped = 0;
    for (const [path, lines] of this.buffer) {
      if (!path.startsWith(dir)) continue;
      dropped += lines.length;
      this.buffer.delete(path);
    }
    return dropped;
  }

  async clear(log: LogKey): Promise<number> {
    await this.writes.settled();
    let removed = this.dropBuffered(log);
    for (const { path } of this.days(log)) {
      removed += countLines(readFileSync(path, 'utf8'));
      rmSync(path, { force: true });
    }
    return removed;
  }

  async enforceRetention(log: LogKey, keepFrom: number, maxBytes: number): Promise<number> {
    await this.flush();
    const firstKept = dayOf(keepFrom);
    let removed = 0;
    const kept: { path: string; bytes: number }[] = [];
    for (const { day, path } of this.days(log)) {
      if (day < firstKept) {
        removed += countLines(readFileSync(path, 'utf8'));
        rmSync(path, { force: true });
      } else {
        kept.push({ path, bytes: statSync(path).size });
      }
    }
    let total = kept.reduce((sum, file) => sum + file.bytes, 0);
    // Whole days go, oldest first; the newest day stays even when it alone is over the size.
    while (total > maxBytes && kept.length > 1) {
      const oldest = kept.shift();
      if (!oldest) break;
      removed += countLines(readFileSync(oldest.path, 'utf8'));
      rmSync(oldest.path, { force: true });
      total -= oldest.bytes;
    }
    return removed;
  }

  async size(log: LogKey): Promise<number> {
    await this.flush();
    return this.days(log).reduce((sum, { path }) => sum + statSync(path).size, 0);
  }

  async logs(): Promise<LogKey[]> {
    if (!existsSync(this.root)) return [];
    const keys: LogKey[] = [];
    for (const tenant of readdirSync(this.root)) {
      const tenantDir = join(this.root, tenant);
      if (!statSync(tenantDir).isDirectory()) continue;
      for (const robot of readdirSync(tenantDir)) {
        keys.push(`${decodeURIComponent(tenant)}/${decodeURIComponent(robot)}`);
      }
    }
    return keys;
  }

  async marks(log: LogKey): Promise<InboxMark[]> {
    const path = join(this.dirOf(log), MARKS_FILE);
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
    const dir = this.dirOf(log);
    mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE });
    await writeFileAtomicAsync(join(dir, MARKS_FILE), Buffer.from(JSON.stringify(marks)));
  }

  close(): Promise<void> {
    return this.writes.stop();
  }
}

/** fsyncs a directory so that a new day file survives power loss (where the platform can). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open or fsync a directory (durable-fs.ts); the lines are synced.
  }
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
