/**
 * `npm run bench -- --memory-budget [--budget-robots N] [--budget-rules N] [--budget-mb N]`:
 * robots loaded on demand (docs/storage.md, "Robots loaded on demand"). A database of N robots
 * of M rules each (default 20 × 10,000: the 200 × 5,000 scaled down to what this machine
 * builds in a minute), served by a node with a budget of room for a fifth of them and, in the
 * same run, by one without a budget. Figures: the budget node's peak RSS against budget +
 * 150 MB; the first ask of a robot not in memory (p50/p99, each robot asked in turn so that every
 * ask is a load), built from its rules (first round) and opened from its saved file (two more
 * rounds, once the files are written); asks to a robot in memory, p50/p99, against the node without a budget.
 * Each first ask from a file is also split into the main thread's time on a CPU and in the run
 * queue (Linux schedstat), and the RSS into the start's peak, the peak over the asks and the end.
 * `--budget-cpu-prof <dir>` profiles the budget node (`node --cpu-prof`).
 * `--budget-allocator default|tuned|both`: the budget node under glibc's default malloc settings,
 * under those the README's systemd unit sets (`TUNED_ALLOCATOR`), or both on the same database,
 * alternated (default, tuned, tuned, default), each a fresh process from the same saved state.
 * `--baseline JS` (another build's headless script; `.ts` runs under tsx, `.js` as a team node
 * runs it) and `--service JS` (this side's, default this tree's headless.ts under tsx): budget runs
 * of both on the same database, alternated over `--rounds` (new, base; base, new; …), each a fresh
 * process from no saved index.
 * `KB_TEST_STORE=postgres` (tests/with-postgres.ts) runs it on PostgreSQL.
 * `KB_BENCH_SKIP_UNBUDGETED=1` leaves out the node without a budget (at the shape it
 * builds all 200 robots at start: ~10 minutes of a short session for figures that do not change).
 * @module
 */
