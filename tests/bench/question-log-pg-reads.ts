/**
 * The team server's editor reads at volume, before and after in one run (issue 28, decisions
 * 140–141): `--log-pg-reads --database postgres://…/DB --baseline other/dist/headless.js
 * [--rounds R]`. DB is a log filled once (question-log-pg-fill.ts, e.g. by `--question-log-pg`)
 * at the baseline's schema; it is never changed: each run reads a copy (`CREATE DATABASE …
 * TEMPLATE`). The baseline build is read first, then this build (its migrations applied to the
 * copy, timed), R rounds of each read over HTTP (medians); then on the same copy the inbox's
 * examples and rules as they were read (every question's day rows summed) against by index
 * (alternated, medians, plans); then the size budget: a third of the log set, enforced, the
 * table vacuumed (as autovacuum would), its live bytes (pgstattuple) against the budget, and its
 * size on disk before and after as many entries again are written under the budget.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { silentLogger } from '../../electron/service/logger';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import { openPool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { makeDataDir } from '../helpers/service';
import { percentile, round } from './stats';

const MB = 1024 * 1024;
/**
 * Entries a flush writes in the steady budget's run: the table holds a flush's entries over the
 * budget until they are purged (a second's asks on a service: 12 at a million a day).
 */
const FLUSH_ENTRIES = 1000;

/** The inbox's examples as they were read (before decision 142). */
const TEXTS_SUMMED_SQL = `SELECT grp, key, text, count FROM (
    SELECT g.grp, i.key, (array_agg(i.text ORDER BY i.day))[1] AS text,
           sum(i.fallback + i.recommended + i.low_score)::bigint AS count,
           row_number() OVER (PARTITION BY g.grp
             ORDER BY sum(i.fallback + i.recommended + i.low_score) DESC, i.key COLLATE "C") AS n
    FROM question_log_inbox i
    JOIN question_log_groups g ON g.log_id = i.log_id AND g.key = i.key
    WHERE i.log_id = $1 AND g.grp = ANY($2)
    GROUP BY g.grp, i.key
    HAVING sum(i.fallback + i.recommended + i.low_score) > 0
  ) t WHERE n <= 10 ORDER BY grp, n`;
/** The inbox's rules as they were read (before decision 142). */
const RULES_SUMMED_SQL = `SELECT g.grp, x.kind, x.rule_id, sum(x.count)::bigint AS count
  FROM question_log_inbox_rules x
  JOIN question_log_groups g ON g.log_id = x.log_id AND g.key = x.key
  WHERE x.log_id = $1 AND g.grp = ANY($2)
  GROUP BY g.grp, x.kind, x.rule_id
  ORDER BY count DESC, x.rule_id COLLATE "C"`;
/** Both from the groups' kept parts (store/postgres/question-log-figures.ts `inbox`). */
const PARTS_KEPT_SQL = `SELECT g.grp, t.key, t.count FROM unnest($2::text[]) AS g(grp)
  CROSS JOIN LATERAL (
    SELECT key, count FROM question_log_inbox_group_texts
    WHERE log_id = $1 AND grp = g.grp AND count > 0
    ORDER BY count DESC, key COLLATE "C" LIMIT 10) t
  ORDER BY g.grp, t.count DESC, t.key COLLATE "C"`;
const RULES_KEPT_SQL = `SELECT g.grp, k.kind, r.rule_id, r.count
  FROM unnest($2::text[]) AS g(grp) CROSS JOIN (VALUES ('c'::char), ('e'::char)) AS k(kind)
  CROSS JOIN LATERAL (
    SELECT rule_id, count FROM question_log_inbox_group_rules
    WHERE log_id = $1 AND grp = g.grp AND kind = k.kind AND count > 0
    ORDER BY count DESC, rule_id COLLATE "C" LIMIT 10) r
  ORDER BY g.grp, k.kind, r.count DESC, r.rule_id COLLATE "C"`;
const GROUPS_SQL = `SELECT grp FROM question_log_inbox_groups
  WHERE log_id = $1 AND fallback + recommended + low_score > 0
  ORDER BY chosen > 0 DESC, fallback + recommended + low_score DESC, grp COLLATE "C" LIMIT 50`;

