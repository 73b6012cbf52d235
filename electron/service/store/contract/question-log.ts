/**
 * Where the question log is kept (docs/question-log.md). The embedded implementation writes
 * append-only day files beside the database (store/embedded/question-log/); a server store can keep it
 * in a table. Unlike the KbStore, appends are not durable when they return: they are buffered
 * and made durable within about a second (`flush`).
 * @module
 */
import type { LoggedQuestion } from '../../question-log-types';

/** A robot's log: `tenantId/robotId`. */
export type LogKey = string;

/**
 * What the inbox remembers of a group: dismissed or handled at `at`, or (`fallback`) made a test
 * case that expects the fallback: its fallback answers are no miss any more.
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

export interface QuestionLogRepository {
  /** Entries dropped because they could not be written (a full disk, a database away). */
  readonly failedWrites?: number;
  /** Buffers an entry; durable at the next flush (at most about a second later). */
  append(log: LogKey, entry: LoggedQuestion): void;
  /** Writes and syncs what is buffered. */
  flush(): Promise<void>;
  /** Every entry of the log with `at` in [from, to), oldest first (unflushed ones included). */
  read(log: LogKey, from: number, to: number): Promise<LoggedQuestion[]>;
  /** Deletes every entry of the log; returns how many there were. */
  clear(log: LogKey): Promise<number>;
  /**
   * Drops entries older than `keepFrom` and, while the log is over `maxBytes`, the oldest ones
   * (whole days); returns how many entries went.
   */
  enforceRetention(log: LogKey, keepFrom: number, maxBytes: number): Promise<number>;
  /** Bytes the log takes on disk. */
  size(log: LogKey): Promise<number>;
  /** The logs that exist. */
  logs(): Promise<LogKey[]>;
  marks(log: LogKey): Promise<InboxMark[]>;
  /** Replaces the marks of the log (durable when it returns). */
  saveMarks(log: LogKey, marks: readonly InboxMark[]): Promise<void>;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}