import { join } from 'node:path';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { bytesForRules } from '../../electron/service/domain/robot-indexes';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { peakRssMb, percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

const HEADLESS_TS = join(import.meta.dirname, '..', '..', 'electron', 'headless.ts');

export interface BudgetOptions {
  robots: number;
  rulesPerRobot: number;
  /** Default: the estimated bytes of a fifth of the robots. */
  budgetMb?: number;
  /** Samples of asks to a robot in memory, per node. */
  loadedAsks?: number;
  /** A folder: the budget node runs with `--cpu-prof` and writes its profile there. */
  cpuProfDir?: string;
  /** The budget node's malloc settings, one budget run each in this order (default: `default`). */
  allocators?: Allocator[];
  /** The budget node's headless script (`.ts` under tsx; default this tree's). */
  script?: string;
  /** Another build's headless script, alternated with `script` over `rounds`. */
  baseline?: string;
  rounds?: number;
}

/** A budget run's build: which headless script, under which allocator. */
interface BudgetBuild {
  label: 'new' | 'base';
  script: string;
  allocator: Allocator;
}

/**
 * glibc's malloc as a team node is advised to run it (README's systemd unit, docs/storage.md
 * "Memory outside the indexes"): a fixed mmap threshold, so that an index's buffer freed goes back
 * to the system instead of raising the threshold and being kept in the heap, and two arenas.
 */
export const TUNED_ALLOCATOR = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
export type Allocator = 'default' | 'tuned';

export interface BudgetFigures {
  allocator: Allocator;
  /** `new` (this tree, or `--service`) or `base` (`--baseline`). */
  build: 'new' | 'base';
  script: string;
  robots: number;
  rulesPerRobot: number;
  budgetMb: number;
  /** Peak RSS of the budget node over its asks (the peak of its start set aside). */
  peakRssMb: number;
  /** Peak RSS of the budget node's start (the store opened, nothing asked yet). */
  startPeakRssMb: number;
  /** RSS of the budget node after every round. */
  endRssMb: number;
  /** Peak RSS of the round that builds every robot from its rules, and of the rounds from files. */
  buildPeakRssMb: number;
  filePeakRssMb: number;
  /**
   * The budget node's own view (`/metrics`, read after each ask), highest over the rounds from
   * files: the indexes' counted bytes, V8's heap used and held, and memory outside the heap
   * (array buffers: an index opened from its file is mostly its file's buffer).
   */
  fileIndexBytesMb: number;
  fileHeapUsedMb: number;
  fileHeapTotalMb: number;
  fileExternalMb: number;
  /** Indexes let go of and not yet collected by V8, still counted (decision 185). */
  fileUncollectedMb: number;
  /** The same over the build round. */
  buildHeapUsedMb: number;
  buildHeapTotalMb: number;
  buildExternalMb: number;
  /** Peak RSS of the node without a budget, over the same asks. */
  unbudgetedPeakRssMb: number;
  /** First asks of robots built from their rules (no saved file yet). */
  firstAskP50Ms: number;
  firstAskP99Ms: number;
  firstAsks: number;
  /** First asks of robots opened from their saved index file, in the same run. */
  fileAskP50Ms: number;
  fileAskP99Ms: number;
  fileAsks: number;
  /**
   * Of those, the service's main thread on a CPU and waiting in the run queue for one (Linux
   * schedstat): on a loaded machine the wait, not the work, makes most of an ask's time.
   */
  fileAskCpuP50Ms: number;
  fileAskCpuP99Ms: number;
  fileAskWaitP50Ms: number;
  fileAskWaitP99Ms: number;
  /** Load average (1 min) of the machine at the end of the run. */
  loadAverage: number;
  loadedAskP50Ms: number;
  loadedAskP99Ms: number;
  unbudgetedAskP50Ms: number;
  unbudgetedAskP99Ms: number;
}

const start = (
  dataDir: string,
  budget: string,
  cpuProfDir?: string,
  allocator: Allocator = 'default',
  script = HEADLESS_TS,
): Promise<ChildService> =>
  spawnService(dataDir, {
    script,
    nodeArgs: [
      // A built `.js` runs as a team node runs it, without tsx's loader and its memory.
      ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []),
      ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []),
    ],
    env: {
      KB_MEMORY_BUDGET: budget,
      KB_QUESTION_LOG: '0',
      KB_METRICS: 'loopback',
      ...(allocator === 'tuned' ? TUNED_ALLOCATOR : {}),
    },
  });

async function stop(service: ChildService): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
}

/** Waits until `robots` saved index files are in the data directory (written in the background). */
async function savedFiles(dataDir: string, robots: number): Promise<void> {
  const dir = join(dataDir, 'indexes');
  const count = () => (existsSync(dir) ? readdirSync(dir) : []).filter((f) => f.endsWith('.kbri'));
  while (count().length < robots) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Resets the process's peak RSS (Linux: `5` to clear_refs), so that a phase's peak is its own. */
function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not Linux, or not allowed: the peak then includes the start.
  }
}

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

/** The main thread's time on a CPU and waiting for one, in ms (NaN off Linux). */
function schedMs(pid: number): { cpu: number; wait: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpu: (cpu ?? Number.NaN) / 1e6, wait: (wait ?? Number.NaN) / 1e6 };
  } catch {
    return { cpu: Number.NaN, wait: Number.NaN };
  }
}

/** The figures of the service's `/metrics` a phase's memory is read from, in MB. */
const MEMORY_METRICS = {
  indexBytes: 'kb_robot_index_bytes',
  heapUsed: 'nodejs_heap_size_used_bytes',
  heapTotal: 'nodejs_heap_size_total_bytes',
  external: 'nodejs_external_memory_bytes',
  uncollected: 'kb_robot_index_uncollected_bytes',
} as const;
type MemoryFigures = Record<keyof typeof MEMORY_METRICS, number>;

async function memoryOf(url: string): Promise<MemoryFigures> {
  const page = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(page)?.[1] ?? Number.NaN) / 1024 ** 2;
  const entries = Object.entries(MEMORY_METRICS).map(([key, name]) => [key, read(name)]);
  return Object.fromEntries(entries) as MemoryFigures;
}

