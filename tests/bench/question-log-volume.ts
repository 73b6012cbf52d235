/**
 * The question log at production volume (issue 28): one robot's log filled with a day of
 * 1,000,000 asks (question-log-traffic.ts) through the real recording path, in-process, on the
 * service's data directory (or its team server's database); then the service is started on it
 * and the editor's reads are timed over HTTP while another process asks one question at a time
 * (ask-probe.ts):
 *   inbox, dashboard (30 days), analytics (the editor's first page; the whole answer apart),
 *   rule hits, the log's first and oldest page, a filtered search, the export's first byte
 *   and total; the service's CPU for each;
 *   ask p99 and max idle (before the reads) and while the reads run;
 *   the service's RSS before the reads and its peak during them;
 *   the log's bytes on disk (per million asks), and the size budget: the robot's
 *   `logMaxMegabytes` set under the log's size, the bytes kept once it is enforced.
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleInput } from '../../electron/service/api-types';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { fillLog, filledReads } from './question-log-fill';
import { copyOfFilled } from './question-log-pg-kept';
import { fillOnce } from './question-log-reads-bench';
import type { TrafficRule } from './question-log-traffic';
import { percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

const PROBE = join(import.meta.dirname, 'ask-probe.ts');
const MB = 1024 * 1024;

export interface VolumeReads {
  inboxMs: number;
  dashboardMs: number;
  /** Rule analytics as the editor reads it: its first page (DashboardPage's ANALYTICS_PAGE). */
  analyticsMs: number;
  /** Every rule's analytics in one answer: the API's, which the editor no longer asks. */
  wholeAnalyticsMs: number;
  ruleHitsMs: number;
  firstPageMs: number;
  oldestPageMs: number;
  searchMs: number;
  userSearchMs: number;
  /** A text no entry holds: the whole log scanned. */
  missingTextMs: number;
  exportFirstByteMs: number;
  exportTotalMs: number;
}

export interface VolumeFigures {
  store: 'embedded' | 'postgres';
  /** The build read: `new` (dist/headless.js) or the baseline's headless.js. */
  build: string;
  /** /proc/loadavg once the reads ended. */
  load: string;
  asks: number;
  /** Filling the log in-process through the recorder (asks/s). */
  fillAsksPerSec: number;
  /** From spawning the service on the filled log to its figures being ready to read. */
  openMs: number;
  reads: VolumeReads;
  askIdleP99Ms: number;
  askIdleMaxMs: number;
  askDuringReadsP99Ms: number;
  askDuringReadsMaxMs: number;
  asksDuringReads: number;
  /**
   * The service's CPU per read (ms, /proc, 10 ms ticks; the probe's asks meanwhile included):
   * on a loaded machine the wall times count other work too.
   */
  readsCpuMs: Record<keyof VolumeReads, number>;
  /** The slowest ask while each read ran (which read holds asks). */
  askMaxByReadMs: Record<keyof VolumeReads, number>;
  /** Asks that failed (the connection reset, an error) while the reads ran. */
  asksFailedDuringReads: number;
  rssBeforeReadsMb: number;
  rssPeakDuringReadsMb: number;
  /** The peak RSS once each read was back (MB): which read raised it. */
  rssPeakAfterMb: Record<keyof VolumeReads, number>;
  logBytes: number;
  /** The entries in the log when its bytes were measured. */
  logEntries: number;
  /** Bytes over the entries, per million. */
  logBytesPerMillionAsks: number;
  budgetBytes: number;
  /**
   * Bytes the log keeps once the budget is enforced, over the budget: on the team server its
   * entries' live bytes (question-log-fill.ts `liveBytes`).
   */
  budgetKeptRatio: number;
  /** The team server's table files then, over the budget (they do not shrink: NaN embedded). */
  budgetFilesRatio: number;
}

export interface VolumeOptions {
  rules: readonly RuleInput[];
  asks: number;
  /** A PostgreSQL database URL for the team server; undefined: the embedded store. */
  database?: string;
  /** Node arguments for the service read from (e.g. `--cpu-prof` to profile its reads). */
  nodeArgs?: string[];
  /** Run once the reads are timed, before the size budget drops entries (plans, old reads). */
  afterReads?: () => Promise<void>;
  /**
   * A data directory kept between runs (embedded store): filled when it holds no log, then only
   * read, so that builds are read in turn on the same log. The size budget is not enforced on it
   * (it would drop the entries the next run reads): its figures are NaN.
   * With `database` (then its cluster's maintenance database): the log is filled once into a
   * database of that cluster named in D, and each run reads, and enforces the budget on, a copy
   * of it (question-log-pg-kept.ts), so that reruns do not refill a million asks.
   */
  dir?: string;
  /** Another build's headless.js to read with (the baseline); the built one by default. */
  script?: string;
}

