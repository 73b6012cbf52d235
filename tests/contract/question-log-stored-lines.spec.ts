/**
 * The team server's stored lines (decisions 166-167, server migration 15): shorter lines (no
 * time, rule ids as numbers, default tail left out) and rows the base code wrote read back alike
 * through every read; migration 2's emptied table truncated, and only when it is empty.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../../electron/service/logger';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import type {
  LogFilter,
  QuestionLogRepository,
} from '../../electron/service/store/contract/question-log';
import { OUTCOMES, outcomeOf } from '../../electron/service/store/contract/question-log';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import {
  ENTRY_ROW_BYTES,
  PostgresQuestionLog,
} from '../../electron/service/store/postgres/question-log';
import { SERVER_MIGRATIONS } from '../../electron/service/store/postgres/server-migrations';
import { encode } from '../../electron/service/store/sql/question-log-line';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';
import { freshDatabase } from '../helpers/postgres';

const T0 = Date.UTC(2026, 10, 20, 9);
const RULE_A = '6f1c2a9e-52b4-4c1e-9a57-0d1b8e2f3a41';
const RULE_B = 'c0ffee00-1234-4abc-8def-0123456789ab';
const RULE_C = 'plain-rule-id';
const KEY = '1/upgrade';
const BASE_ROW_BYTES = 195;

/** One entry of every shape a line has: answered, RECOMMEND (runner-up), fallback, menu, try. */
function shapes(at: number, tag: string): LoggedQuestion[] {
  return [
    loggedQuestion(at, `where is my parcel ${tag}`, { userId: `user-${tag}`, ruleId: RULE_A }),
    loggedQuestion(at + 1, `parcel or gift ${tag}`, {
      userId: 'user-7',
      answerType: 'RECOMMEND',
      score: 0.6123456789012345,
      ruleId: null,
      recommended: [RULE_B, RULE_A, RULE_C],
      runnerUp: 0.5432,
    }),
    loggedQuestion(at + 2, `数字人民币 "quoted" ${tag}`, {
      userId: 'user-7',
      answerType: 'BESTMATCH',
      module: 'NONE',
      score: 0,
      ruleId: null,
    }),
    loggedQuestion(at + 3, `2 ${tag}`, { ruleId: RULE_C, menuEntry: 2, chosenFrom: 'menu?' }),
    loggedQuestion(at + 4, `tried ${tag}`, { source: 'try', version: 3, ruleId: RULE_B }),
    loggedQuestion(at + 5, `chosen ${tag}`, {
      ruleId: RULE_B,
      chosenFrom: `parcel or gift ${tag}`,
    }),
  ];
}

/** The base code's (fdf6316) user and rule hash. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0 || 1;
}

/** Rows as the base code's `insertEntries` wrote them: the shared line, its time and ids in it. */
async function writeAsBase(pool: Pool, entries: readonly LoggedQuestion[]): Promise<void> {
  await pool.query('INSERT INTO question_logs (log_key) VALUES ($1)', [KEY]);
  const lines = entries.map(encode);
  await pool.query(
    `INSERT INTO question_log_entries (log_id, at, outcome, user_hash, rule_hash, line)
     SELECT 1, * FROM unnest($1::bigint[], $2::smallint[], $3::int[], $4::int[], $5::text[])`,
    [
      entries.map((e) => e.at),
      entries.map((e) => OUTCOMES.indexOf(outcomeOf(e)) + (e.source === 'try' ? 8 : 0)),
      entries.map((e) => hash32(e.userId)),
      entries.map((e) => (e.ruleId === null ? 0 : hash32(e.ruleId))),
      lines,
    ],
  );
  // What the base code counted an entry's row at (migration 16 lowers it to ENTRY_ROW_BYTES).
  const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1 + BASE_ROW_BYTES, 0);
  await pool.query('UPDATE question_logs SET entries = $1, bytes = $2', [entries.length, bytes]);
}

async function page(log: QuestionLogRepository, filter: Partial<LogFilter> = {}) {
  const result = await log.page(KEY, {
    filter: { from: 0, to: Number.MAX_SAFE_INTEGER, ...filter },
    before: null,
    offset: 0,
    limit: 100,
  });
  return result.entries;
}

const newestFirst = (entries: readonly LoggedQuestion[]) => [...entries].reverse();

