/**
 * Server migration 17 (decision 204): a team server upgraded with its log. Two robots' logs,
 * written as the code before it wrote them (a log column, numbers shared by all logs, figures
 * upserted in the same transaction), are rewritten into the narrower table: every entry reads
 * back through every read, the figures are the rows they were, a page cursor given before the
 * upgrade still pages, new entries follow the old ones, and a row takes 10 bytes less.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../../electron/service/logger';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import type { LogFilter } from '../../electron/service/store/contract/question-log';
import { OUTCOMES, outcomeOf } from '../../electron/service/store/contract/question-log';
import { inTransaction, openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import {
  ENTRY_ROW_BYTES,
  PostgresQuestionLog,
} from '../../electron/service/store/postgres/question-log';
import {
  FIGURE_TABLES,
  PendingFigures,
  TOTAL_TABLES,
} from '../../electron/service/store/postgres/question-log-figures';
import { RuleNumbers, encodeStored } from '../../electron/service/store/postgres/question-log-row';
import { SERVER_MIGRATIONS } from '../../electron/service/store/postgres/server-migrations';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';
import { freshDatabase } from '../helpers/postgres';

const T0 = Date.UTC(2026, 10, 20, 9);
const LOGS = ['1/first', '1/second'] as const;
const PER_LOG = 3000;
/** What the code before counted an entry's row at (migration 17 lowers it to ENTRY_ROW_BYTES). */
const BASE_ROW_BYTES = 130;
const ruleId = (n: number) => `6f1c2a9e-52b4-4c1e-9a57-${String(n).padStart(12, '0')}`;

/** The base code's user and rule hash. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0 || 1;
}

/** Answered, RECOMMEND and missed asks of a few hundred users, in both languages. */
function entry(log: number, i: number): LoggedQuestion {
  const at = T0 + i * 20_000 + log;
  const userId = `user-${(i * 7919) % 311}`;
  if (i % 7 === 3) {
    return loggedQuestion(at, `parcel or gift ${i % 13}`, {
      userId,
      answerType: 'RECOMMEND',
      score: 0.6123456789,
      ruleId: null,
      recommended: [ruleId(i % 5), ruleId((i + 1) % 5)],
      runnerUp: 0.5,
    });
  }
  if (i % 5 === 4) {
    return loggedQuestion(at, `数字人民币 怎么办理 ${i % 17}`, {
      userId,
      module: 'NONE',
      score: 0,
      ruleId: null,
    });
  }
  return loggedQuestion(at, `where is my parcel ${i % 29}`, {
    userId,
    ruleId: ruleId(i % 11),
    score: 0.98,
    source: i % 50 === 0 ? 'try' : 'api',
  });
}

/** The logs as the code before migration 17 wrote them: interleaved flushes of 200 entries. */
async function writeAsBase(pool: Pool): Promise<LoggedQuestion[][]> {
  const rules = new RuleNumbers(pool);
  const written: LoggedQuestion[][] = LOGS.map(() => []);
  const makers = LOGS.map(() => figuresMaker());
  for (const key of LOGS) {
    await pool.query('INSERT INTO question_logs (log_key) VALUES ($1)', [key]);
  }
  for (let from = 0; from < PER_LOG; from += 200) {
    for (let log = 0; log < LOGS.length; log++) {
      const batch = Array.from({ length: 200 }, (_, k) => entry(log, from + k));
      await rules.number(batch);
      const lines = batch.map((e) => encodeStored(e, rules.numberOf));
      const figures = new PendingFigures();
      for (const e of batch) {
        const counted = makers[log]?.figuresOf(e);
        if (counted) figures.add(counted);
      }
      await inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO question_log_entries (log_id, at, outcome, user_hash, rule_hash, line)
           SELECT $1, * FROM unnest($2::bigint[], $3::smallint[], $4::int[], $5::int[], $6::text[])`,
          [
            log + 1,
            batch.map((e) => e.at),
            batch.map((e) => OUTCOMES.indexOf(outcomeOf(e)) + (e.source === 'try' ? 8 : 0)),
            batch.map((e) => hash32(e.userId)),
            batch.map((e) => (e.ruleId === null ? 0 : hash32(e.ruleId))),
            lines,
          ],
        );
        const bytes = lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1 + BASE_ROW_BYTES, 0);
        await client.query(
          'UPDATE question_logs SET entries = entries + $2, bytes = bytes + $3 WHERE log_id = $1',
          [log + 1, batch.length, bytes],
        );
        await figures.write(client, log + 1);
      });
      written[log]?.push(...batch);
    }
  }
  return written;
}

/** Every figure table's rows, in a fixed order. */
async function figureRows(pool: Pool): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {};
  for (const table of [...FIGURE_TABLES, ...TOTAL_TABLES]) {
    const { rows } = await pool.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`);
    all[table] = rows;
  }
  return all;
}

