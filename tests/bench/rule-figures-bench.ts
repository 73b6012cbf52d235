/**
 * Rule analytics and rule hits on the team server (PostgreSQL) as the log grows (issue 28,
 * decision 117): a robot's rules imported, its log filled with N asks through the recorder
 * (question-log-fill.ts), then `days` of history made from that day's rule rows (the figures of a
 * robot kept 90 days). Measured in the same run, medians of `rounds`:
 *   the old read (every day's rows summed per rule) against the running totals read by index;
 *   GET analytics (whole, and one page) and rule hits over HTTP.
 * `--rule-figures --database postgres://… [--log-asks N] [--rule-days D] [--rounds R]`.
 * `--log-ratio --database postgres://…`: the log's cost on asks (askLogRatio, askLogCpuRatio) on
 * the embedded store and on the team server, in the same run.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { RuleInput } from '../../electron/service/api-types';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { askRatio } from './question-log-bench';
import type { QuestionLogBenchDeps } from './question-log-bench';
import { fillLog } from './question-log-fill';
import type { TrafficRule } from './question-log-traffic';
import { percentile, round } from './stats';

const median = (samples: readonly number[]) => percentile(samples, 50);

/** What rule analytics and rule hits read before decision 117: every day's rows, summed. */
const SUMMED_SQL = `SELECT rule_id, sum(hits)::bigint AS hits, sum(chosen)::bigint AS chosen,
       sum(from_menu)::bigint AS from_menu, sum(recommended)::bigint AS recommended,
       max(last_hit) AS last_hit
  FROM question_log_rules WHERE log_id = $1 GROUP BY rule_id
  HAVING sum(hits) > 0 OR sum(recommended) > 0`;
const TOTALS_SQL = `SELECT rule_id, hits, chosen, from_menu, recommended, last_hit
  FROM question_log_rule_totals WHERE log_id = $1 AND rule_id = ANY($2)`;
const ALL_TOTALS_SQL = `SELECT rule_id, hits, chosen, from_menu, recommended, last_hit
  FROM question_log_rule_totals WHERE log_id = $1`;

export interface RuleFigures {
  asks: number;
  rules: number;
  days: number;
  dayRows: number;
  rounds: number;
  summedMs: number;
  totalsMs: number;
  /** Every rule's total (rule hits, the grid's columns): the robot's size, not the log's. */
  allTotalsMs: number;
  analyticsMs: number;
  analyticsPageMs: number;
  ruleHitsMs: number;
  /** The longest hold of this build's event loop during the HTTP reads, and its own CPU in one. */
  holdMaxMs: number;
  holdCpuMaxMs: number;
  /** The same reads of another build (`--baseline`), alternated with this one's. */
  baseline?: Pick<
    RuleFigures,
    'analyticsMs' | 'analyticsPageMs' | 'ruleHitsMs' | 'holdMaxMs' | 'holdCpuMaxMs'
  >;
  loadAverage: number;
  plans: { summed: string; totals: string; allTotals: string };
}

export interface RuleFiguresOptions {
  database: string;
  rules: readonly RuleInput[];
  asks: number;
  days: number;
  rounds: number;
  /** Another build's headless.js, read in turn with this one. */
  baseline?: string;
}

const HOLDS = join(import.meta.dirname, 'main-thread-holds.mjs');

/** One build's HTTP reads: their times (ms), and the longest hold of its loop meanwhile. */
interface BuildReads {
  analytics: number[];
  analyticsPage: number[];
  ruleHits: number[];
  holdMaxMs: number;
  holdCpuMaxMs: number;
}

const emptyReads = (): BuildReads => ({
  analytics: [],
  analyticsPage: [],
  ruleHits: [],
  holdMaxMs: 0,
  holdCpuMaxMs: 0,
});

/** `rounds` of the three reads over HTTP, their holds (main-thread-holds.mjs) added to `read`. */
async function readRules(
  service: ChildService,
  tenantId: string | number,
  read: BuildReads,
  rounds: number,
): Promise<void> {
  const api = consoleClient(service.url, /token=([\w-]+)/.exec(service.output())?.[1] ?? '');
  const R = `/tenants/${tenantId}/robots/default`;
  // A first read opens the log (and warms the caches) before anything is timed.
  await api.ok('GET', `${R}/dashboard?days=1`);
  const from = service.output().length;
  for (let i = 0; i < rounds; i++) {
    for (const [path, times] of [
      ['/analytics', read.analytics],
      ['/analytics?limit=100', read.analyticsPage],
      ['/rule-hits', read.ruleHits],
    ] as const) {
      const start = performance.now();
      await api.ok<unknown>('GET', `${R}${path}`);
      times.push(performance.now() - start);
    }
  }
  for (const [, held, cpu] of service
    .output()
    .slice(from)
    .matchAll(/main-hold (\d+) cpu (\d+)/g)) {
    read.holdMaxMs = Math.max(read.holdMaxMs, Number(held));
    read.holdCpuMaxMs = Math.max(read.holdCpuMaxMs, Number(cpu));
  }
}

