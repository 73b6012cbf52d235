/**
 * The question log at volume on the team server (issue 28): `--question-log-pg --database
 * postgres://…/postgres [--log-asks N] [--rounds R]` makes a database of its own in that cluster,
 * fills one robot's log with N asks (question-log-pg-fill.ts: raw entries written, the figures
 * built by the service's upgrade path), then times every editor read over HTTP while asks go on
 * (question-log-volume.ts). After the reads, on the same database in the same run, the reads this
 * work changed are timed against what they were (alternated, medians of R) with their plans
 * (EXPLAIN (ANALYZE, BUFFERS)): the inbox's groups summed from every question's day rows against
 * their running figures (decision 131), the oldest page by an OFFSET newest first against read
 * from the oldest end, a text no entry holds searched through the whole log against a search
 * bounded per page (decision 132).
 * @module
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { RuleInput } from '../../electron/service/api-types';
import { entriesOfLog } from '../../electron/service/store/postgres/question-log-schema';
import { measureLogVolume } from './question-log-volume';
import type { VolumeFigures } from './question-log-volume';
import { percentile, round } from './stats';

/** The inbox's groups before decision 131: every question's day rows summed per group. */
const INBOX_SUMMED_SQL = `WITH chosen AS (
    SELECT DISTINCT g.grp FROM question_log_inbox_rules x
    JOIN question_log_groups g ON g.log_id = x.log_id AND g.key = x.key
    WHERE x.log_id = $1 AND x.kind = 'c')
  SELECT g.grp, sum(i.fallback)::bigint AS fallback, sum(i.recommended)::bigint AS recommended,
         sum(i.low_score)::bigint AS low_score, max(i.last_at) AS last_at
  FROM question_log_inbox i
  JOIN question_log_groups g ON g.log_id = i.log_id AND g.key = i.key
  WHERE i.log_id = $1
  GROUP BY g.grp
  HAVING sum(i.fallback + i.recommended + i.low_score) > 0
  ORDER BY bool_or(g.grp IN (SELECT grp FROM chosen)) DESC,
           sum(i.fallback + i.recommended + i.low_score) DESC, g.grp COLLATE "C"
  LIMIT $2`;
/** The same page from the groups' running figures (store/postgres/question-log-figures.ts). */
const INBOX_KEPT_SQL = `SELECT grp, fallback, recommended, low_score, last_at
  FROM question_log_inbox_groups
  WHERE log_id = $1 AND fallback + recommended + low_score > 0
  ORDER BY chosen > 0 DESC, fallback + recommended + low_score DESC, grp COLLATE "C"
  LIMIT $2`;
const PAGE_WHERE = `${entriesOfLog('$1')} AND at >= 0 AND at < 9007199254740991`;
/** The oldest page as it was read: newest first, past every newer entry. */
const OLDEST_OFFSET_SQL = `SELECT entry_id, line FROM question_log_entries WHERE ${PAGE_WHERE}
  ORDER BY entry_id DESC LIMIT 51 OFFSET $2`;
/** From the oldest end (store/postgres/question-log.ts `page`). */
const OLDEST_FAR_END_SQL = `SELECT entry_id, line FROM question_log_entries WHERE ${PAGE_WHERE}
  ORDER BY entry_id LIMIT 50`;

export interface ComparedRead {
  name: string;
  beforeMs: number;
  afterMs: number;
  ratio: number;
  plans: { before: string; after: string };
}

export interface PostgresVolumeFigures {
  volume: VolumeFigures;
  rounds: number;
  compared: ComparedRead[];
}

/** A new database in the cluster of `clusterUrl` (its maintenance database's URL). */
async function newDatabase(clusterUrl: string): Promise<string> {
  const name = `bench_qlog_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function compare(
  client: pg.Client,
  name: string,
  before: { sql: string; values: unknown[] },
  after: { sql: string; values: unknown[] },
  rounds: number,
): Promise<ComparedRead> {
  const plan = async (read: { sql: string; values: unknown[] }) =>
    (
      await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${read.sql}`,
        read.values,
      )
    ).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  const timed = async (read: { sql: string; values: unknown[] }) => {
    const start = performance.now();
    await client.query(read.sql, read.values);
    return performance.now() - start;
  };
  const plans = { before: await plan(before), after: await plan(after) };
  const times = { before: [] as number[], after: [] as number[] };
  // Alternated, so that the shared machine's load falls on both alike.
  for (let i = 0; i < rounds; i++) {
    times.before.push(await timed(before));
    times.after.push(await timed(after));
  }
  const beforeMs = percentile(times.before, 50);
  const afterMs = percentile(times.after, 50);
  return { name, beforeMs, afterMs, ratio: beforeMs / afterMs, plans };
}

export async function compareReads(database: string, rounds: number): Promise<ComparedRead[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ log_id: number; entries: string }>(
      'SELECT log_id, entries FROM question_logs ORDER BY entries DESC LIMIT 1',
    );
    const logId = rows[0]?.log_id ?? 0;
    const entries = Number(rows[0]?.entries ?? 0);
    return [
      await compare(
        client,
        'inbox',
        { sql: INBOX_SUMMED_SQL, values: [logId, 50] },
        { sql: INBOX_KEPT_SQL, values: [logId, 50] },
        rounds,
      ),
      await compare(
        client,
        'oldestPage',
        { sql: OLDEST_OFFSET_SQL, values: [logId, Math.max(0, entries - 50)] },
        { sql: OLDEST_FAR_END_SQL, values: [logId] },
        rounds,
      ),
    ];
  } finally {
    await client.end();
  }
}

export async function measurePostgresVolume(options: {
  cluster: string;
  rules: readonly RuleInput[];
  asks: number;
  rounds: number;
}): Promise<PostgresVolumeFigures> {
  const database = await newDatabase(options.cluster);
  let compared: ComparedRead[] = [];
  const volume = await measureLogVolume({
    rules: options.rules,
    asks: options.asks,
    database,
    afterReads: async () => {
      compared = await compareReads(database, options.rounds);
    },
  });
  return { volume, rounds: options.rounds, compared };
}

export function comparedLine(figures: PostgresVolumeFigures): string {
  return (
    `\nOn PostgreSQL at ${figures.volume.asks} asks, before/after in the same run ` +
    `(medians of ${figures.rounds}): ` +
    figures.compared
      .map(
        (c) =>
          `${c.name} ${round(c.beforeMs, 1)} → ${round(c.afterMs, 1)} ms (ratio ${round(c.ratio, 1)})`,
      )
      .join(', ')
  );
}