/** The rules per page of the editor's rule analytics (renderer DashboardPage's ANALYTICS_PAGE). */
const ANALYTICS_PAGE = 100;

function rssMb(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A process's user + system CPU in ms (from /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

function bytesUnder(dir: string): number {
  let bytes = 0;
  try {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const stat = statSync(join(dir, name));
      if (stat.isFile()) bytes += stat.size;
    }
  } catch {
    // no log yet
  }
  return bytes;
}

/** The embedded log's entries: a line each in its segments (`<day>-<n>.jsonl`; not the figures'). */
function linesUnder(dir: string): number {
  let lines = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!/\d{4}-\d\d-\d\d-\d+\.jsonl$/.test(name)) continue;
    const bytes = readFileSync(join(dir, name));
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  }
  return lines;
}

const tokenOf = (service: ChildService) =>
  /token=([\w-]+)/.exec(service.output())?.[1] ?? 'missing-token';

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

/** Starts the probe asking; resolves its samples (epoch ms at the end, latency) once stopped. */
function startProbe(service: ChildService, robot: RobotClient, questions: readonly string[]) {
  const file = join(makeDataDir('bench-probe'), 'questions.json');
  writeFileSync(file, JSON.stringify(questions));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', PROBE, service.url, String(robot.tenantId), robot.robotSecret, file],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const samples: { at: number; ms: number; failed: boolean }[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString();
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const [at, ms, failed] = line.split(' ');
      samples.push({ at: Number(at), ms: Number(ms), failed: failed === 'failed' });
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    samples,
    async stop() {
      child.stdin.end('stop\n');
      await exited;
    },
  };
}

const between = (samples: readonly { at: number; ms: number }[], from: number, to: number) =>
  samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.ms);
const failedBetween = (
  samples: readonly { at: number; failed: boolean }[],
  from: number,
  to: number,
) => samples.filter((s) => s.at >= from && s.at <= to && s.failed).length;

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Imports the rules into a new tenant and fills its robot's log (the timed fill). */
async function fillFresh(dataDir: string, env: Record<string, string>, options: VolumeOptions) {
  let service: ChildService | undefined;
  try {
    service = await spawnService(dataDir, { env });
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
    const fill = await timed(() =>
      fillLog({
        dataDir,
        database: env.KB_DATABASE_URL,
        robot: { tenantId, robotId: 'default' },
        rules,
        asks: options.asks,
        end: Date.now(),
      }),
    );
    console.error(`  filled ${options.asks} asks in ${round(fill.ms / 1000, 1)} s`);
    return {
      tenantId,
      robotSecret: robot.robotSecret,
      filled: fill.value,
      fillAsksPerSec: options.asks / (fill.ms / 1000),
    };
  } finally {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }
}