test('rows the base code wrote read back alike after migration 15, beside shorter new lines', async () => {
  const pool = openPool({ url: await freshDatabase('qlog_lines'), logger: silentLogger });
  try {
    await migrate(pool, silentLogger, undefined, SERVER_MIGRATIONS.slice(0, 14));
    const old = shapes(T0, 'old');
    await writeAsBase(pool, old);
    await migrate(pool, silentLogger);

    // A second node that has never seen the numbers reads what the first wrote.
    const writer = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    const reader = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    try {
      await writer.open(KEY, figuresMaker().replay);
      // Migration 16 counts the rows written before at what an entry now takes (decision 178).
      const oldLines = old.map(encode);
      assert.equal(
        await writer.size(KEY),
        oldLines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1 + ENTRY_ROW_BYTES, 0),
      );
      const added = shapes(T0 + 1000, 'new');
      for (const entry of added) writer.append(KEY, entry, null);
      await writer.flush();
      const all = [...old, ...added];

      for (const log of [writer, reader]) {
        assert.deepEqual(await page(log), newestFirst(all));
        const sliced: LoggedQuestion[] = [];
        for await (const slice of log.slices(KEY, 0, Number.MAX_SAFE_INTEGER)) {
          sliced.push(...slice);
        }
        assert.deepEqual(sliced, all);
        assert.deepEqual(
          await page(log, { ruleId: RULE_B }),
          newestFirst(all.filter((e) => e.ruleId === RULE_B)),
        );
        assert.deepEqual(
          await page(log, { userId: 'user-7' }),
          newestFirst(all.filter((e) => e.userId === 'user-7')),
        );
        assert.deepEqual(
          (await page(log, { text: '"QUOTED"' })).map((e) => e.question),
          ['数字人民币 "quoted" new', '数字人民币 "quoted" old'],
        );
        assert.deepEqual(
          (await page(log, { text: 'user-new' })).map((e) => e.question),
          ['where is my parcel new'],
        );
      }

      // The new rows' lines hold neither the time (the `at` column) nor a rule's id.
      const { rows } = await pool.query<{ at: string; line: string }>(
        'SELECT at, line FROM question_log_entries WHERE at >= $1 ORDER BY entry_id',
        [T0 + 1000],
      );
      assert.equal(rows.length, added.length);
      for (const row of rows) {
        assert.ok(!row.line.includes(row.at), row.line);
        for (const id of [RULE_A, RULE_B, RULE_C]) assert.ok(!row.line.includes(id), row.line);
      }
      const stored = rows.reduce((sum, row) => sum + Buffer.byteLength(row.line), 0);
      const shared = added.reduce((sum, e) => sum + Buffer.byteLength(encode(e)), 0);
      assert.ok(stored < shared * 0.6, `stored ${stored} bytes against ${shared}`);
      // The log's size counts the lines as stored, so the budget's purges take them off exactly.
      assert.ok((await writer.enforceRetention(KEY, 0, 0)) === all.length);
      assert.equal(await writer.size(KEY), 0);
    } finally {
      await writer.close();
      await reader.close();
    }
  } finally {
    await pool.end();
  }
});

const relationBytes = async (pool: Pool) =>
  Number(
    (await pool.query<{ bytes: string }>("SELECT pg_relation_size('question_log') AS bytes"))
      .rows[0]?.bytes,
  );

/** Migration 2's table as an older version left it: `moved` rows deleted, `kept` not yet. */
async function oldTable(name: string, moved: number, kept: number): Promise<Pool> {
  const pool = openPool({ url: await freshDatabase(name), logger: silentLogger });
  await migrate(pool, silentLogger, undefined, SERVER_MIGRATIONS.slice(0, 14));
  // Its files stay as the delete left them (no vacuum truncates them meanwhile).
  await pool.query('ALTER TABLE question_log SET (autovacuum_enabled = false)');
  const entries = Array.from({ length: moved + kept }, (_, i) =>
    loggedQuestion(T0 + i, `question ${i}`, { userId: `user-${i}`, ruleId: RULE_A }),
  );
  await pool.query(
    `INSERT INTO question_log (log_key, at, line) SELECT $1, * FROM unnest($2::bigint[], $3::text[])`,
    [KEY, entries.map((e) => e.at), entries.map(encode)],
  );
  await pool.query(
    'DELETE FROM question_log WHERE entry_id IN (SELECT entry_id FROM question_log ORDER BY entry_id LIMIT $1)',
    [moved],
  );
  return pool;
}

test('migration 15 truncates the emptied table of migration 2, and only an empty one (decision 167)', async () => {
  const emptied = await oldTable('qlog_emptied', 3000, 0);
  try {
    assert.ok((await relationBytes(emptied)) > 100_000);
    await migrate(emptied, silentLogger);
    assert.equal(await relationBytes(emptied), 0);
  } finally {
    await emptied.end();
  }

  const waiting = await oldTable('qlog_waiting', 3000, 2500);
  try {
    await migrate(waiting, silentLogger);
    const count = async () =>
      Number((await waiting.query('SELECT count(*) AS n FROM question_log')).rows[0]?.n);
    assert.equal(await count(), 2500, 'rows not moved stay');
    // The node that moves the last of them truncates it (the move takes 2,000 a transaction).
    const log = new PostgresQuestionLog({ pool: waiting, logger: silentLogger, flushMs: 60_000 });
    try {
      await log.open(KEY, figuresMaker().replay);
      assert.equal(await count(), 0);
      assert.equal(await relationBytes(waiting), 0);
      const entries = await page(log);
      assert.equal(entries.length, 100);
      assert.equal(entries[0]?.question, 'question 5499');
      assert.equal(entries[0]?.ruleId, RULE_A);
    } finally {
      await log.close();
    }
  } finally {
    await waiting.end();
  }
});
