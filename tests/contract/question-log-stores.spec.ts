/**
 * The question log of both stores held to the same behaviour: the embedded day files and the
 * team server's table (a real PostgreSQL, tests/helpers/postgres.ts) are given the same entries
 * and must answer alike; the table is shared by the nodes of a team server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import { SERVER_MIGRATIONS } from '../../electron/service/store/postgres/server-migrations';
import type {
  QuestionLogRepository,
  RuleRow,
} from '../../electron/service/store/contract/question-log';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { freshDatabase } from '../helpers/postgres';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);

const entry = loggedQuestion;
const byId = (a: { ruleId: string }, b: { ruleId: string }) =>
  a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0;

/** Every entry of a log in [from, to), oldest first, read a slice at a time. */
async function read(log: QuestionLogRepository, key: string, from: number, to: number) {
  const entries = [];
  for await (const slice of log.slices(key, from, to)) entries.push(...slice);
  return entries;
}

describe('question log: day files and the PostgreSQL table answer alike', () => {
  let dir: string;
  let pool: Pool;
  let files: DayFileLog;
  let table: PostgresQuestionLog;
  let logs: [string, QuestionLogRepository][];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-qlog-both-'));
    pool = openPool({ url: await freshDatabase('qlog'), logger: silentLogger });
    await migrate(pool, silentLogger);
    files = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    table = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    logs = [
      ['day files', files],
      ['table', table],
    ];
    // Entries are appended once their log is open (the store's contract).
    for (const [, log] of logs) {
      for (const key of ['1/default', '1/r', '3/shared'])
        await log.open(key, figuresMaker().replay);
    }
  });
  after(async () => {
    await files.close();
    await table.close();
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
  });

  test('entries round-trip, buffered and written, unusual kinds and texts included', async () => {
    const entries = [
      entry(T0, 'a "quoted"\nline \u0000', {
        answerType: 'RECOMMEND',
        recommended: ['r1', 'r2'],
        ruleId: null,
      }),
      entry(T0 + 1, '兜底', { module: 'NONE', score: 0, ruleId: null, source: 'try' }),
      entry(T0 + DAY, 'menu', { answerType: 'MENU', module: 'CHAT', version: 3, chosenFrom: 'x' }),
      entry(T0 + DAY + 1, '2', { version: 4, menuEntry: 2, score: 1 }),
    ];
    for (const [name, log] of logs) {
      for (const e of entries) log.append('1/default', e, null);
      assert.deepEqual(await read(log, '1/default', 0, Infinity), entries, name);
      await log.flush();
      assert.deepEqual(await read(log, '1/default', 0, Infinity), entries, name);
      assert.deepEqual(await read(log, '1/default', T0 + 1, T0 + DAY), [entries[1]], name);
      assert.deepEqual(await read(log, '1/other', 0, Infinity), [], name);
    }
    for (const [name, log] of logs) {
      const page = await log.page('1/default', {
        filter: { from: 0, to: Number.MAX_SAFE_INTEGER },
        before: null,
        offset: 0,
        limit: 3,
      });
      assert.deepEqual(page.entries, [...entries].reverse().slice(0, 3), name);
      assert.equal(page.total, 4, name);
      assert.ok(page.next, name);
      const older = await log.page('1/default', {
        filter: { from: 0, to: Number.MAX_SAFE_INTEGER },
        before: page.next,
        offset: 0,
        limit: 3,
      });
      assert.deepEqual(older.entries, [entries[0]], `${name}: paged back to the oldest`);
      assert.equal(older.next, null, name);
    }
  });

  test('retention drops whole days before the first kept day, then the oldest over the size, the current day included', async () => {
    for (const [name, log] of logs) {
      for (let day = 0; day < 5; day++) {
        for (let i = 0; i < 10; i++) log.append('1/r', entry(T0 + day * DAY + i), null);
      }
      await log.flush();
      assert.equal(await log.enforceRetention('1/r', T0 + 2 * DAY + 5, 1e9), 20, name);
      const oneDay = (await log.size('1/r')) / 3;
      assert.equal(await log.enforceRetention('1/r', 0, oneDay + 1), 20, name);
      assert.equal((await read(log, '1/r', 0, Infinity)).length, 10, name);
      assert.equal(await log.enforceRetention('1/r', 0, 1), 10, `${name}: the newest day goes too`);
      log.append('1/r', entry(T0 + 5 * DAY), null);
      assert.equal(await log.clear('1/r'), 1, `${name}: buffered entries too`);
      assert.deepEqual(await read(log, '1/r', 0, Infinity), [], name);
    }
  });

  test('rule figures: running totals equal a recount of the days kept, after retention and clearing (decision 117)', async () => {
    const asked: LoggedQuestion[] = [];
    for (let day = 0; day < 4; day++) {
      asked.push(
        entry(T0 + day * DAY, 'a', { ruleId: 'ra' }),
        entry(T0 + day * DAY + 1, 'b', { ruleId: day < 2 ? 'rb' : 'ra' }),
        entry(T0 + day * DAY + 2, 'c', {
          answerType: 'RECOMMEND',
          ruleId: null,
          recommended: day === 0 ? ['rc', 'ra'] : ['ra', 'rb'],
        }),
        entry(T0 + day * DAY + 3, 'd', { ruleId: 'rd', chosenFrom: 'c' }),
      );
    }
    const { figuresOf } = figuresMaker();
    /** The rules' figures counted again from the entries from `from` on. */
    const recount = (from: number) => {
      const rows = new Map<string, RuleRow>();
      const row = (ruleId: string) => {
        const known = rows.get(ruleId);
        if (known) return known;
        const made = { ruleId, hits: 0, chosen: 0, fromMenu: 0, recommended: 0, lastHit: null };
        rows.set(ruleId, made);
        return made;
      };
      for (const e of asked.filter((e) => e.at >= from)) {
        const f = figuresOf(e);
        if (f?.hit) {
          const r = row(f.hit.ruleId);
          r.hits += 1;
          if (f.hit.chosen) r.chosen += 1;
          if (f.hit.fromMenu) r.fromMenu += 1;
          r.lastHit = Math.max(r.lastHit ?? 0, e.at);
        }
        for (const ruleId of f?.recommended ?? []) row(ruleId).recommended += 1;
      }
      return [...rows.values()].sort(byId);
    };
    for (const [name, log] of logs) {
      await log.open('4/rules', figuresMaker().replay);
      for (const e of asked) log.append('4/rules', e, figuresOf(e));
      await log.flush();
      const all = recount(0);
      assert.ok(all.some((r) => r.chosen > 0) && all.some((r) => r.recommended > 0), name);
      assert.deepEqual((await log.figures.rules('4/rules')).sort(byId), all, name);
      assert.deepEqual(
        (await log.figures.rulesOf('4/rules', ['rb', 'rx', 'rc'])).sort(byId),
        all.filter((r) => r.ruleId === 'rb' || r.ruleId === 'rc'),
        `${name}: a page's rules`,
      );
      assert.deepEqual(
        await log.figures.mostHit('4/rules', 2),
        [...all].sort((a, b) => b.hits - a.hits || byId(a, b)).slice(0, 2),
        `${name}: the most hit`,
      );
      assert.deepEqual(
        await log.figures.pairs('4/rules', 10),
        [
          { a: 'ra', b: 'rb', count: 3 },
          { a: 'ra', b: 'rc', count: 1 },
        ],
        `${name}: confusable pairs`,
      );
      // Days 0 and 1 go: rb's hits and rc's recommendations with them.
      await log.enforceRetention('4/rules', T0 + 2 * DAY, 1e9);
      const kept = recount(T0 + 2 * DAY);
      assert.ok(!kept.some((r) => r.ruleId === 'rc'), name);
      // A rule no longer hit in the days kept: its last hit is not compared (the day files keep
      // it, the table forgets it with its days).
      const unhit = (rows: RuleRow[]) =>
        rows.map((r) => (r.hits === 0 ? { ...r, lastHit: null } : r)).sort(byId);
      assert.deepEqual(unhit(await log.figures.rules('4/rules')), kept, `${name}: retention`);
      assert.deepEqual(
        await log.figures.rulesOf('4/rules', ['rc']),
        [],
        `${name}: gone with its days`,
      );
      assert.deepEqual(
        await log.figures.pairs('4/rules', 10),
        [{ a: 'ra', b: 'rb', count: 2 }],
        `${name}: pairs after retention`,
      );
      // The size budget drops entries, never figures.
      await log.enforceRetention('4/rules', T0 + 2 * DAY, 1);
      assert.deepEqual(unhit(await log.figures.rules('4/rules')), kept, `${name}: budget`);
      await log.clear('4/rules');
      assert.deepEqual(await log.figures.rules('4/rules'), [], `${name}: cleared`);
      assert.deepEqual(await log.figures.mostHit('4/rules', 5), [], `${name}: cleared`);
      assert.deepEqual(await log.figures.pairs('4/rules', 5), [], `${name}: cleared`);
    }
  });

  test('inbox groups: running figures equal the day files’ after retention, a forget and clearing (decision 131)', async () => {
    const asked: LoggedQuestion[] = [];
    const miss = { answerType: 'BESTMATCH' as const, module: 'NONE', score: 0, ruleId: null };
    const recommend = (at: number, question: string) =>
      entry(at, question, {
        answerType: 'RECOMMEND',
        ruleId: null,
        score: 0.6,
        recommended: ['ra', 'rb'],
        runnerUp: 0.3,
      });
    for (let day = 0; day < 4; day++) {
      const at = T0 + day * DAY;
      asked.push(
        entry(at, 'where is the parcel', miss),
        entry(at + 1, day < 2 ? 'do you take cash' : 'where is the parcel?', miss),
        recommend(at + 2, 'card fees'),
        entry(at + 3, 'How much is the card fee', { ruleId: 'ra', chosenFrom: 'card fees' }),
        entry(at + 4, 'opening hours', { score: 0.95, ruleId: 'rb' }),
      );
    }
    const { figuresOf } = figuresMaker();
    const figures = asked.map((e) => figuresOf(e));
    const inboxes: Record<string, unknown[]> = {};
    for (const [name, log] of logs) {
      const seen: unknown[] = [];
      await log.open('5/inbox', figuresMaker().replay);
      asked.forEach((e, i) => log.append('5/inbox', e, figures[i] ?? null));
      await log.flush();
      seen.push(await log.figures.inbox('5/inbox', 50));
      await log.enforceRetention('5/inbox', T0 + 2 * DAY, 1e9);
      seen.push(await log.figures.inbox('5/inbox', 50));
      const [first] = await log.figures.inbox('5/inbox', 1);
      await log.figures.forget(
        '5/inbox',
        await log.figures.groupTexts('5/inbox', first ? [first.group] : []),
      );
      seen.push(await log.figures.inbox('5/inbox', 50));
      await log.clear('5/inbox');
      seen.push(await log.figures.inbox('5/inbox', 50));
      inboxes[name] = seen;
    }
    const [before, kept, forgotten, cleared] = inboxes.table ?? [];
    assert.ok(Array.isArray(before) && before.length >= 3, 'misses, recommends and low scores');
    assert.ok(Array.isArray(kept) && Array.isArray(forgotten));
    assert.ok(forgotten.length < kept.length, 'a group forgotten');
    assert.deepEqual(cleared, []);
    assert.deepEqual(inboxes.table, inboxes['day files']);
  });

  test('a large inbox group shows its 10 most counted examples, choices and evidence, equal on both stores after retention and a forget (decision 142)', async () => {
    const asked: LoggedQuestion[] = [];
    const miss = { answerType: 'BESTMATCH' as const, module: 'NONE', score: 0, ruleId: null };
    const places = ['paris', 'lyon', 'nice', 'lille', 'nantes', 'brest', 'dijon', 'metz'];
    const more = ['tours', 'reims', 'caen', 'pau', 'nimes', 'rouen'];
    for (let day = 0; day < 3; day++) {
      const at = T0 + day * DAY;
      // 14 questions of one group, asked 1..14 times (a day's share), and 14 rules chosen and
      // pointed to as many times: more than a group shows.
      [...places, ...more].forEach((place, i) => {
        for (let n = 0; n <= i; n++) {
          const t = at + i * 1000 + n * 10;
          asked.push(entry(t, `parcel delivery to ${place}`, miss));
          asked.push(
            entry(t + 1, 'parcel delivery', {
              answerType: 'RECOMMEND',
              ruleId: null,
              score: 0.9,
              recommended: [`e${(i + day) % 14}`, 'rz'],
              runnerUp: 0.2,
            }),
            entry(t + 2, 'the parcel delivery', { ruleId: `c${i}`, chosenFrom: 'parcel delivery' }),
          );
        }
      });
    }
    const { figuresOf } = figuresMaker();
    const figures = asked.map((e) => figuresOf(e));
    const inboxes: Record<string, unknown[]> = {};
    for (const [name, log] of logs) {
      const seen: unknown[] = [];
      await log.open('6/large', figuresMaker().replay);
      asked.forEach((e, i) => log.append('6/large', e, figures[i] ?? null));
      await log.flush();
      seen.push(await log.figures.inbox('6/large', 50));
      await log.enforceRetention('6/large', T0 + DAY, 1e9);
      seen.push(await log.figures.inbox('6/large', 50));
      await log.figures.forget('6/large', ['parcel delivery to rouen', 'parcel delivery to nimes']);
      seen.push(await log.figures.inbox('6/large', 50));
      inboxes[name] = seen;
    }
    const [before] = inboxes.table ?? [];
    const large = Array.isArray(before) ? before[0] : undefined;
    assert.ok(large && typeof large === 'object' && 'texts' in large && 'chosen' in large);
    assert.equal(large.texts.length, 10, 'examples bounded');
    assert.equal(large.chosen.length, 10, 'choices bounded');
    assert.equal(large.evidence.length, 10, 'evidence bounded');
    assert.deepEqual(inboxes.table, inboxes['day files']);
  });

  test('inbox marks are kept per log', async () => {
    for (const [name, log] of logs) {
      assert.deepEqual(await log.marks('2/m'), [], name);
      await log.saveMarks('2/m', [{ key: 'k', at: 1, kind: 'dismissed' }]);
      await log.saveMarks('2/m', [{ key: 'k', at: 2, kind: 'handled', version: 3 }]);
      assert.deepEqual(
        await log.marks('2/m'),
        [{ key: 'k', at: 2, kind: 'handled', version: 3 }],
        name,
      );
      assert.ok((await log.logs()).includes('2/m'), name);
    }
  });

  test('every node of a team server reads what the others wrote', async () => {
    const other = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    try {
      await other.open('3/shared', figuresMaker().replay);
      other.append('3/shared', entry(T0, 'from the other node'), null);
      await other.flush();
      table.append('3/shared', entry(T0 + 1, 'from this node'), null);
      assert.deepEqual(
        (await read(table, '3/shared', 0, Infinity)).map((e) => e.question),
        ['from the other node', 'from this node'],
      );
      assert.equal((await read(other, '3/shared', 0, Infinity)).length, 2);
    } finally {
      await other.close();
    }
  });
});