export async function measureLogVolume(options: VolumeOptions): Promise<VolumeFigures> {
  const kept = options.dir !== undefined && !options.database;
  const dataDir = kept && options.dir ? options.dir : makeDataDir('bench-log-volume');
  const copy =
    options.database && options.dir
      ? await copyOfFilled(options.database, options.dir, (database) =>
          fillFresh(makeDataDir('bench-log-volume'), { KB_DATABASE_URL: database }, options),
        )
      : undefined;
  const database = copy?.database ?? options.database;
  const env: Record<string, string> = database ? { KB_DATABASE_URL: database } : {};
  let service: ChildService | undefined;
  let probe: ReturnType<typeof startProbe> | undefined;
  try {
    const { tenantId, robotSecret, filled, fillAsksPerSec } = kept
      ? {
          ...(await fillOnce(dataDir, options)),
          filled: filledReads(undefined),
          fillAsksPerSec: NaN,
        }
      : copy
        ? { ...copy.filled, filled: filledReads(database), fillAsksPerSec: NaN }
        : await fillFresh(dataDir, env, options);
    const fill = { value: filled };

    const opened = performance.now();
    service = await spawnService(dataDir, {
      env,
      nodeArgs: options.nodeArgs ?? [],
      ...(options.script ? { script: options.script } : {}),
    });
    const api = consoleClient(service.url, tokenOf(service));
    const R = `/tenants/${tenantId}/robots/default`;
    await waitFor('the figures', () => fill.value.ready(api, R), 600_000);
    const openMs = performance.now() - opened;
    const askRobot = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS }).robot(
      tenantId,
      'default',
      robotSecret,
    );
    const questions = deriveQueries(options.rules, 2000, 5_000_000);
    for (const question of questions.slice(0, 200)) await askRobot.ask(question, 'warm-up');

    probe = startProbe(service, askRobot, questions);
    const idleStart = Date.now();
    // Idle: 300 asks (or half a minute) before the reads.
    const started = probe;
    await waitFor(
      'the idle asks',
      async () => started.samples.length >= 300 || Date.now() - idleStart > 30_000,
      60_000,
    );
    const idleEnd = Date.now();
    const rssBeforeReadsMb = rssMb(service.child.pid);
    let rssPeak = rssBeforeReadsMb;
    const pid = service.child.pid;
    const rssTimer = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb(pid));
    }, 10);

    const get = (path: string) => api.ok<unknown>('GET', `${R}${path}`);
    const reads = {} as VolumeReads;
    /** When each read ran (epoch ms), to find the asks it held. */
    const ran = {} as Record<keyof VolumeReads, { from: number; to: number }>;
    const readsCpuMs = {} as Record<keyof VolumeReads, number>;
    /** The peak RSS once each read is back: which read raised it. */
    const rssPeakAfterMb = {} as Record<keyof VolumeReads, number>;
    const read = async (name: keyof VolumeReads, run: () => Promise<unknown>) => {
      const from = Date.now();
      const cpuBefore = cpuMsOf(pid);
      reads[name] = (await timed(run)).ms;
      readsCpuMs[name] = cpuMsOf(pid) - cpuBefore;
      ran[name] = { from, to: Date.now() };
      rssPeakAfterMb[name] = Math.max(rssPeak, rssMb(pid));
    };
    await read('inboxMs', () => get('/inbox?limit=50'));
    await read('dashboardMs', () => get('/dashboard?days=30'));
    await read('analyticsMs', () => get(`/analytics?offset=0&limit=${ANALYTICS_PAGE}`));
    await read('wholeAnalyticsMs', () => get('/analytics'));
    await read('ruleHitsMs', () => get('/rule-hits'));
    await read('firstPageMs', () => fill.value.firstPage(api, R));
    await read('oldestPageMs', () => fill.value.oldestPage(api, R));
    await read('searchMs', () => fill.value.search(api, R));
    await read('userSearchMs', () => fill.value.userSearch(api, R));
    await read('missingTextMs', () => fill.value.missingText(api, R));
    const exportFrom = Date.now();
    const exportCpu = cpuMsOf(pid);
    const exportStart = performance.now();
    const response = await fetch(`${service.url}/console/api${R}/question-log/export.csv`, {
      headers: { authorization: `Bearer ${tokenOf(service)}` },
    });
    const reader = response.body?.getReader();
    let exported = 0;
    let firstByte = Number.NaN;
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      if (Number.isNaN(firstByte)) {
        firstByte = performance.now() - exportStart;
        readsCpuMs.exportFirstByteMs = cpuMsOf(pid) - exportCpu;
      }
      exported += chunk.value.length;
    }
    reads.exportFirstByteMs = firstByte;
    reads.exportTotalMs = performance.now() - exportStart;
    readsCpuMs.exportTotalMs = cpuMsOf(pid) - exportCpu;
    ran.exportFirstByteMs = { from: exportFrom, to: exportFrom + firstByte };
    ran.exportTotalMs = { from: exportFrom, to: Date.now() };
    rssPeakAfterMb.exportTotalMs = Math.max(rssPeak, rssMb(pid));
    console.error(`  exported ${round(exported / MB, 1)} MB of CSV`);
    const readsEnd = Date.now();
    const load = readFileSync('/proc/loadavg', 'utf8').trim();
    clearInterval(rssTimer);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await probe.stop();
    const idle = between(probe.samples, 0, idleEnd);
    const during = between(probe.samples, idleEnd, readsEnd);
    const asksFailedDuringReads = failedBetween(probe.samples, idleEnd, readsEnd);
    const probed = probe.samples;
    // An ask ends after the read that held it: a little after the read is counted with it.
    const askMaxByReadMs = Object.fromEntries(
      Object.entries(ran).map(([name, { from, to }]) => [
        name,
        Math.max(0, ...between(probed, from, to + 50)),
      ]),
    ) as Record<keyof VolumeReads, number>;
    probe = undefined;

    await options.afterReads?.();
    const logBytes = database
      ? await fill.value.tableBytes()
      : bytesUnder(join(dataDir, 'question-log'));
    // The entries the bytes hold: the fill's and every probe's ask since (a kept log grows by a
    // run's probe asks, ~0.3% of a million a run, which the fill's count alone would leave out).
    const logEntries = database
      ? await fill.value.entries()
      : linesUnder(join(dataDir, 'question-log'));
    // The size budget: a third of the log (not on a kept log: the next run reads it whole).
    const budgetMb = kept ? Number.NaN : Math.max(1, Math.floor(logBytes / MB / 3));
    if (!kept) {
      await api.ok('PATCH', R, { settings: { logMaxMegabytes: budgetMb } });
      await fill.value.enforce(api, R, service, budgetMb * MB);
    }
    const keptBytes = kept
      ? Number.NaN
      : database
        ? await fill.value.liveBytes()
        : bytesUnder(join(dataDir, 'question-log'));
    const keptFileBytes = database && !kept ? await fill.value.tableBytes() : Number.NaN;
    return {
      store: options.database ? 'postgres' : 'embedded',
      build: options.script ?? 'new',
      load,
      asks: options.asks,
      fillAsksPerSec,
      openMs,
      reads,
      askIdleP99Ms: percentile(idle, 99),
      askIdleMaxMs: Math.max(...idle),
      askDuringReadsP99Ms: percentile(during, 99),
      askDuringReadsMaxMs: Math.max(...during),
      asksDuringReads: during.length,
      readsCpuMs,
      askMaxByReadMs,
      asksFailedDuringReads,
      rssBeforeReadsMb,
      rssPeakDuringReadsMb: rssPeak,
      rssPeakAfterMb,
      logBytes,
      logEntries,
      logBytesPerMillionAsks: (logBytes / logEntries) * 1_000_000,
      budgetBytes: budgetMb * MB,
      budgetKeptRatio: keptBytes / (budgetMb * MB),
      budgetFilesRatio: keptFileBytes / (budgetMb * MB),
    };
  } finally {
    await probe?.stop();
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
    await copy?.drop();
  }
}