async function heapTupleBytes(pool: Pool): Promise<number> {
  await pool.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
  const { rows } = await pool.query<{ avg: string }>(
    `SELECT tuple_len::float8 / tuple_count AS avg FROM pgstattuple('question_log_entries')`,
  );
  return Number(rows[0]?.avg);
}

const newestFirst = (entries: readonly LoggedQuestion[]) => [...entries].reverse();

test('migration 17 rewrites a filled log narrower with every entry, figure and cursor kept (decision 204)', async () => {
  const pool = openPool({ url: await freshDatabase('qlog_narrow'), logger: silentLogger });
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
  try {
    await migrate(pool, silentLogger, undefined, SERVER_MIGRATIONS.slice(0, 16));
    const written = await writeAsBase(pool);
    const figuresBefore = await figureRows(pool);
    const tupleBefore = await heapTupleBytes(pool);
    const { rows: sizes } = await pool.query<{ bytes: string; entries: string }>(
      'SELECT bytes, entries FROM question_logs ORDER BY log_id',
    );
    // A page cursor as the code before gave it: the 100th newest entry of the second log.
    const { rows: cursorRows } = await pool.query<{ entry_id: string }>(
      'SELECT entry_id FROM question_log_entries WHERE log_id = 2 ORDER BY entry_id DESC OFFSET 99 LIMIT 1',
    );
    const oldCursor = String(cursorRows[0]?.entry_id);

    await migrate(pool, silentLogger);

    assert.deepEqual(await figureRows(pool), figuresBefore);
    // The row's columns before the line: 10 bytes fewer (no log column, no padding).
    assert.equal(Math.round(tupleBefore - (await heapTupleBytes(pool))), 10);
    const { rows: sizesAfter } = await pool.query<{ bytes: string; entries: string }>(
      'SELECT bytes, entries FROM question_logs ORDER BY log_id',
    );
    sizesAfter.forEach((row, i) => {
      assert.equal(Number(row.entries), PER_LOG);
      assert.equal(
        Number(row.bytes),
        Number(sizes[i]?.bytes) - PER_LOG * (BASE_ROW_BYTES - ENTRY_ROW_BYTES),
      );
    });

    const read = async (
      key: string,
      filter: Partial<LogFilter> = {},
      before: string | null = null,
    ) =>
      log.page(key, {
        filter: { from: 0, to: Number.MAX_SAFE_INTEGER, ...filter },
        before,
        offset: 0,
        limit: 100,
      });
    for (const [i, key] of LOGS.entries()) {
      await log.open(key, figuresMaker().replay);
      const all = written[i] ?? [];
      const sliced: LoggedQuestion[] = [];
      for await (const slice of log.slices(key, 0, Number.MAX_SAFE_INTEGER)) sliced.push(...slice);
      assert.deepEqual(sliced, all);
      const first = await read(key);
      assert.deepEqual(first.entries, newestFirst(all).slice(0, 100));
      assert.equal(first.total, PER_LOG);
      const oldest = await log.page(key, {
        filter: { from: 0, to: Number.MAX_SAFE_INTEGER },
        before: null,
        offset: PER_LOG - 50,
        limit: 100,
      });
      assert.deepEqual(oldest.entries, newestFirst(all.slice(0, 50)));
      const user = await read(key, { userId: 'user-7' });
      assert.deepEqual(user.entries, newestFirst(all.filter((e) => e.userId === 'user-7')));
      const rule = await read(key, { ruleId: ruleId(3) });
      assert.deepEqual(
        rule.entries,
        newestFirst(all.filter((e) => e.ruleId === ruleId(3))).slice(0, 100),
      );
      assert.equal(rule.total, all.filter((e) => e.ruleId === ruleId(3)).length);
      const text = await read(key, { text: '人民币 怎么办理 16' });
      assert.deepEqual(
        text.entries,
        newestFirst(all.filter((e) => e.question === '数字人民币 怎么办理 16')).slice(0, 100),
      );
    }
    // The cursor of before pages on from its entry.
    const second = written[1] ?? [];
    assert.deepEqual(
      (await read(LOGS[1], {}, oldCursor)).entries,
      newestFirst(second).slice(100, 200),
    );

    // New entries come after the moved ones, in both logs' pages.
    const added = [entry(0, PER_LOG), entry(0, PER_LOG + 1)];
    for (const e of added) log.append(LOGS[0], e, null);
    await log.flush();
    assert.deepEqual(
      (await read(LOGS[0])).entries.slice(0, 4),
      newestFirst([...(written[0] ?? []).slice(-2), ...added]),
    );
    assert.deepEqual((await read(LOGS[1])).entries, newestFirst(second).slice(0, 100));
    // The budget purges one log to nothing and leaves the other whole.
    assert.equal(await log.enforceRetention(LOGS[0], 0, 0), PER_LOG + added.length);
    assert.equal(await log.size(LOGS[0]), 0);
    assert.equal((await read(LOGS[1])).total, PER_LOG);
  } finally {
    await log.close();
    await pool.end();
  }
});