test('server migration 10 builds the running totals from the day rows of an existing database', async () => {
  const pool = openPool({ url: await freshDatabase('qlog_totals'), logger: silentLogger });
  try {
    await migrate(pool, silentLogger, undefined, SERVER_MIGRATIONS.slice(0, 9));
    await pool.query("INSERT INTO question_logs (log_key) VALUES ('1/old')");
    await pool.query(
      `INSERT INTO question_log_rules (log_id, day, rule_id, hits, chosen, from_menu, recommended, last_hit)
       VALUES (1, 10, 'ra', 2, 1, 0, 0, 100), (1, 11, 'ra', 3, 0, 1, 1, 200),
              (1, 11, 'rb', 0, 0, 0, 4, 0)`,
    );
    await pool.query(
      `INSERT INTO question_log_pairs (log_id, day, a, b, count)
       VALUES (1, 10, 'ra', 'rb', 2), (1, 11, 'ra', 'rb', 3), (1, 11, 'ra', 'rc', 1)`,
    );
    await migrate(pool, silentLogger);
    const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    try {
      assert.deepEqual((await log.figures.rules('1/old')).sort(byId), [
        { ruleId: 'ra', hits: 5, chosen: 1, fromMenu: 1, recommended: 1, lastHit: 200 },
        { ruleId: 'rb', hits: 0, chosen: 0, fromMenu: 0, recommended: 4, lastHit: null },
      ]);
      assert.deepEqual(await log.figures.pairs('1/old', 10), [
        { a: 'ra', b: 'rb', count: 5 },
        { a: 'ra', b: 'rc', count: 1 },
      ]);
    } finally {
      await log.close();
    }
  } finally {
    await pool.end();
  }
});

