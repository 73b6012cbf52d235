/**
 * Fills a robot's question log for the volume bench (question-log-volume.ts) through the
 * service's own recorder (`QuestionLog.record`), in-process, on the data directory of a stopped
 * service (the team server's database: question-log-pg-fill.ts), and says how the editor reads it.
 * @module
 */
import { silentLogger } from '../../electron/service/logger';
import { QuestionLog } from '../../electron/service/question-log/question-log';
import type { RobotKey } from '../../electron/service/store/contract/records';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { consoleClient } from '../helpers/console-client';
import type { ChildService } from '../helpers/child-service';
import pg from 'pg';
import { fillPostgresLog } from './question-log-pg-fill';
import { liveBytes } from './question-log-pg-reads';
import { traffic } from './question-log-traffic';
import type { TrafficRule } from './question-log-traffic';

type Api = ReturnType<typeof consoleClient>;

export interface FillOptions {
  dataDir: string;
  database: string | undefined;
  robot: RobotKey;
  rules: readonly TrafficRule[];
  asks: number;
  end: number;
}

export interface FilledLog {
  /** Whether the service is ready to be read (its figures built). */
  ready(api: Api, R: string): Promise<boolean>;
  firstPage(api: Api, R: string): Promise<unknown>;
  oldestPage(api: Api, R: string): Promise<unknown>;
  search(api: Api, R: string): Promise<unknown>;
  /** A user's questions. */
  userSearch(api: Api, R: string): Promise<unknown>;
  /** A text no entry holds: the whole log read. */
  missingText(api: Api, R: string): Promise<unknown>;
  /**
   * Waits for the robot's size budget to be enforced: on the team server, until the log counts
   * no more than `budgetBytes`, then its table vacuumed (as autovacuum would).
   */
  enforce(api: Api, R: string, service: ChildService, budgetBytes: number): Promise<void>;
  /** Bytes of the team server's log table. */
  tableBytes(): Promise<number>;
  /** Entries in the team server's log table. */
  entries(): Promise<number>;
  /**
   * The team server's entries' live bytes (rows and index entries in use, pgstattuple): its
   * files never shrink after a DELETE (the space is reused by later entries), so the budget is
   * held by what they keep, not by their size.
   */
  liveBytes(): Promise<number>;
}

/** The embedded store: every ask through the recorder, in-process. */
async function recordInProcess(options: FillOptions): Promise<void> {
  const repository = new DayFileLog({
    dataDir: options.dataDir,
    logger: silentLogger,
    now: () => options.end,
    // Figures saved once, at the end (the same figures): a checkpoint every 50,000 entries
    // rewrote the growing day's file some twenty times over a million asks.
    checkpointEntries: Number.MAX_SAFE_INTEGER,
    checkpointMs: Number.MAX_SAFE_INTEGER,
  });
  const log = new QuestionLog({
    repository,
    now: () => options.end,
    logger: silentLogger,
    robot: () => ({
      retentionDays: 90,
      maxBytes: 1e12,
      lowScore: 0.97,
      evidenceScore: 0.705,
      margin: 0.1,
    }),
  });
  let n = 0;
  for (const { entry, items } of traffic(options.rules, options.asks, options.end)) {
    log.record(options.robot, entry, items);
    if (++n % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    if (n % 100_000 === 0) await repository.flush();
  }
  // The closed segments' text filters, as the service makes them (a search skips by them).
  await repository.filtersBuilt();
  await log.close();
}

export async function fillLog(options: FillOptions): Promise<FilledLog> {
  if (options.database) {
    // The team server: raw entries written, figures built by the service's upgrade path.
    const times = await fillPostgresLog({ ...options, database: options.database });
    console.error(
      `  entries written in ${Math.round(times.insertMs / 1000)} s, ` +
        `moved with their figures in ${Math.round(times.rebuildMs / 1000)} s`,
    );
  } else {
    await recordInProcess(options);
  }
  return filledReads(options.database);
}

/** How the editor reads a log filled before (a kept data directory, or the team server's). */
export function filledReads(database: string | undefined): FilledLog {
  let total = 0;
  return {
    // The service opens the logs as it starts: a read waits for it.
    ready: async (api, R) => {
      await api.ok('GET', `${R}/dashboard?days=1`);
      return true;
    },
    firstPage: async (api, R) => {
      const page = await api.ok<{ total: number | null }>('GET', `${R}/question-log?limit=50`);
      total = page.total ?? 0;
      return page;
    },
    oldestPage: (api, R) =>
      api.ok('GET', `${R}/question-log?limit=50&offset=${Math.max(0, total - 50)}`),
    search: (api, R) => api.ok('GET', `${R}/question-log?limit=50&outcome=fallback&q=parcel`),
    userSearch: (api, R) => api.ok('GET', `${R}/question-log?limit=50&userId=user-4242`),
    missingText: (api, R) => api.ok('GET', `${R}/question-log?limit=50&q=nowhere-to-be-found`),
    enforce: async (_api, _R, _service, budgetBytes) => {
      if (!database) return new Promise((resolve) => setTimeout(resolve, 5000));
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      try {
        const counted = async () =>
          Number(
            (await client.query<{ bytes: string }>('SELECT max(bytes) AS bytes FROM question_logs'))
              .rows[0]?.bytes ?? 0,
          );
        const end = Date.now() + 300_000;
        while ((await counted()) > budgetBytes && Date.now() < end)
          await new Promise((resolve) => setTimeout(resolve, 500));
        await client.query('VACUUM question_log_entries');
      } finally {
        await client.end();
      }
    },
    liveBytes: async () => {
      if (!database) return 0;
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      try {
        return await liveBytes(client);
      } finally {
        await client.end();
      }
    },
    entries: async () => {
      if (!database) return 0;
      const again = openPool({ url: database, logger: silentLogger });
      try {
        const { rows } = await again.query<{ count: string }>(
          'SELECT count(*) AS count FROM question_log_entries',
        );
        return Number(rows[0]?.count ?? 0);
      } finally {
        await again.end();
      }
    },
    tableBytes: async () => {
      if (!database) return 0;
      const again = openPool({ url: database, logger: silentLogger });
      try {
        // The entries with their indexes (the figures' tables apart: they do not grow with it).
        const { rows } = await again.query<{ bytes: string }>(
          `SELECT pg_total_relation_size('question_log_entries') AS bytes`,
        );
        return Number(rows[0]?.bytes ?? 0);
      } finally {
        await again.end();
      }
    },
  };
}
