/**
 * `npm run bench -- --memory [--rounds N] [--heap-snapshot DIR] [--service FILE]`: only the peak RSS figures of
 * the full bench at 100k rules, by the same steps (import in batches of 1000, 1000 warm-up and
 * 1000 timed HTTP asks, 200 deepest list pages, then SIGTERM), for work on memory. Also the
 * resident and V8 heap figures at the end of that work, and with `--heap-snapshot` a V8 heap
 * snapshot written there (the service runs with `--heapsnapshot-signal=SIGUSR2`; the snapshot's
 * own cost is taken after the figures above are read). `--service` measures another build of
 * the headless service (e.g. main's, copied to dist/headless-main.js) in the same session, the
 * rounds alternating between the two.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { spawnService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { followPeakRss, peakRssMb } from './stats';
import { deriveQueries } from './typed-questions';

export interface MemoryFigures {
  size: number;
  peakRssMb: number;
  peakRssWithStopMb: number;
  /** VmRSS once the asks and list pages are done. */
  rssAfterWorkMb: number;
}

function statusKb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
}

async function registerRobot(url: string): Promise<RobotClient> {
  const client = new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });
  const { tenantId } = await client.registerTenant(tenantRequest());
  const [robot] = await client.listRobots(tenantId);
  return client.robot(tenantId, 'default', robot?.robotSecret ?? '');
}

async function importAll(robot: RobotClient, rules: readonly RuleInput[]): Promise<void> {
  for (let i = 0; i < rules.length; i += 1000) {
    const result = await robot.importRules(rules.slice(i, i + 1000));
    if (result.failInfo.length > 0)
      throw new Error(`import failed: ${JSON.stringify(result.failInfo[0])}`);
  }
}

async function waitForNewFile(dir: string, before: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const files = readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
    if (files.length > before) {
      // Written when its size stops growing.
      await new Promise((r) => setTimeout(r, 3000));
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The bench's 100k steps up to the stop, on a service of its own. */
export async function measureMemory(
  size: number,
  heapSnapshotDir?: string,
  script?: string,
): Promise<MemoryFigures> {
  const dataDir = makeDataDir('bench-memory');
  const rules = generateRules(size, 42);
  const queries = deriveQueries(rules, 1_000);
  const warmUp = deriveQueries(rules, 1_000, 1_000_000);
  try {
    const service = await spawnService(dataDir, {
      ...(script ? { script } : {}),
      nodeArgs: heapSnapshotDir
        ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapSnapshotDir}`]
        : [],
    });
    const pid = service.child.pid ?? 0;
    const robot = await registerRobot(service.url);
    await importAll(robot, rules);
    for (const question of [...warmUp, ...queries]) await robot.ask(question);
    const lastPage = Math.max(0, Math.ceil(size / 20) - 1);
    for (let i = 0; i < 200; i++) await robot.listRules(lastPage, 20);
    const figures: MemoryFigures = {
      size,
      peakRssMb: peakRssMb(pid),
      peakRssWithStopMb: Number.NaN,
      rssAfterWorkMb: statusKb(pid, 'VmRSS') / 1024,
    };
    if (heapSnapshotDir) {
      const before = readdirSync(heapSnapshotDir).length;
      service.child.kill('SIGUSR2');
      await waitForNewFile(heapSnapshotDir, before);
    }
    const lifetimePeak = followPeakRss(pid);
    service.child.kill('SIGTERM');
    await service.exited;
    figures.peakRssWithStopMb = lifetimePeak.stop();
    return figures;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