test('server migrations 11 and 12 build the inbox groups’ running figures, examples and rules from the day rows', async () => {
  const pool = openPool({ url: await freshDatabase('qlog_groups'), logger: silentLogger });
  try {
    await migrate(pool, silentLogger, undefined, SERVER_MIGRATIONS.slice(0, 10));
    await pool.query("INSERT INTO question_logs (log_key) VALUES ('1/old')");
    await pool.query(
      `INSERT INTO question_log_groups (log_id, key, grp)
       VALUES (1, 'parcel', 'parcel'), (1, 'parcels', 'parcel'), (1, 'cash', 'cash')`,
    );
    await pool.query(
      `INSERT INTO question_log_inbox (log_id, day, key, text, fallback, recommended, low_score, last_at)
       VALUES (1, 10, 'parcel', 'Parcel?', 2, 0, 0, 100), (1, 11, 'parcels', 'parcels', 1, 1, 0, 300),
              (1, 11, 'cash', 'cash', 5, 0, 1, 200)`,
    );
    await pool.query(
      `INSERT INTO question_log_inbox_rules (log_id, day, key, kind, rule_id, count)
       VALUES (1, 11, 'parcels', 'c', 'ra', 2), (1, 11, 'cash', 'e', 'rb', 3)`,
    );
    await migrate(pool, silentLogger);
    const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    try {
      const inbox = await log.figures.inbox('1/old', 10);
      // Chosen from first, whatever its count.
      assert.deepEqual(
        inbox.map((g) => [g.group, g.count, g.lastAt, g.outcomes, g.chosen, g.evidence, g.texts]),
        [
          [
            'parcel',
            4,
            300,
            { fallback: 3, recommended: 1, lowScore: 0 },
            [{ ruleId: 'ra', count: 2 }],
            [],
            // Built by migration 12 (decision 142).
            [
              { key: 'parcel', text: 'Parcel?', count: 2 },
              { key: 'parcels', text: 'parcels', count: 2 },
            ],
          ],
          [
            'cash',
            6,
            200,
            { fallback: 5, recommended: 0, lowScore: 1 },
            [],
            [{ ruleId: 'rb', count: 3 }],
            [{ key: 'cash', text: 'cash', count: 6 }],
          ],
        ],
      );
    } finally {
      await log.close();
    }
  } finally {
    await pool.end();
  }
});

