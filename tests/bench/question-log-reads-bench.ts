/**
 * The editor's reads of the kept figures at volume, profiled (issue 28, decision 129): one robot's
 * log filled once with a day of asks (question-log-fill.ts) in a data directory that is kept and
 * reused by the next run (`--log-dir`), then the built service started on it (with `--cpu-prof`
 * when asked) and each read timed over several rounds: wall time, and the service's CPU per read
 * (from /proc: wall time on a loaded machine counts other engineers' work too), with the slowest
 * ask of a probe asking meanwhile, and the longest hold of the service's event loop with the main
 * thread's own CPU in it (main-thread-holds.mjs). Pages by outcome and by rule too (decision 140).
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleInput } from '../../electron/service/api-types';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { fillLog } from './question-log-fill';
import type { TrafficRule } from './question-log-traffic';
import { round } from './stats';
import { deriveQueries } from './typed-questions';

export interface ReadsOptions {
  rules: readonly RuleInput[];
  asks: number;
  /** Where the filled data directory is kept (made and filled when it holds none). */
  dir: string | undefined;
  rounds: number;
  /** Where the service writes its CPU profiles (none when unset). */
  cpuProfDir: string | undefined;
  /** Another build of the service (its headless.js) read the same way, as the baseline. */
  baseline?: string;
}

export interface Filled {
  tenantId: number;
  robotSecret: string;
}

export interface ReadFigures {
  /** Median wall time per read. */
  wallMs: number;
  /** The service's CPU per read, mean over the rounds (10 ms ticks: read over many rounds). */
  cpuMs: number;
  /** The slowest probe ask while the read's rounds ran. */
  askMaxMs: number;
  /**
   * The longest hold of the service's event loop while the read's rounds ran (wall ms), and the
   * most main-thread CPU spent in one hold (main-thread-holds.mjs): the steadier figure here.
   */
  holdMaxMs: number;
  holdCpuMaxMs: number;
}

export interface ReadsFigures {
  asks: number;
  /** The baseline's figures, and this build's CPU per read over the baseline's. */
  baseline?: { reads: Record<string, ReadFigures>; cpuRatio: Record<string, number> };
  rounds: number;
  /** An ask's latency on the same service, idle: the baseline the reads are set against. */
  askIdleMs: number;
  reads: Record<string, ReadFigures>;
  load: string;
}

const READS: Record<string, string> = {
  inbox: '/inbox?limit=50',
  dashboard: '/dashboard?days=30',
  analytics: '/analytics',
  analyticsPage: '/analytics?offset=0&limit=50',
  ruleHits: '/rule-hits',
  logByOutcome: '/question-log?limit=50&outcome=fallback',
};

const HOLDS = join(import.meta.dirname, 'main-thread-holds.mjs');

/** The longest hold and the most main-thread CPU in one, in lines of main-thread-holds.mjs. */
function holdsIn(output: string): { holdMaxMs: number; holdCpuMaxMs: number } {
  let holdMaxMs = 0;
  let holdCpuMaxMs = 0;
  for (const [, held, cpu] of output.matchAll(/main-hold (\d+) cpu (\d+)/g)) {
    holdMaxMs = Math.max(holdMaxMs, Number(held));
    holdCpuMaxMs = Math.max(holdCpuMaxMs, Number(cpu));
  }
  return { holdMaxMs, holdCpuMaxMs };
}