/** The volume figures as the bench prints them: one line a store. */
export function volumeLine(figures: VolumeFigures): string {
  const r = figures.reads;
  const ms = (value: number) => round(value, 0);
  return (
    `\nQuestion log at ${figures.asks} asks (${figures.store}, ${figures.build}, load ${figures.load}): ` +
    `inbox ${ms(r.inboxMs)} ms, dashboard ${ms(r.dashboardMs)}, ` +
    `analytics ${ms(r.analyticsMs)} (whole ${ms(r.wholeAnalyticsMs)}), rule hits ${ms(r.ruleHitsMs)}, ` +
    `first page ${ms(r.firstPageMs)}, oldest page ${ms(r.oldestPageMs)}, ` +
    `filtered search ${ms(r.searchMs)} (user ${ms(r.userSearchMs)}, absent text ${ms(r.missingTextMs)}), ` +
    `export first byte ${ms(r.exportFirstByteMs)} / total ${ms(r.exportTotalMs)} ms; ` +
    `ask p99/max ${round(figures.askIdleP99Ms, 1)}/${round(figures.askIdleMaxMs, 1)} ms idle, ` +
    `${round(figures.askDuringReadsP99Ms, 1)}/${round(figures.askDuringReadsMaxMs, 1)} ms during the reads ` +
    `(${figures.asksDuringReads} asks, ${figures.asksFailedDuringReads} failed; the slowest during ` +
    `each read: ${Object.entries(figures.askMaxByReadMs)
      .map(([name, max]) => `${name.replace(/Ms$/, '')} ${ms(max)}`)
      .join(', ')}); service CPU per read: ${Object.entries(figures.readsCpuMs)
      .map(([name, cpu]) => `${name.replace(/Ms$/, '')} ${ms(cpu)}`)
      .join(', ')} ms; ` +
    `RSS ${ms(figures.rssBeforeReadsMb)} MB before, ${ms(figures.rssPeakDuringReadsMb)} MB peak during (peak after ${Object.entries(
      figures.rssPeakAfterMb,
    )
      .map(([name, mb]) => `${name.replace(/Ms$/, '')} ${ms(mb)}`)
      .join(', ')}); ` +
    `${round(figures.logBytesPerMillionAsks / MB, 0)} MB of log per million asks ` +
    `(${figures.logEntries} entries); ` +
    `size budget kept at ${round(figures.budgetKeptRatio, 3)} of it` +
    (Number.isNaN(figures.budgetFilesRatio)
      ? ''
      : ` (live; its files ${round(figures.budgetFilesRatio, 3)})`) +
    `; figures ready ${ms(figures.openMs)} ms after start`
  );
}