/** The highest of each figure over a phase. */
class MemoryPeaks {
  readonly peak: MemoryFigures = {
    indexBytes: 0,
    heapUsed: 0,
    heapTotal: 0,
    external: 0,
    uncollected: 0,
  };
  async sample(url: string): Promise<void> {
    const now = await memoryOf(url);
    for (const key of Object.keys(now) as (keyof MemoryFigures)[]) {
      this.peak[key] = Math.max(this.peak[key], now[key]);
    }
  }
}

async function timed(ask: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await ask();
  return performance.now() - began;
}

interface Seeded {
  tenantId: number;
  robotSecret: string;
  rules: RuleInput[];
}

async function seed(url: string, options: BudgetOptions): Promise<Seeded[]> {
  const client = new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });
  const seeded: Seeded[] = [];
  for (let n = 0; n < options.robots; n++) {
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [robot] = await client.listRobots(tenantId);
    const robotSecret = robot?.robotSecret ?? '';
    const rules = generateRules(options.rulesPerRobot, 1000 + n);
    const target = client.robot(tenantId, 'default', robotSecret);
    for (let i = 0; i < rules.length; i += 1000) {
      const result = await target.importRules(rules.slice(i, i + 1000));
      if (result.failInfo.length > 0) throw new Error(JSON.stringify(result.failInfo[0]));
    }
    seeded.push({ tenantId, robotSecret, rules });
    console.error(`  robot ${n + 1}/${options.robots} imported`);
  }
  return seeded;
}

const robotsOf = (url: string, seeded: readonly Seeded[]): RobotClient[] => {
  const client = new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });
  return seeded.map((s) => client.robot(s.tenantId, 'default', s.robotSecret));
};