const READS = {
  inbox: '/inbox?limit=50',
  dashboard: '/dashboard?days=30',
  analyticsWhole: '/analytics',
  analyticsPage: '/analytics?offset=0&limit=100',
  ruleHits: '/rule-hits',
  firstPage: '/question-log?limit=50',
} as const;
type ReadName = keyof typeof READS | 'exportFirstByte';

export interface PgReadFigures {
  rounds: number;
  loadAverage: number[];
  /** Medians over HTTP (ms), the baseline build then this one, on the same copy of the log. */
  reads: Record<ReadName, { beforeMs: number; afterMs: number; ratio: number }>;
  /** From spawning each build to its listening (ms): this build's includes its migrations. */
  startMs: { before: number; after: number };
  sql: { name: string; beforeMs: number; afterMs: number; ratio: number; plans: string[] }[];
  budget: {
    budgetBytes: number;
    /** The entries' live bytes (rows and index entries, pgstattuple) over the budget. */
    liveRatio: number;
    /** The table's files (heap and indexes) once the budget held, and after as much written. */
    diskBytes: number;
    diskBytesAfterMore: number;
    entriesWrittenMore: number;
    /**
     * A log under its budget from its first entry (a new database): three times the budget
     * written, FLUSH_ENTRIES a flush, vacuumed between; its files and live bytes over the budget.
     */
    steady: { budgetBytes: number; written: number; diskRatio: number; liveRatio: number };
  };
}

/** A log under a budget of 16 MB from its first entry, in a new database of the cluster. */
export async function steadyBudget(
  database: string,
  sample: readonly LoggedQuestion[],
): Promise<PgReadFigures['budget']['steady']> {
  const url = new URL(database);
  const name = `qlog_steady_${randomBytes(3).toString('hex')}`;
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  url.pathname = `/${name}`;
  const pool = openPool({ url: url.toString(), logger: silentLogger });
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 3_600_000 });
  const budgetBytes = 16 * MB;
  let written = 0;
  try {
    await migrate(pool, silentLogger);
    await log.enforceRetention('1/steady', 0, budgetBytes);
    let bytes = 0;
    while (bytes < 3 * budgetBytes) {
      for (const entry of sample.slice(0, FLUSH_ENTRIES)) {
        log.append('1/steady', { ...entry, at: Date.now() }, null);
        bytes += entry.question.length + 300;
        written += 1;
      }
      await log.flush();
      await client.query('VACUUM question_log_entries');
    }
    return {
      budgetBytes,
      written,
      diskRatio: (await diskBytes(client)) / budgetBytes,
      liveRatio: (await liveBytes(client)) / budgetBytes,
    };
  } finally {
    await log.close();
    await pool.end();
    await client.end();
  }
}

async function copyOf(database: string): Promise<string> {
  const url = new URL(database);
  const source = url.pathname.slice(1);
  const name = `${source}_copy_${randomBytes(3).toString('hex')}`;
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

const tokenOf = (service: ChildService) =>
  /token=([\w-]+)/.exec(service.output())?.[1] ?? 'missing-token';

/** Each read R times over HTTP (medians, ms) on a service of `script` started on `database`. */
async function timeReads(script: string | undefined, database: string, rounds: number) {
  const dataDir = makeDataDir('bench-pg-reads');
  const started = performance.now();
  const service = await spawnService(dataDir, {
    env: { KB_DATABASE_URL: database },
    ...(script ? { script } : {}),
  });
  const startMs = performance.now() - started;
  try {
    const api = consoleClient(service.url, tokenOf(service));
    const R = '/tenants/1/robots/default';
    const times = new Map<ReadName, number[]>();
    const add = (name: ReadName, ms: number) => times.set(name, [...(times.get(name) ?? []), ms]);
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of Object.entries(READS) as [keyof typeof READS, string][]) {
        const start = performance.now();
        await api.ok('GET', `${R}${path}`);
        add(name, performance.now() - start);
      }
      const start = performance.now();
      const response = await fetch(`${service.url}/console/api${R}/question-log/export.csv`, {
        headers: { authorization: `Bearer ${tokenOf(service)}` },
      });
      const reader = response.body?.getReader();
      await reader?.read();
      add('exportFirstByte', performance.now() - start);
      await reader?.cancel();
    }
    const medians = Object.fromEntries(
      [...times].map(([name, samples]) => [name, percentile(samples, 50)]),
    ) as Record<ReadName, number>;
    return { medians, startMs, service, api, R, dataDir };
  } catch (error) {
    service.child.kill('SIGTERM');
    await service.exited;
    throw error;
  }
}

