/**
 * The team server's export made by a worker thread on a connection of its own (decision 193):
 * its bytes are the event loop's, a download closed midway ends the worker's session, and a
 * database fault midway ends the export with the store's `storage-unavailable`. Real PostgreSQL;
 * the worker runs from its TypeScript source. No clock: the waits for a session to go are polls
 * bounded by a minute (the server ends a session as soon as its socket closes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { silentLogger } from '../../electron/service/logger';
import { csvRow } from '../../electron/service/question-log-types';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import { StorageUnavailable } from '../../electron/service/store/contract/errors';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import type { ExportOptions } from '../../electron/service/store/postgres/question-log-export';
import { EXPORT_APPLICATION_NAME } from '../../electron/service/store/postgres/question-log-export';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';
import { freshDatabase } from '../helpers/postgres';

const T0 = Date.UTC(2026, 10, 28, 9);
const KEY = '1/export-worker';
/** Enough entries that the worker is still at work (held by the response) after a chunk. */
const ENTRIES = 40_000;
const QUESTIONS = [
  'How do I reset my password',
  'He said "hi", then left',
  '=SUM(A1:A9) is not a formula here',
  '+1 and -1 and @someone',
  'two\r\nlines, and a tab\there',
  '怎么重置密码？',
  'emoji 🙂 and a lone \\ backslash',
];

/** A varied entry: text needing quotes, rules of many numbers, recommendations, the try pane. */
function entryAt(i: number): LoggedQuestion {
  const kind = i % 5;
  return loggedQuestion(T0 + i * 7, `${QUESTIONS[i % QUESTIONS.length]} ${i}`, {
    userId: `user-${i % 211}`,
    ruleId: kind === 1 || kind === 2 ? null : `rule-${i % 331}`,
    ...(kind === 1
      ? {
          answerType: 'RECOMMEND',
          recommended: [`rule-${(i * 3) % 331}`, `rule-${(i * 5) % 331}`],
          runnerUp: 0.41,
        }
      : {}),
    ...(kind === 2 ? { answerType: 'BESTMATCH', module: 'NONE', score: 0 } : {}),
    ...(kind === 3 ? { source: 'try', version: 12 } : {}),
    ...(kind === 4 ? { chosenFrom: `question ${i - 1}`, menuEntry: 2 } : {}),
    score: kind === 2 ? 0 : (i % 1000) / 1000,
  });
}

const text = (chunks: readonly Uint8Array[]) => Buffer.concat(chunks).toString('utf8');

/** The export's sessions of this database (the worker's connection). */
async function exportSessions(admin: pg.Client): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1`,
    [EXPORT_APPLICATION_NAME],
  );
  return rows.map((row) => row.pid);
}

/** Polls until the database holds no export session (a minute at most: the machine is busy). */
async function noExportSessionLeft(admin: pg.Client): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if ((await exportSessions(admin)).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the export's session is still open: ${(await exportSessions(admin)).join(', ')}`);
}

describe('the team server export in a worker thread (decision 193)', () => {
  let url: string;
  let pool: Pool;
  let admin: pg.Client;
  /** What the event loop makes of every entry in [from, to): the bytes before decision 193. */
  let loopText: (from: number, to: number) => Promise<string>;

  before(async () => {
    url = await freshDatabase('qlog_export_worker');
    pool = openPool({ url, logger: silentLogger });
    await migrate(pool, silentLogger);
    // Written by one node, read by another: the reader learns every rule's number as it reads.
    const writer = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    await writer.open(KEY, figuresMaker().replay);
    for (let i = 0; i < ENTRIES; i++) {
      writer.append(KEY, entryAt(i), null);
      // Written a few thousand a statement: well inside the statement timeout on a busy machine.
      if (i % 5000 === 4999) await writer.flush();
    }
    await writer.flush();
    await writer.close();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    loopText = async (from, to) => {
      const reader = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
      let csv = '';
      for await (const slice of reader.slices(KEY, from, to))
        for (const entry of slice) csv += `${csvRow(entry)}\r\n`;
      await reader.close();
      return csv;
    };
  });
  after(async () => {
    await admin.end();
    await pool.end();
  });

  /** A node of its own (nothing learnt yet) exporting with `options`. */
  const nodeWith = (options: ExportOptions) =>
    new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000, export: options });

  test('the rows are byte for byte those made on the event loop, by a worker on its own session', async () => {
    const whole = await loopText(0, Number.MAX_SAFE_INTEGER);
    assert.equal(whole.split('\r\n').length - 1 >= ENTRIES, true, 'a row an entry at least');
    for (const headRows of [0, 700]) {
      await noExportSessionLeft(admin);
      const node = nodeWith({ headRows });
      try {
        const chunks: Uint8Array[] = [];
        let sessionsSeen = 0;
        for await (const chunk of node.csvRows(KEY, 0, Number.MAX_SAFE_INTEGER)) {
          chunks.push(chunk);
          // Past the head, the rows come from the worker, which holds its session meanwhile.
          if (sessionsSeen === 0 && chunks.length > 1)
            sessionsSeen = (await exportSessions(admin)).length;
        }
        assert.equal(sessionsSeen, 1, `one export session (head of ${headRows})`);
        assert.equal(text(chunks), whole, `the same bytes with a head of ${headRows}`);
      } finally {
        await node.close();
      }
    }
    // A period: its entries alone, the same way.
    const [from, to] = [T0 + 3_001 * 7, T0 + 31_000 * 7];
    const node = nodeWith({ headRows: 0 });
    try {
      const chunks: Uint8Array[] = [];
      for await (const chunk of node.csvRows(KEY, from, to)) chunks.push(chunk);
      assert.equal(text(chunks), await loopText(from, to));
    } finally {
      await node.close();
    }
    await noExportSessionLeft(admin);
  });

  test('a download closed midway ends the worker and frees its connection', async () => {
    const node = nodeWith({ headRows: 0 });
    try {
      const rows = node.csvRows(KEY, 0, Number.MAX_SAFE_INTEGER)[Symbol.asyncIterator]();
      const first = await rows.next();
      assert.equal(first.done, false);
      assert.equal((await exportSessions(admin)).length, 1, 'the worker holds its session');
      // What the response does when its client goes away (Readable.from ends the iterator).
      await rows.return?.();
      await noExportSessionLeft(admin);
    } finally {
      await node.close();
    }
  });

  test('a database fault midway ends the export with storage-unavailable and its session', async () => {
    const node = nodeWith({ headRows: 0 });
    try {
      const rows = node.csvRows(KEY, 0, Number.MAX_SAFE_INTEGER)[Symbol.asyncIterator]();
      assert.equal((await rows.next()).done, false);
      const [pid] = await exportSessions(admin);
      assert.ok(pid, 'the worker holds its session');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      let failure: unknown = null;
      let bytes = 0;
      try {
        for (let next = await rows.next(); !next.done; next = await rows.next())
          bytes += next.value.length;
      } catch (error) {
        failure = error;
      }
      assert.ok(
        failure instanceof StorageUnavailable,
        `the export fails as the store does when its database is away (got ${String(failure)}, ${bytes} bytes after the fault)`,
      );
      assert.doesNotMatch((failure as Error).message, /terminat|administrator|at .*\.ts/);
      await noExportSessionLeft(admin);
    } finally {
      await node.close();
    }
  });
});