/** Asks to one robot, in memory after the first: p50/p99 of `count` new questions. */
async function loadedAsks(robot: RobotClient, rules: readonly RuleInput[], count: number) {
  for (const question of deriveQueries(rules, 200, 500_000)) await robot.ask(question);
  const samples: number[] = [];
  for (const question of deriveQueries(rules, count)) {
    samples.push(await timed(() => robot.ask(question)));
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** One budget node's run over the seeded robots; `unbudgeted` is the node without a budget's. */
async function budgetRun(
  dataDir: string,
  seeded: readonly Seeded[],
  options: BudgetOptions,
  budgetBytes: number,
  { label, script, allocator }: BudgetBuild,
  unbudgeted: { peakRssMb: number; p50: number; p99: number },
): Promise<BudgetFigures> {
  const count = options.loadedAsks ?? 500;
  // No saved file at first: the first round builds every robot from its rules (and saves it).
  rmSync(join(dataDir, 'indexes'), { recursive: true, force: true });
  const service = await start(dataDir, String(budgetBytes), options.cpuProfDir, allocator, script);
  const pid = service.child.pid ?? 0;
  const startPeakRssMb = peakRssMb(pid);
  resetPeakRss(pid);
  const robots = robotsOf(service.url, seeded);
  const firstAsks: number[] = [];
  const fileAsks: number[] = [];
  const fileCpu: number[] = [];
  const fileWait: number[] = [];
  const buildMemory = new MemoryPeaks();
  const fileMemory = new MemoryPeaks();
  let buildPeakRssMb = Number.NaN;
  // Each robot in turn: with room for a fifth of them, every ask is a load.
  for (let round = 0; round < 3; round++) {
    // From the second round on, once every robot's file is written (in the background).
    if (round === 1) {
      await savedFiles(dataDir, options.robots);
      buildPeakRssMb = peakRssMb(pid);
      resetPeakRss(pid);
    }
    for (const [n, robot] of robots.entries()) {
      const question = deriveQueries(seeded[n]?.rules ?? [], 1, round)[0] ?? 'hello';
      const before = schedMs(pid);
      (round === 0 ? firstAsks : fileAsks).push(await timed(() => robot.ask(question)));
      const after = schedMs(pid);
      if (round > 0) {
        fileCpu.push(after.cpu - before.cpu);
        fileWait.push(after.wait - before.wait);
      }
      // Outside the timed ask: what the node holds right after a load.
      await (round === 0 ? buildMemory : fileMemory).sample(service.url);
    }
  }
  const filePeakRssMb = peakRssMb(pid);
  const loaded = await loadedAsks(robots[0] as RobotClient, seeded[0]?.rules ?? [], count);
  const endRssMb = rssMb(pid);
  const figures: BudgetFigures = {
    allocator,
    build: label,
    script,
    robots: options.robots,
    rulesPerRobot: options.rulesPerRobot,
    budgetMb: round(budgetBytes / 1024 ** 2, 0),
    peakRssMb: round(peakRssMb(pid), 0),
    startPeakRssMb: round(startPeakRssMb, 0),
    endRssMb: round(endRssMb, 0),
    buildPeakRssMb: round(buildPeakRssMb, 0),
    filePeakRssMb: round(filePeakRssMb, 0),
    fileIndexBytesMb: round(fileMemory.peak.indexBytes, 0),
    fileHeapUsedMb: round(fileMemory.peak.heapUsed, 0),
    fileHeapTotalMb: round(fileMemory.peak.heapTotal, 0),
    fileExternalMb: round(fileMemory.peak.external, 0),
    fileUncollectedMb: round(fileMemory.peak.uncollected, 0),
    buildHeapUsedMb: round(buildMemory.peak.heapUsed, 0),
    buildHeapTotalMb: round(buildMemory.peak.heapTotal, 0),
    buildExternalMb: round(buildMemory.peak.external, 0),
    unbudgetedPeakRssMb: round(unbudgeted.peakRssMb, 0),
    firstAskP50Ms: round(percentile(firstAsks, 50), 1),
    firstAskP99Ms: round(percentile(firstAsks, 99), 1),
    firstAsks: firstAsks.length,
    fileAskP50Ms: round(percentile(fileAsks, 50), 1),
    fileAskP99Ms: round(percentile(fileAsks, 99), 1),
    fileAsks: fileAsks.length,
    fileAskCpuP50Ms: round(percentile(fileCpu, 50), 1),
    fileAskCpuP99Ms: round(percentile(fileCpu, 99), 1),
    fileAskWaitP50Ms: round(percentile(fileWait, 50), 1),
    fileAskWaitP99Ms: round(percentile(fileWait, 99), 1),
    loadAverage: round(loadavg()[0] ?? 0, 1),
    loadedAskP50Ms: round(loaded.p50, 2),
    loadedAskP99Ms: round(loaded.p99, 2),
    unbudgetedAskP50Ms: round(unbudgeted.p50, 2),
    unbudgetedAskP99Ms: round(unbudgeted.p99, 2),
  };
  await stop(service);
  return figures;
}

/** Seeds the robots once, then one budget run per entry of `options.allocators`. */
export async function measureMemoryBudget(options: BudgetOptions): Promise<BudgetFigures[]> {
  const dataDir = makeDataDir('bench-memory-budget');
  const budgetBytes =
    (options.budgetMb ?? 0) * 1024 ** 2 ||
    bytesForRules(options.rulesPerRobot) * Math.max(1, Math.floor(options.robots / 5));
  const count = options.loadedAsks ?? 500;
  try {
    console.error(`seeding ${options.robots} robots of ${options.rulesPerRobot} rules…`);
    const service = await start(dataDir, String(budgetBytes));
    const seeded = await seed(service.url, options);
    await stop(service);

    const unbudgeted = process.env.KB_BENCH_SKIP_UNBUDGETED
      ? { p50: Number.NaN, p99: Number.NaN, peakRssMb: Number.NaN }
      : await unbudgetedRun(dataDir, seeded, count);

    const runs: BudgetFigures[] = [];
    for (const build of budgetBuilds(options)) {
      console.error(`budget node, ${build.label} (${build.script}), ${build.allocator} allocator…`);
      runs.push(await budgetRun(dataDir, seeded, options, budgetBytes, build, unbudgeted));
    }
    return runs;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The node without a budget (a fresh process: its own peak RSS), over the same asks. */
async function unbudgetedRun(dataDir: string, seeded: readonly Seeded[], count: number) {
  const service = await start(dataDir, 'none');
  const robots = robotsOf(service.url, seeded);
  const plain = await loadedAsks(robots[0] as RobotClient, seeded[0]?.rules ?? [], count);
  for (const [n, robot] of robots.entries()) {
    await robot.ask(deriveQueries(seeded[n]?.rules ?? [], 1)[0] ?? 'hello');
  }
  const unbudgeted = { ...plain, peakRssMb: peakRssMb(service.child.pid ?? 0) };
  await stop(service);
  return unbudgeted;
}

/** Each allocator's runs; with a baseline, new and base alternated over the rounds. */
function budgetBuilds(options: BudgetOptions): BudgetBuild[] {
  const script = options.script ?? HEADLESS_TS;
  const builds: BudgetBuild[] = [];
  for (const allocator of options.allocators ?? ['default']) {
    if (!options.baseline) {
      builds.push({ label: 'new', script, allocator });
      continue;
    }
    for (let round = 0; round < Math.max(1, options.rounds ?? 1); round++) {
      const pair: BudgetBuild[] = [
        { label: 'new', script, allocator },
        { label: 'base', script: options.baseline, allocator },
      ];
      builds.push(...(round % 2 === 0 ? pair : pair.reverse()));
    }
  }
  return builds;
}

export function budgetLine(f: BudgetFigures): string {
  return (
    `${f.build} (${f.script}): ` +
    `${f.robots} robots × ${f.rulesPerRobot} rules, budget ${f.budgetMb} MB, ${f.allocator} allocator: ` +
    `peak RSS over the asks ${f.peakRssMb} MB, at the end ${f.endRssMb} MB, at start ${f.startPeakRssMb} MB ` +
    `(budget + 150 = ${f.budgetMb + 150}; without a budget ${f.unbudgetedPeakRssMb} MB)\n` +
    `  peak RSS building from rules ${f.buildPeakRssMb} MB (heap used/held ${f.buildHeapUsedMb}/${f.buildHeapTotalMb} MB, outside the heap ${f.buildExternalMb} MB), ` +
    `from files ${f.filePeakRssMb} MB (indexes counted ${f.fileIndexBytesMb} MB, heap used/held ${f.fileHeapUsedMb}/${f.fileHeapTotalMb} MB, outside the heap ${f.fileExternalMb} MB, let go of and not yet collected ${f.fileUncollectedMb} MB)\n` +
    `  first ask of a robot not in memory, built from its rules: p50 ${f.firstAskP50Ms} ms, p99 ${f.firstAskP99Ms} ms (${f.firstAsks} asks)\n` +
    `  first ask of a robot not in memory, opened from its saved file: p50 ${f.fileAskP50Ms} ms, p99 ${f.fileAskP99Ms} ms (${f.fileAsks} asks; ratio p50 ${round(f.fileAskP50Ms / f.firstAskP50Ms, 2)}); ` +
    `its main thread on a CPU p50/p99 ${f.fileAskCpuP50Ms}/${f.fileAskCpuP99Ms} ms, waiting for one ${f.fileAskWaitP50Ms}/${f.fileAskWaitP99Ms} ms\n` +
    `  asks to a robot in memory: p50/p99 ${f.loadedAskP50Ms}/${f.loadedAskP99Ms} ms; ` +
    `without a budget ${f.unbudgetedAskP50Ms}/${f.unbudgetedAskP99Ms} ms ` +
    `(ratio p50 ${round(f.loadedAskP50Ms / f.unbudgetedAskP50Ms, 2)}); load average ${f.loadAverage}`
  );
}

/** `--budget-allocator`'s runs: `both` alternates, so that the machine's drift weighs on each. */
export function allocatorRuns(flag: string | undefined): Allocator[] {
  if (flag === 'both') return ['default', 'tuned', 'tuned', 'default'];
  if (flag === 'tuned') return ['tuned'];
  return ['default'];
}