async function timed(run: () => Promise<unknown>, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function measureRuleFigures(options: RuleFiguresOptions): Promise<RuleFigures> {
  const dataDir = makeDataDir('bench-rule-figures');
  const env = { KB_DATABASE_URL: options.database };
  let service: ChildService | undefined = await spawnService(dataDir, { env });
  const pool = openPool({ url: options.database, logger: silentLogger });
  try {
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [listed] = await client.listRobots(tenantId);
    const robot = client.robot(tenantId, 'default', listed?.robotSecret ?? '');
    const rules: TrafficRule[] = [];
    for (let i = 0; i < options.rules.length; i += 1000) {
      const { succeed } = await robot.importRules(options.rules.slice(i, i + 1000));
      for (const rule of succeed) rules.push({ ruleId: rule.ruleId, questions: rule.questions });
    }
    service.child.kill('SIGTERM');
    await service.exited;
    service = undefined;
    await fillLog({
      dataDir,
      database: options.database,
      robot: { tenantId, robotId: 'default' },
      rules,
      asks: options.asks,
      end: Date.now(),
    });
    const logKey = `${tenantId}/default`;
    const { rows } = await pool.query<{ log_id: number }>(
      'SELECT log_id FROM question_logs WHERE log_key = $1',
      [logKey],
    );
    const logId = rows[0]?.log_id ?? 0;
    // Older days: the filled days' rule rows again, each day before them (the traffic spans two
    // UTC days: a copy landing on a filled day is skipped); the totals then made again from them.
    const filled = await pool.query<{ day: number }>(
      'SELECT DISTINCT day FROM question_log_rules WHERE log_id = $1',
      [logId],
    );
    const filledDays = filled.rows.map((row) => row.day);
    // A statement a day: each stays short on a loaded machine.
    for (let d = 1; d < options.days; d++) {
      await pool.query(
        `INSERT INTO question_log_rules (log_id, day, rule_id, hits, chosen, from_menu, recommended, last_hit)
         SELECT log_id, day - $2, rule_id, hits, chosen, from_menu, recommended,
                last_hit - $2 * 86400000::bigint
         FROM question_log_rules WHERE log_id = $1 AND day = ANY($3) ON CONFLICT DO NOTHING`,
        [logId, d, filledDays],
      );
    }
    await pool.query('DELETE FROM question_log_rule_totals WHERE log_id = $1', [logId]);
    await pool.query(
      `INSERT INTO question_log_rule_totals
         (log_id, rule_id, hits, chosen, from_menu, recommended, last_hit)
       SELECT log_id, rule_id, sum(hits), sum(chosen), sum(from_menu), sum(recommended),
              max(last_hit)
       FROM question_log_rules WHERE log_id = $1 GROUP BY log_id, rule_id`,
      [logId],
    );
    await pool.query('ANALYZE');
    const dayRows = Number(
      (
        await pool.query<{ n: string }>(
          'SELECT count(*) AS n FROM question_log_rules WHERE log_id = $1',
          [logId],
        )
      ).rows[0]?.n ?? 0,
    );
    const ids = rules.map((rule) => rule.ruleId);
    const page = ids.slice(0, 100);
    const plan = async (sql: string, values: unknown[]) =>
      (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${sql}`, values)).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    const plans = {
      summed: await plan(SUMMED_SQL, [logId]),
      totals: await plan(TOTALS_SQL, [logId, page]),
      allTotals: await plan(ALL_TOTALS_SQL, [logId]),
    };
    // Alternated, so that the machine's load falls on both alike.
    const summed: number[] = [];
    const totals: number[] = [];
    const allTotals: number[] = [];
    for (let i = 0; i < options.rounds; i++) {
      summed.push(await timed(() => pool.query(SUMMED_SQL, [logId]), 1));
      totals.push(await timed(() => pool.query(TOTALS_SQL, [logId, page]), 1));
      allTotals.push(await timed(() => pool.query(ALL_TOTALS_SQL, [logId]), 1));
    }

    // This build and the baseline's read in turn, twice each: the machine's load falls on both.
    const builds: (string | undefined)[] = options.baseline
      ? [undefined, options.baseline]
      : [undefined];
    const reads = new Map<string | undefined, BuildReads>();
    for (let block = 0; block < 2; block++) {
      for (const script of builds) {
        service = await spawnService(dataDir, {
          env,
          nodeArgs: ['--import', HOLDS],
          ...(script ? { script } : {}),
        });
        const read = reads.get(script) ?? emptyReads();
        reads.set(script, read);
        await readRules(service, tenantId, read, Math.ceil(options.rounds / 2));
        service.child.kill('SIGTERM');
        await service.exited;
        service = undefined;
      }
    }
    const summary = (read: BuildReads) => ({
      analyticsMs: median(read.analytics),
      analyticsPageMs: median(read.analyticsPage),
      ruleHitsMs: median(read.ruleHits),
      holdMaxMs: read.holdMaxMs,
      holdCpuMaxMs: read.holdCpuMaxMs,
    });
    const base = options.baseline ? reads.get(options.baseline) : undefined;
    return {
      asks: options.asks,
      rules: rules.length,
      days: options.days,
      dayRows,
      rounds: options.rounds,
      summedMs: median(summed),
      totalsMs: median(totals),
      allTotalsMs: median(allTotals),
      ...summary(reads.get(undefined) ?? emptyReads()),
      ...(base ? { baseline: summary(base) } : {}),
      loadAverage: loadavg()[0] ?? 0,
      plans,
    };
  } finally {
    await pool.end();
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }
}

export function ruleFiguresLine(f: RuleFigures): string {
  const ms = (value: number) => round(value, 1);
  return (
    `\nRule figures on PostgreSQL at ${f.asks} asks, ${f.rules} rules, ${f.days} days ` +
    `(${f.dayRows} day rows), medians of ${f.rounds}: every day summed ${ms(f.summedMs)} ms, ` +
    `running totals of a page of 100 rules ${ms(f.totalsMs)} ms (ratio ${round(f.summedMs / f.totalsMs, 1)}), ` +
    `of every rule ${ms(f.allTotalsMs)} ms (ratio ${round(f.summedMs / f.allTotalsMs, 1)}); ` +
    `GET analytics ${ms(f.analyticsMs)} ms whole, ${ms(f.analyticsPageMs)} ms a page of 100; ` +
    `rule hits ${ms(f.ruleHitsMs)} ms; longest hold ${f.holdMaxMs} ms (its CPU ${f.holdCpuMaxMs} ms)` +
    (f.baseline
      ? `; the baseline: GET analytics ${ms(f.baseline.analyticsMs)} ms whole, ` +
        `${ms(f.baseline.analyticsPageMs)} ms a page, rule hits ${ms(f.baseline.ruleHitsMs)} ms, ` +
        `longest hold ${f.baseline.holdMaxMs} ms (its CPU ${f.baseline.holdCpuMaxMs} ms)`
      : '') +
    `; load ${round(f.loadAverage, 1)}`
  );
}

/** What the question log costs asks on each store: requests/s and CPU per ask, log on over off. */
export interface LogRatios {
  store: 'embedded' | 'postgres';
  askLogRatio: number;
  askLogCpuRatio: number;
}

/**
 * askLogRatio and askLogCpuRatio (question-log-bench.ts `askRatio`) on the embedded store, then
 * on the team server: two databases made in the cluster of `database`, one a service.
 */
export async function measureLogRatios(
  deps: Omit<QuestionLogBenchDeps, 'databases'>,
  database: string,
): Promise<LogRatios[]> {
  const pool = openPool({ url: database, logger: silentLogger });
  const made: string[] = [];
  try {
    for (const side of ['on', 'off']) {
      const name = `kb_log_ratio_${side}_${randomBytes(4).toString('hex')}`;
      await pool.query(`CREATE DATABASE ${name}`);
      const url = new URL(database);
      url.pathname = `/${name}`;
      made.push(url.toString());
    }
  } finally {
    await pool.end();
  }
  const [on = '', off = ''] = made;
  const figures: LogRatios[] = [];
  for (const databases of [undefined, { on, off }]) {
    const ratio = await askRatio({ ...deps, ...(databases ? { databases } : {}) });
    figures.push({
      store: databases ? 'postgres' : 'embedded',
      askLogRatio: ratio.logOnRps / ratio.logOffRps,
      askLogCpuRatio: ratio.cpuUsPerAskOff / ratio.cpuUsPerAskOn,
    });
  }
  return figures;
}

export const logRatiosLine = (figures: readonly LogRatios[], rounds: number) =>
  `\nThe log's cost on asks (${rounds} rounds each, on/off alternated): ` +
  figures
    .map(
      (f) =>
        `${f.store} askLogRatio ${round(f.askLogRatio, 3)}, askLogCpuRatio ${round(f.askLogCpuRatio, 3)}`,
    )
    .join('; ');
