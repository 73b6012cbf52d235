/**
 * `npx tsx tests/bench/import-memory-bench.ts [--rules N] [--rounds N] [--service FILE]`: where an
 * import's memory goes, for work on the import path (issue 31). A service of its own per round
 * imports N generated rules (default 100,000) through the HTTP batch route in batches of 1000;
 * the service runs with `--trace-gc`, so beside its RSS (VmRSS every 10 ms, VmHWM) the V8 heap
 * each full collection left is known: the import's peak RSS, RSS at its end, the live heap after
 * the last mark-compact, and the main thread's CPU per 1000 rules. `--service` alternates rounds
 * with another build of the headless service (e.g. the base's, built into dist/base/);
 * `--node-args="…"` gives the service's node flags (both builds).
 * @module
 */
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import type { RuleInput } from '../../electron/service/api-types';

interface Figures {
  peakRssMb: number;
  rssAtEndMb: number;
  /** The V8 heap the last mark-compact of the import left (live objects, MB). */
  liveHeapMb: number;
  /** The V8 heap kept for it then (committed, MB). */
  committedHeapMb: number;
  cpuMsPer1000: number;
  /** VmHWM once the snapshot an idle spell after the import takes has had time to run. */
  peakAfterMb: number;
  /** Most threads seen (a snapshot worker adds a thread and a copy of the database). */
  threads: number;
  /**
   * VmRSS of a new start on the same data once it has answered a question (the saved index
   * opened): the floor the same rules cost at rest, without the import's leftovers.
   */
  restartedRssMb: number;
}

const statusMb = (pid: number, field: string): number =>
  Number(
    new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1],
  ) / 1024;

const onCpuMs = (pid: number): number =>
  Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;

/**
 * The heap after the last full collection in `--trace-gc` output (`… -> 123.4 (130.0) MB`): live
 * objects, and the heap V8 keeps for them (committed).
 */
function lastFullCollection(output: string): { live: number; committed: number } {
  const last = [...output.matchAll(/Mark-Compact[^\n]*?-> ([\d.]+) \(([\d.]+)\)/g)].at(-1);
  return { live: Number(last?.[1] ?? Number.NaN), committed: Number(last?.[2] ?? Number.NaN) };
}

async function measure(
  rules: readonly RuleInput[],
  script?: string,
  nodeArgs: string[] = [],
): Promise<Figures> {
  const dataDir = makeDataDir('bench-import-memory');
  try {
    const service = await spawnService(dataDir, {
      ...(script ? { script } : {}),
      nodeArgs: ['--trace-gc', ...nodeArgs],
    });
    const pid = service.child.pid ?? 0;
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [listed] = await client.listRobots(tenantId);
    const robot = client.robot(tenantId, 'default', listed?.robotSecret ?? '');
    const cpuBefore = onCpuMs(pid);
    let threads = 0;
    const watch = setInterval(() => {
      threads = Math.max(
        threads,
        Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]),
      );
    }, 20);
    for (let i = 0; i < rules.length; i += 1000) {
      const result = await robot.importRules(rules.slice(i, i + 1000));
      if (result.failInfo.length > 0) throw new Error('import failed');
    }
    const figures = {
      peakRssMb: statusMb(pid, 'VmHWM'),
      rssAtEndMb: statusMb(pid, 'VmRSS'),
      liveHeapMb: lastFullCollection(service.output()).live,
      committedHeapMb: lastFullCollection(service.output()).committed,
      cpuMsPer1000: (onCpuMs(pid) - cpuBefore) / (rules.length / 1000),
      peakAfterMb: 0,
      threads: 0,
      restartedRssMb: 0,
    };
    await new Promise((resolve) => setTimeout(resolve, 8000));
    clearInterval(watch);
    figures.peakAfterMb = statusMb(pid, 'VmHWM');
    figures.threads = threads;
    service.child.kill('SIGTERM');
    await service.exited;
    const again = await spawnService(dataDir, script ? { script } : {});
    const client2 = new OpenApiClient({ baseUrl: again.url, ...TEST_CREDENTIALS });
    await client2
      .robot(tenantId, 'default', listed?.robotSecret ?? '')
      .ask('how do i reset my card');
    figures.restartedRssMb = statusMb(again.child.pid ?? 0, 'VmRSS');
    again.child.kill('SIGTERM');
    await again.exited;
    return figures;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const line = (label: string, runs: Figures[]): string =>
  `${label}: peak RSS ${median(runs.map((f) => f.peakRssMb)).toFixed(0)} MB, at the end ` +
  `${median(runs.map((f) => f.rssAtEndMb)).toFixed(0)} MB, live heap ` +
  `${median(runs.map((f) => f.liveHeapMb)).toFixed(0)} MB of ` +
  `${median(runs.map((f) => f.committedHeapMb)).toFixed(0)} MB kept, CPU per 1000 rules ` +
  `${median(runs.map((f) => f.cpuMsPer1000)).toFixed(0)} ms (median of ${runs.length}; ` +
  `peak with the snapshot after ${median(runs.map((f) => f.peakAfterMb)).toFixed(0)} MB, ` +
  `threads ${median(runs.map((f) => f.threads))}; a new start on the same data ` +
  `${median(runs.map((f) => f.restartedRssMb)).toFixed(0)} MB; ` +
  `peaks ${runs.map((f) => f.peakRssMb.toFixed(0)).join(' / ')})`;

const { values } = parseArgs({
  options: {
    rules: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '1' },
    service: { type: 'string' },
    // Flags for the service's node (both builds), e.g. `--node-args=--max-semi-space-size=4`.
    'node-args': { type: 'string', default: '' },
  },
});
const rules = generateRules(Number(values.rules), 42);
const current: Figures[] = [];
const other: Figures[] = [];
const nodeArgs = values['node-args'].split(' ').filter((arg) => arg.length > 0);
for (let round = 0; round < Number(values.rounds); round++) {
  if (values.service) other.push(await measure(rules, values.service, nodeArgs));
  current.push(await measure(rules, undefined, nodeArgs));
}
console.log(line(`this build, ${rules.length} rules`, current));
if (values.service) console.log(line(values.service, other));