async function compareSql(
  client: pg.Client,
  name: string,
  before: string,
  after: string,
  values: unknown[],
  rounds: number,
) {
  const timed = async (sql: string) => {
    const start = performance.now();
    await client.query(sql, values);
    return performance.now() - start;
  };
  const plan = async (sql: string) =>
    (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values)).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  const plans = [await plan(before), await plan(after)];
  const b: number[] = [];
  const a: number[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await timed(before));
    a.push(await timed(after));
  }
  const beforeMs = percentile(b, 50);
  const afterMs = percentile(a, 50);
  return { name, beforeMs, afterMs, ratio: beforeMs / afterMs, plans };
}

/** The entries' live bytes: heap tuples with their item pointers, and the indexes' leaves in use. */
export async function liveBytes(client: pg.Client): Promise<number> {
  await client.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
  const heap = await client.query<{ bytes: string }>(
    `SELECT tuple_len + 4 * tuple_count AS bytes FROM pgstattuple('question_log_entries')`,
  );
  const indexes = await client.query<{ bytes: string }>(
    `SELECT sum((s).leaf_pages * 8192 * (s).avg_leaf_density / 100 + (s).internal_pages * 8192)
       AS bytes
     FROM (SELECT pgstatindex(indexrelid) AS s FROM pg_index
           WHERE indrelid = 'question_log_entries'::regclass) t`,
  );
  return Number(heap.rows[0]?.bytes ?? 0) + Number(indexes.rows[0]?.bytes ?? 0);
}

const diskBytes = async (client: pg.Client) =>
  Number(
    (
      await client.query<{ bytes: string }>(
        `SELECT pg_total_relation_size('question_log_entries') AS bytes`,
      )
    ).rows[0]?.bytes ?? 0,
  );

/** The budget: a third of the log set, enforced by the service, then as many entries again. */
async function measureBudget(
  database: string,
  client: pg.Client,
  run: { service: ChildService; api: ReturnType<typeof consoleClient>; R: string },
): Promise<PgReadFigures['budget']> {
  const counted = await client.query<{ bytes: string; log_key: string; log_id: number }>(
    'SELECT bytes, log_key, log_id FROM question_logs ORDER BY entries DESC LIMIT 1',
  );
  const row = counted.rows[0];
  if (!row) throw new Error('no log in the database');
  const budgetMb = Math.max(1, Math.floor(Number(row.bytes) / MB / 3));
  const budgetBytes = budgetMb * MB;
  await run.api.ok('PATCH', run.R, { settings: { logMaxMegabytes: budgetMb } });
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const { rows } = await client.query<{ bytes: string }>(
      'SELECT bytes FROM question_logs WHERE log_id = $1',
      [row.log_id],
    );
    if (Number(rows[0]?.bytes ?? 0) <= budgetBytes) break;
    if (Date.now() > deadline) throw new Error('the budget was not enforced in 20 minutes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  run.service.child.kill('SIGTERM');
  await run.service.exited;
  // As autovacuum would (its threshold is 1% of the table's rows, server migration 12).
  await client.query('VACUUM question_log_entries');
  const live = await liveBytes(client);
  const disk = await diskBytes(client);
  // As many entries again as the budget holds, written under it 10,000 at a time, the table
  // vacuumed between (autovacuum's threshold is ~3,000 rows of such a table).
  // Read through the repository: a stored line is not the shared line since server migration 15
  // (decoding them as shared lines gave entries whose rule ids were numbers: every flush failed).
  const pool = openPool({ url: database, logger: silentLogger });
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 3_600_000 });
  const { entries } = await log.page(row.log_key, {
    filter: { from: 0, to: Number.MAX_SAFE_INTEGER },
    before: null,
    offset: 0,
    limit: 10_000,
  });
  const { rows: count } = await client.query<{ entries: string }>(
    'SELECT entries FROM question_logs WHERE log_id = $1',
    [row.log_id],
  );
  const more = Number(count[0]?.entries ?? 0);
  let written = 0;
  try {
    await log.enforceRetention(row.log_key, 0, budgetBytes);
    while (written < more) {
      for (const entry of entries) log.append(row.log_key, { ...entry, at: Date.now() }, null);
      await log.flush();
      written += entries.length;
      await client.query('VACUUM question_log_entries');
    }
  } finally {
    await log.close();
    await pool.end();
  }
  return {
    steady: await steadyBudget(database, entries),
    budgetBytes,
    liveRatio: live / budgetBytes,
    diskBytes: disk,
    diskBytesAfterMore: await diskBytes(client),
    entriesWrittenMore: written,
  };
}