test('a text search reads a budget of entries a page on both stores, and pages on to the oldest (decisions 97, 132)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-budget-'));
  const pool = openPool({ url: await freshDatabase('qlog_search'), logger: silentLogger });
  await migrate(pool, silentLogger);
  const logs: [string, QuestionLogRepository][] = [
    ['day files', new DayFileLog({ dataDir: dir, logger: silentLogger, searchBudget: 7 })],
    ['table', new PostgresQuestionLog({ pool, logger: silentLogger, searchBudget: 7 })],
  ];
  const search = (text: string, before: string | null, limit = 5) => ({
    filter: { from: 0, to: Number.MAX_SAFE_INTEGER, text },
    before,
    offset: 0,
    limit,
  });
  try {
    const found: Record<string, string[]> = {};
    for (const [name, log] of logs) {
      await log.open('1/s', figuresMaker().replay);
      // 30 entries over three days; every seventh holds the text searched.
      for (let i = 0; i < 30; i++) {
        const question = i % 7 === 3 ? `where is my parcel ${i}` : `opening hours ${i}`;
        log.append('1/s', entry(T0 + Math.floor(i / 10) * DAY + i, question), null);
      }
      await log.flush();
      const questions: string[] = [];
      for (const text of ['Parcel', 'nowhere']) {
        let before: string | null = null;
        const progress: number[] = [];
        do {
          const page = await log.page('1/s', search(text, before));
          questions.push(...page.entries.map((e) => e.question));
          assert.ok(page.searched, `${name}: a text search says how far it got`);
          assert.equal(page.searched.of, 30, name);
          progress.push(page.searched.entries);
          before = page.next;
          assert.ok(progress.length <= 20, `${name}: the search ends`);
        } while (before !== null);
        assert.equal(progress.at(-1), 30, `${name}: the last page has read every entry`);
        // Each page reads its budget at most (the day files skip a segment its filter rules out
        // unread, so only the table's is checked).
        if (name === 'table') {
          progress.forEach((entries, i) =>
            assert.ok(entries - (progress[i - 1] ?? 0) <= 7, `${name}: ${progress.join(', ')}`),
          );
        }
      }
      found[name] = questions;
    }
    assert.equal(found.table?.length, 4, 'every match once');
    assert.deepEqual(found.table, found['day files']);
  } finally {
    for (const [, log] of logs) await log.close();
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the team server’s size budget bounds the entries’ live bytes, rows and indexes (decision 143)', async () => {
  const pool = openPool({ url: await freshDatabase('qlog_budget'), logger: silentLogger });
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
  try {
    await migrate(pool, silentLogger);
    await log.open('7/budget', figuresMaker().replay);
    for (let i = 0; i < 30_000; i++) {
      log.append(
        '7/budget',
        entry(T0 + i, `question number ${i} about parcels`, { userId: `user-${i % 997}` }),
        null,
      );
    }
    await log.flush();
    const budget = Math.floor((await log.size('7/budget')) / 3);
    assert.ok((await log.enforceRetention('7/budget', 0, budget)) > 15_000);
    await pool.query('VACUUM question_log_entries');
    await pool.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    const { rows } = await pool.query<{ heap: string; indexes: string }>(
      `SELECT (SELECT tuple_len + 4 * tuple_count FROM pgstattuple('question_log_entries')) AS heap,
              (SELECT sum((s).leaf_pages * 8192 * (s).avg_leaf_density / 100
                          + (s).internal_pages * 8192)
               FROM (SELECT pgstatindex(indexrelid) AS s FROM pg_index
                     WHERE indrelid = 'question_log_entries'::regclass) t) AS indexes`,
    );
    const live = Number(rows[0]?.heap) + Number(rows[0]?.indexes);
    // The lines alone are under half of it: a budget of lines let the table hold twice as much.
    assert.ok(live <= budget * 1.05, `live ${live} bytes over the budget of ${budget}`);
    assert.ok(live >= budget * 0.75, `live ${live} bytes far under the budget of ${budget}`);
  } finally {
    await log.close();
    await pool.end();
  }
});
