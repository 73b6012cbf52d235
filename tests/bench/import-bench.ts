/**
 * `npm run bench -- --import-rate [--import-rules N] [--rounds N] [--service FILE] [--cpu-prof DIR]`:
 * only the import of N generated rules (default 100,000) through the HTTP batch route in batches
 * of 1000, durable, on a service of its own per round: rules/s, and the process's peak RSS
 * during the import. `--service` measures another build of the headless service in the same
 * session (e.g. main's, copied to dist/headless-main.js), the rounds alternating between the two;
 * `--cpu-prof` writes a V8 CPU profile of each service there (its `--cpu-prof`).
 * @module
 */
import { readFileSync, rmSync } from 'node:fs';
import type { RuleInput } from '../../electron/service/api-types';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { peakRssMb } from './stats';

export interface ImportFigures {
  rules: number;
  rulesPerSec: number;
  /**
   * The service's main thread on a CPU during the import, ms per 1000 rules (Linux schedstat):
   * on a loaded machine the wait for a CPU, not the work, makes most of the import's time.
   */
  cpuMsPer1000: number;
  /** Every thread of the service (GC helpers, libuv's fsyncs), ms per 1000 rules. */
  processCpuMsPer1000: number;
  peakRssMb: number;
}

/** Milliseconds of CPU every thread of the process has used (utime + stime, clock ticks of 10 ms). */
const processCpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** Nanoseconds the process's main thread has been on a CPU. */
const onCpuNs = (pid: number): number =>
  Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

/** One import of `rules` into a new service (`script`: another build; `env`: its environment). */
export async function measureImport(
  rules: readonly RuleInput[],
  script?: string,
  cpuProfDir?: string,
  env?: Record<string, string>,
): Promise<ImportFigures> {
  const dataDir = makeDataDir('bench-import');
  try {
    const service = await spawnService(dataDir, {
      ...(script ? { script } : {}),
      ...(env ? { env } : {}),
      nodeArgs: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    });
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [listed] = await client.listRobots(tenantId);
    const robot = client.robot(tenantId, 'default', listed?.robotSecret ?? '');
    const pid = service.child.pid ?? 0;
    const cpuBefore = onCpuNs(pid);
    const processBefore = processCpuMs(pid);
    const start = performance.now();
    for (let i = 0; i < rules.length; i += 1000) {
      const result = await robot.importRules(rules.slice(i, i + 1000));
      if (result.failInfo.length > 0)
        throw new Error(`import failed: ${JSON.stringify(result.failInfo[0])}`);
    }
    const rulesPerSec = rules.length / ((performance.now() - start) / 1000);
    const figures = {
      rules: rules.length,
      rulesPerSec,
      cpuMsPer1000: (onCpuNs(pid) - cpuBefore) / 1e6 / (rules.length / 1000),
      processCpuMsPer1000: (processCpuMs(pid) - processBefore) / (rules.length / 1000),
      peakRssMb: peakRssMb(pid),
    };
    service.child.kill('SIGTERM');
    await service.exited;
    return figures;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Alternating rounds of this build and `other` (when given); medians of each. */
export async function importRounds(
  size: number,
  rounds: number,
  other?: string,
  cpuProfDir?: string,
): Promise<{ current: ImportFigures[]; other: ImportFigures[] }> {
  const rules = generateRules(size, 42);
  const result: { current: ImportFigures[]; other: ImportFigures[] } = { current: [], other: [] };
  for (let round = 0; round < rounds; round++) {
    if (other) result.other.push(await measureImport(rules, other, cpuProfDir));
    result.current.push(await measureImport(rules, undefined, cpuProfDir));
  }
  return result;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The figures as one line: medians, and the ratio against `--service` when measured. */
export function importLine(size: number, result: Awaited<ReturnType<typeof importRounds>>): string {
  const of = (figures: ImportFigures[]) => ({
    rate: median(figures.map((f) => f.rulesPerSec)),
    cpu: median(figures.map((f) => f.cpuMsPer1000)),
    processCpu: median(figures.map((f) => f.processCpuMsPer1000)),
    rss: median(figures.map((f) => f.peakRssMb)),
  });
  const text = ({ rate, cpu, processCpu, rss }: ReturnType<typeof of>) =>
    `${rate.toFixed(0)} rules/s, CPU per 1000 rules ${cpu.toFixed(0)} ms main thread / ` +
    `${processCpu.toFixed(0)} ms process, peak RSS ${rss.toFixed(0)} MB`;
  const current = of(result.current);
  let line = `import of ${size} rules: ${text(current)} (median of ${result.current.length})`;
  if (result.other.length > 0) {
    const other = of(result.other);
    line +=
      `; other build: ${text(other)}; ratios ${(current.rate / other.rate).toFixed(2)} / ` +
      `${(current.cpu / other.cpu).toFixed(2)} / ${(current.processCpu / other.processCpu).toFixed(2)} / ` +
      `${(current.rss / other.rss).toFixed(2)}`;
  }
  return line;
}