export async function measurePgReads(options: {
  database: string;
  baseline: string;
  rounds: number;
}): Promise<PgReadFigures> {
  const database = await copyOf(options.database);
  const load = [loadavg()[0] ?? 0];
  const before = await timeReads(options.baseline, database, options.rounds);
  before.service.child.kill('SIGTERM');
  await before.service.exited;
  rmSync(before.dataDir, { recursive: true, force: true });
  const after = await timeReads(undefined, database, options.rounds);
  load.push(loadavg()[0] ?? 0);
  const reads = Object.fromEntries(
    Object.entries(before.medians).map(([name, beforeMs]) => {
      const afterMs = after.medians[name as ReadName];
      return [name, { beforeMs, afterMs, ratio: beforeMs / afterMs }];
    }),
  ) as PgReadFigures['reads'];
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ log_id: number }>(
      'SELECT log_id FROM question_logs ORDER BY entries DESC LIMIT 1',
    );
    const logId = rows[0]?.log_id ?? 0;
    const groups = (await client.query<{ grp: string }>(GROUPS_SQL, [logId])).rows.map(
      (g) => g.grp,
    );
    const values = [logId, groups];
    const sql = [
      await compareSql(client, 'inboxExamples', TEXTS_SUMMED_SQL, PARTS_KEPT_SQL, values, 5),
      await compareSql(client, 'inboxRules', RULES_SUMMED_SQL, RULES_KEPT_SQL, values, 5),
    ];
    const budget = await measureBudget(database, client, after);
    load.push(loadavg()[0] ?? 0);
    rmSync(after.dataDir, { recursive: true, force: true });
    return {
      rounds: options.rounds,
      loadAverage: load,
      reads,
      startMs: { before: before.startMs, after: after.startMs },
      sql,
      budget,
    };
  } finally {
    await client.end();
  }
}

export function pgReadsLine(f: PgReadFigures): string {
  const reads = Object.entries(f.reads)
    .map(([name, r]) => `${name} ${round(r.beforeMs, 0)} → ${round(r.afterMs, 0)} ms`)
    .join(', ');
  const sql = f.sql
    .map((s) => `${s.name} ${round(s.beforeMs, 1)} → ${round(s.afterMs, 1)} ms`)
    .join(', ');
  const b = f.budget;
  return (
    `\nTeam server reads, baseline → this build (medians of ${f.rounds}, load ${f.loadAverage.map((l) => round(l, 1)).join('/')}): ` +
    `${reads}; SQL (medians of 5): ${sql}; size budget ${round(b.budgetBytes / MB, 0)} MB: live ` +
    `${round(b.liveRatio, 3)} of it, on disk ${round(b.diskBytes / MB, 0)} MB → ` +
    `${round(b.diskBytesAfterMore / MB, 0)} MB after ${b.entriesWrittenMore} entries more; ` +
    `under ${round(b.steady.budgetBytes / MB, 0)} MB from the first entry, ${b.steady.written} ` +
    `entries written: on disk ${round(b.steady.diskRatio, 3)}, live ${round(b.steady.liveRatio, 3)} of it`
  );
}