/** The service's user + system CPU, in ms (from /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const tokenOf = (service: ChildService) =>
  /token=([\w-]+)/.exec(service.output())?.[1] ?? 'missing-token';

/** Fills `dataDir` with `asks` asks on `rules`, unless a run before did (its marker file). */
export async function fillOnce(
  dataDir: string,
  options: Pick<ReadsOptions, 'rules' | 'asks'>,
): Promise<Filled> {
  const marker = join(dataDir, 'bench-filled.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as Filled;
  const service = await spawnService(dataDir);
  const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
  const { tenantId } = await client.registerTenant(tenantRequest());
  const [listed] = await client.listRobots(tenantId);
  const robotSecret = listed?.robotSecret ?? '';
  const robot = client.robot(tenantId, 'default', robotSecret);
  const rules: TrafficRule[] = [];
  for (let i = 0; i < options.rules.length; i += 1000) {
    const { succeed } = await robot.importRules(options.rules.slice(i, i + 1000));
    for (const rule of succeed) rules.push({ ruleId: rule.ruleId, questions: rule.questions });
  }
  service.child.kill('SIGTERM');
  await service.exited;
  await fillLog({
    dataDir,
    database: undefined,
    robot: { tenantId, robotId: 'default' },
    rules,
    asks: options.asks,
    end: Date.now(),
  });
  const filled = { tenantId, robotSecret };
  writeFileSync(marker, JSON.stringify(filled));
  return filled;
}

/** Both builds read in turn, `rounds` a turn, on the same filled log (the baseline first). */
export async function measureReads(options: ReadsOptions): Promise<ReadsFigures> {
  const dataDir = options.dir ?? makeDataDir('bench-log-reads');
  const filled = await fillOnce(dataDir, options);
  const figures = await readsOf(dataDir, filled, options, undefined);
  if (!options.baseline) return figures;
  const base = await readsOf(dataDir, filled, options, options.baseline);
  const again = await readsOf(dataDir, filled, options, undefined);
  const mean = (a: ReadFigures, b: ReadFigures): ReadFigures => ({
    wallMs: (a.wallMs + b.wallMs) / 2,
    cpuMs: (a.cpuMs + b.cpuMs) / 2,
    askMaxMs: Math.max(a.askMaxMs, b.askMaxMs),
    holdMaxMs: Math.max(a.holdMaxMs, b.holdMaxMs),
    holdCpuMaxMs: Math.max(a.holdCpuMaxMs, b.holdCpuMaxMs),
  });
  const reads = Object.fromEntries(
    Object.entries(figures.reads).map(([name, read]) => [
      name,
      again.reads[name] ? mean(read, again.reads[name]) : read,
    ]),
  );
  const cpuRatio = Object.fromEntries(
    Object.entries(reads).map(([name, read]) => [
      name,
      read.cpuMs / (base.reads[name]?.cpuMs ?? Number.NaN),
    ]),
  );
  return { ...figures, reads, baseline: { reads: base.reads, cpuRatio } };
}

async function readsOf(
  dataDir: string,
  filled: Filled,
  options: ReadsOptions,
  script: string | undefined,
): Promise<ReadsFigures> {
  const nodeArgs = [
    '--import',
    HOLDS,
    ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
  ];
  const service = await spawnService(dataDir, { nodeArgs, ...(script ? { script } : {}) });
  try {
    const api = consoleClient(service.url, tokenOf(service));
    const R = `/tenants/${filled.tenantId}/robots/default`;
    await api.ok('GET', `${R}/dashboard?days=1`);
    // A page by rule: the most hit rule's (decision 140).
    const hit = await api.ok<{ rules: { ruleId: string; hits: number }[] }>(
      'GET',
      `${R}/rule-hits`,
    );
    const top = hit.rules.reduce((a, b) => (b.hits > a.hits ? b : a), { ruleId: 'none', hits: 0 });
    const paths = { ...READS, logByRule: `/question-log?limit=50&ruleId=${top.ruleId}` };
    const robot = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS }).robot(
      filled.tenantId,
      'default',
      filled.robotSecret,
    );
    const questions = deriveQueries(options.rules, 200, 5_000_000);
    const askTimes: number[] = [];
    for (const question of questions) {
      const start = performance.now();
      await robot.ask(question, 'probe');
      askTimes.push(performance.now() - start);
    }
    askTimes.sort((a, b) => a - b);
    const reads: Record<string, ReadFigures> = {};
    for (const [name, path] of Object.entries(paths)) {
      const walls: number[] = [];
      let askMaxMs = 0;
      const outputBefore = service.output().length;
      const cpuBefore = cpuMsOf(service.child.pid);
      for (let round = 0; round < options.rounds; round++) {
        // An ask sent with the read: how long the read holds it.
        const start = performance.now();
        const asked = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          const askStart = performance.now();
          await robot.ask(questions[round % questions.length] ?? 'hello', 'probe');
          askMaxMs = Math.max(askMaxMs, performance.now() - askStart);
        })();
        await api.ok('GET', `${R}${path}`);
        walls.push(performance.now() - start);
        await asked;
      }
      const cpuMs = (cpuMsOf(service.child.pid) - cpuBefore) / options.rounds;
      walls.sort((a, b) => a - b);
      const holds = holdsIn(service.output().slice(outputBefore));
      reads[name] = { wallMs: walls[walls.length >> 1] ?? Number.NaN, cpuMs, askMaxMs, ...holds };
    }
    return {
      asks: options.asks,
      rounds: options.rounds,
      askIdleMs: askTimes[askTimes.length >> 1] ?? Number.NaN,
      reads,
      load: readFileSync('/proc/loadavg', 'utf8').trim(),
    };
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
}

export function readsLine(figures: ReadsFigures): string {
  const parts = Object.entries(figures.reads).map(
    ([name, r]) =>
      `${name} ${round(r.wallMs, 0)} ms (CPU ${round(r.cpuMs, 0)} ms, ask max ${round(r.askMaxMs, 0)}, ` +
      `longest hold ${round(r.holdMaxMs, 0)} ms with ${round(r.holdCpuMaxMs, 0)} ms of main-thread CPU)`,
  );
  const base = figures.baseline;
  const against = base
    ? `; baseline: ${Object.entries(base.reads)
        .map(
          ([name, r]) =>
            `${name} ${round(r.wallMs, 0)} ms (CPU ${round(r.cpuMs, 0)} ms, ask max ${round(r.askMaxMs, 0)}), ` +
            `CPU ratio ${round(base.cpuRatio[name] ?? Number.NaN, 3)}`,
        )
        .join('; ')}`
    : '';
  return (
    `\nKept figures read at ${figures.asks} asks (${figures.rounds} rounds, median; ask idle ` +
    `${round(figures.askIdleMs, 1)} ms; load ${figures.load}): ${parts.join(', ')}${against}`
  );
}
