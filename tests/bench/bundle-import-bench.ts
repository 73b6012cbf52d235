/**
 * `tsx tests/bench/bundle-import-bench.ts [--bundle-mb N] [--service FILE] [--baseline FILE] [--cpu-prof DIR]
 * [--database postgres://…]`, or `npm run bench -- --bundle-import [--bundle-mb N] [--database URL]
 * [--json FILE]`: a robot bundle of about
 * N MB (default 116, the red team's) imported into the built headless service over HTTP, with
 * one bad field in its last rule and then valid, while another robot is asked one question after
 * another. With `--database` (a PostgreSQL cluster's maintenance database, e.g. the one
 * `tsx tests/with-postgres.ts` starts: `KB_TEST_PG_URL`), on the team server: a database of its
 * own made in that cluster. Reports, for each import:
 * - the service's RSS before, its peak during (and for `TAIL_MS` after: the snapshot that
 *   follows a large write) and after, the peak's growth as a multiple of the bundle's size;
 * - on the embedded store, the database's own growth (its snapshot file, written at a clean stop
 *   before and after the imports: sql.js holds the database in memory, a copy of the data by
 *   design) and the import's own share: the RSS growth minus the database's;
 * - the slowest ask during the import against the slowest of idle asks before it (the same run,
 *   so the ratio holds on a noisy machine), and the longest holds of the service's event loop
 *   (tests/bench/loop-holds.mjs): the longest, and the most CPU time used in one (on a loaded
 *   machine a hold is mostly waiting for a core: its CPU time is the work that held the loop),
 *   until the answer and in the `TAIL_MS` after it (the snapshot a large write is followed by).
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { BundleRule, RobotBundle } from '../../electron/service/robot-bundle-types';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { freshDatabase } from '../helpers/postgres';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { percentile, round } from './stats';

const MB = 1024 * 1024;

/** RSS is still sampled this long after the answer: the snapshot a large write is followed by. */
const TAIL_MS = 6000;

/**
 * After a valid import on the embedded store, until its snapshot is written, at most this; on the
 * team server, until the node has followed the import's own changes (the change feed names every
 * rule of the copy: read back from the database) and says it is ready again.
 */
const SNAPSHOT_WAIT_MS = 180_000;

/** The service's event loop, watched from inside (node's `--import`). */
const LOOP_HOLDS = join(import.meta.dirname, 'loop-holds.mjs');
/**
 * The same holds with the main thread's own CPU (tests/bench/main-thread-holds.mjs): the
 * process's counts V8's helper threads too (a heap's concurrent marking after a large import),
 * which hold nothing.
 */
const MAIN_THREAD_HOLDS = join(import.meta.dirname, 'main-thread-holds.mjs');

export interface BundleImportFigures {
  store: 'embedded' | 'postgres';
  bundleMb: number;
  rules: number;
  /** Invalid (the last rule's `active` a string), then valid: each import's figures. */
  imports: {
    valid: boolean;
    status: number;
    seconds: number;
    rssBeforeMb: number;
    peakRssMb: number;
    rssAfterMb: number;
    /** (peak − before) / bundle size. */
    peakOverBundle: number;
    /** The database's growth (embedded store; 0 for an invalid bundle), MB. */
    databaseGrowthMb: number | null;
    /** (peak − before − database growth) / bundle size: the import's own share. */
    ownOverBundle: number;
    /**
     * The longest hold of the event loop, and the most CPU time the process used in one hold
     * (on a loaded machine a hold is mostly waiting for a core; its CPU time is the work).
     */
    loopHoldMaxMs: number;
    holdCpuMaxMs: number;
    /** The most CPU time the main thread alone used in one hold (the work that held the loop). */
    holdMainCpuMaxMs: number;
    /** The same, after the answer (`TAIL_MS`: the snapshot that follows a large write). */
    afterHoldMaxMs: number;
    afterHoldCpuMaxMs: number;
    afterHoldMainCpuMaxMs: number;
    asks: number;
    failedAsks: number;
    slowestAskMs: number;
    askP99Ms: number;
    idleSlowestAskMs: number;
    idleAskP99Ms: number;
    /** slowestAskMs / idleSlowestAskMs. */
    askMaxOverIdle: number;
    /** (peak until the answer − before) / bundle size: the import alone, not its snapshot. */
    importPeakOverBundle: number;
    /**
     * (peak until the answer − before − database growth) / bundle size: the import's own memory
     * (on the embedded store the database is held in memory by design; on PostgreSQL it is in
     * the database's process, and this is `importPeakOverBundle`).
     */
    importOwnOverBundle: number;
    /** Seconds from the answer to the snapshot that covers a valid import (null: none seen). */
    snapshotSeconds: number | null;
    /** Team server: seconds from the answer until `/readyz` says ready again (its tail's end). */
    readySeconds: number | null;
    /** Asks after the answer, until that snapshot is written, or ready again (at least `TAIL_MS`). */
    tailAskMaxMs: number;
    tailAskP99Ms: number;
  }[];
  /** The same measured on another build (`--baseline dist/headless.js` of it), in the same run. */
  baseline?: Omit<BundleImportFigures, 'baseline'>;
}

/** One line per import: the ratios that matter (RSS over the bundle, slowest ask over idle). */
export function bundleImportLine(figures: BundleImportFigures): string {
  const line = (f: Omit<BundleImportFigures, 'baseline'>) =>
    f.imports
      .map(
        (i) =>
          `${f.store} ${i.valid ? 'valid' : 'invalid'} ${f.bundleMb} MB: ${i.status} in ${i.seconds} s, peak RSS +${i.peakOverBundle}× the bundle (+${i.importPeakOverBundle}× until the answer) (database +${i.databaseGrowthMb ?? '?'} MB, own +${i.ownOverBundle}×, own until the answer +${i.importOwnOverBundle}×), slowest ask ${i.slowestAskMs} ms (${i.askMaxOverIdle}× idle), loop held ${i.loopHoldMaxMs} ms at most (${i.holdCpuMaxMs} ms of CPU at most, ${i.holdMainCpuMaxMs} ms of the main thread's), after the answer ${i.afterHoldMaxMs} ms (${i.afterHoldCpuMaxMs} ms of CPU, ${i.afterHoldMainCpuMaxMs} ms of the main thread's; ${f.store === 'postgres' ? `ready again ${i.readySeconds ?? '–'} s later` : `snapshot ${i.snapshotSeconds ?? '–'} s later`}, asks meanwhile max ${i.tailAskMaxMs} ms, p99 ${i.tailAskP99Ms} ms)`,
      )
      .join('\n');
  return figures.baseline
    ? `${line(figures)}\nbaseline:\n${line(figures.baseline)}`
    : line(figures);
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** A bundle of about `mb` MiB: generated rules with answers long enough to reach it. */
export function makeBundle(mb: number): RobotBundle {
  const answerChars = 300;
  const probe = generateRules(100, 7);
  const perRule =
    Buffer.byteLength(JSON.stringify(probe.map((r, i) => bundleRuleOf(r, i, answerChars)))) / 100;
  const count = Math.max(1, Math.min(200_000, Math.round((mb * MB) / perRule)));
  const rules = generateRules(count, 7).map((r, i) => bundleRuleOf(r, i, answerChars));
  return {
    format: 'kb-studio-robot',
    version: 1,
    robot: { name: 'bundle bench', settings: {} },
    categories: [{ name: '常见问题' }],
    rules,
    testCases: [],
  };
}

function bundleRuleOf(
  rule: { ruleName: string; questions: string[]; answer: string },
  i: number,
  answerChars: number,
): BundleRule {
  return {
    ruleId: `bench-${i}`,
    ruleName: rule.ruleName,
    questions: rule.questions,
    answer: `${rule.answer} ${'答'.repeat(answerChars)}`,
    categoryName: i % 3 === 0 ? '常见问题' : null,
    active: true,
    allowSimGen: null,
    effectBeignDate: null,
    effectEndDate: null,
    matchPolicy: 'similarity',
    negativeKeywords: [],
    menu: null,
  };
}

/** Asks one question after another until stopped; the latency of each. */
function askLoop(robot: RobotClient) {
  const samples: number[] = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const start = performance.now();
      // A failed ask (a connection the service reset while held) counts with its time.
      await robot
        .ask(i % 2 === 0 ? 'how do i reset my password' : '怎么重置密码', `u${i % 7}`)
        .catch(() => (failed += 1));
      samples.push(performance.now() - start);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { samples, failed };
    },
  };
}

/** The longest loop holds in `output` (lines of tests/bench/loop-holds.mjs). */
function loopHolds(output: string): { max: number; cpu: number; mainCpu: number } {
  let max = 0;
  let cpu = 0;
  let mainCpu = 0;
  for (const [, held, used] of output.matchAll(/^loop-hold (\d+) cpu (\d+)$/gm)) {
    max = Math.max(max, Number(held));
    cpu = Math.max(cpu, Math.min(Number(held), Number(used)));
  }
  for (const [, held, used] of output.matchAll(/^main-hold (\d+) cpu (\d+)$/gm)) {
    mainCpu = Math.max(mainCpu, Math.min(Number(held), Number(used)));
  }
  return { max, cpu, mainCpu };
}

/** Whether the service says it is ready (a team node: caught up with the change feed). */
async function ready(url: string): Promise<boolean> {
  const response = await fetch(`${url}/readyz`).catch(() => null);
  await response?.body?.cancel();
  return response?.status === 200;
}

/** Stops the service cleanly (a final snapshot); the size of its snapshot file, if any. */
async function stopCleanly(service: ChildService, dataDir: string): Promise<number | null> {
  service.child.kill('SIGTERM');
  await service.exited;
  const snapshot = join(dataDir, 'kb.sqlite');
  return existsSync(snapshot) ? statSync(snapshot).size : null;
}

/**
 * Posts the bundle; the answer's status. Over node:http, not fetch: fetch gives up on an answer
 * that takes over 5 minutes to start (a 116 MB import on a loaded machine).
 */
export function importOnce(
  url: string,
  token: string,
  tenantId: number,
  body: Buffer,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}/console/api/tenants/${tenantId}/robots/import`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': body.length,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A database of its own in the cluster of `cluster` (its maintenance database's URL). */
async function benchDatabase(cluster: string): Promise<string> {
  process.env.KB_TEST_PG_URL = cluster;
  return freshDatabase('bundle_bench');
}

export async function measureBundleImport(
  mb: number,
  script?: string,
  cpuProfDir?: string,
  database?: string,
): Promise<BundleImportFigures> {
  const bundle = makeBundle(mb);
  const valid = Buffer.from(JSON.stringify(bundle));
  const last = bundle.rules[bundle.rules.length - 1] as BundleRule;
  const invalid = Buffer.from(
    JSON.stringify({
      ...bundle,
      rules: [...bundle.rules.slice(0, -1), { ...last, active: 'yes' }],
    }),
  );
  const dataDir = makeDataDir('bench-bundle');
  const nodeArgs = ['--import', LOOP_HOLDS, '--import', MAIN_THREAD_HOLDS];
  // Where the holds come from: node writes a .cpuprofile per run of the service at its stop.
  if (cpuProfDir) nodeArgs.push('--cpu-prof', '--cpu-prof-dir', cpuProfDir);
  const env = database ? { KB_DATABASE_URL: await benchDatabase(database) } : undefined;
  const spawnOptions = { ...(script ? { script } : {}), ...(env ? { env } : {}), nodeArgs };
  let service = await spawnService(dataDir, spawnOptions);
  let running = true;
  try {
    const setup = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await setup.registerTenant(tenantRequest());
    const [listed] = await setup.listRobots(tenantId);
    await setup
      .robot(tenantId, 'default', listed?.robotSecret ?? '')
      .importRules(generateRules(1000, 3));
    // The database's size before the imports: stopped cleanly, started again on it.
    const databaseBefore = await stopCleanly(service, dataDir);
    running = false;
    service = await spawnService(dataDir, spawnOptions);
    running = true;
    const pid = service.child.pid ?? 0;
    const token = /token=([\w-]+)/.exec(service.output())?.[1] ?? '';
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const robot = client.robot(tenantId, 'default', listed?.robotSecret ?? '');
    await robot.ask('warm up', 'u0');
    const figures: BundleImportFigures = {
      store: database ? 'postgres' : 'embedded',
      bundleMb: round(valid.length / MB, 1),
      rules: bundle.rules.length,
      imports: [],
    };
    for (const [isValid, body] of [
      [false, invalid],
      [true, valid],
    ] as const) {
      const idle = askLoop(robot);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const { samples: idleSamples } = await idle.stop();
      const rssBeforeMb = rssMb(pid, 'VmRSS');
      let peak = rssBeforeMb;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid, 'VmRSS'))), 10);
      const asks = askLoop(robot);
      const outputFrom = service.output().length;
      const start = performance.now();
      const status = await importOnce(service.url, token, tenantId, body);
      const seconds = (performance.now() - start) / 1000;
      const outputAtAnswer = service.output().length;
      const peakAtAnswer = peak;
      const { samples, failed } = await asks.stop();
      // After a valid import, until the snapshot that covers it is written (embedded store),
      // asking all along: the asks the snapshot may hold.
      const answeredAt = Date.now();
      const snapshotFile = join(dataDir, 'kb.sqlite');
      const snapshotWritten = () =>
        existsSync(snapshotFile) && statSync(snapshotFile).mtimeMs > answeredAt;
      const tailAsks = askLoop(robot);
      const waitsForSnapshot = isValid && databaseBefore !== null;
      const tailEnd = answeredAt + (waitsForSnapshot || database ? SNAPSHOT_WAIT_MS : TAIL_MS);
      let followed = false;
      while (Date.now() < tailEnd) {
        if (waitsForSnapshot && snapshotWritten()) break;
        if (database && Date.now() >= answeredAt + TAIL_MS) {
          followed = await ready(service.url);
          if (followed) break;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const followSeconds = followed ? (Date.now() - answeredAt) / 1000 : null;
      const snapshotSeconds = snapshotWritten() ? (Date.now() - answeredAt) / 1000 : null;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { samples: tail } = await tailAsks.stop();
      clearInterval(sampler);
      const holds = loopHolds(service.output().slice(outputFrom, outputAtAnswer));
      const after = loopHolds(service.output().slice(outputAtAnswer));
      const rssAfterMb = rssMb(pid, 'VmRSS');
      figures.imports.push({
        valid: isValid,
        status,
        seconds: round(seconds, 1),
        rssBeforeMb: round(rssBeforeMb, 0),
        peakRssMb: round(peak, 0),
        rssAfterMb: round(rssAfterMb, 0),
        peakOverBundle: round((peak - rssBeforeMb) / (valid.length / MB), 2),
        // Known once the service has stopped (below).
        databaseGrowthMb: isValid ? null : 0,
        ownOverBundle: round((peak - rssBeforeMb) / (valid.length / MB), 2),
        loopHoldMaxMs: holds.max,
        holdCpuMaxMs: holds.cpu,
        holdMainCpuMaxMs: holds.mainCpu,
        afterHoldMaxMs: after.max,
        afterHoldCpuMaxMs: after.cpu,
        afterHoldMainCpuMaxMs: after.mainCpu,
        asks: samples.length,
        failedAsks: failed,
        slowestAskMs: round(Math.max(...samples), 0),
        askP99Ms: round(percentile(samples, 99), 0),
        idleSlowestAskMs: round(Math.max(...idleSamples), 0),
        idleAskP99Ms: round(percentile(idleSamples, 99), 0),
        askMaxOverIdle: round(Math.max(...samples) / Math.max(...idleSamples), 1),
        importPeakOverBundle: round((peakAtAnswer - rssBeforeMb) / (valid.length / MB), 2),
        importOwnOverBundle: round((peakAtAnswer - rssBeforeMb) / (valid.length / MB), 2),
        snapshotSeconds: snapshotSeconds === null ? null : round(snapshotSeconds, 1),
        readySeconds: followSeconds === null ? null : round(followSeconds, 1),
        tailAskMaxMs: round(Math.max(...tail), 0),
        tailAskP99Ms: round(percentile(tail, 99), 0),
      });
    }
    const databaseAfter = await stopCleanly(service, dataDir);
    running = false;
    for (const done of figures.imports) {
      if (!done.valid) continue;
      if (databaseBefore === null || databaseAfter === null) continue; // PostgreSQL's own process
      const growthMb = (databaseAfter - databaseBefore) / MB;
      done.databaseGrowthMb = round(growthMb, 0);
      done.ownOverBundle = round(
        (done.peakRssMb - done.rssBeforeMb - growthMb) / (valid.length / MB),
        2,
      );
      done.importOwnOverBundle = round(
        done.importPeakOverBundle - growthMb / (valid.length / MB),
        2,
      );
    }
    return figures;
  } finally {
    if (running) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      'bundle-mb': { type: 'string', default: '116' },
      service: { type: 'string' },
      baseline: { type: 'string' },
      'cpu-prof': { type: 'string' },
      database: { type: 'string' },
    },
  });
  const figures = await measureBundleImport(
    Number(values['bundle-mb']),
    values.service,
    values['cpu-prof'],
    values.database,
  );
  if (values.baseline) {
    figures.baseline = await measureBundleImport(
      Number(values['bundle-mb']),
      values.baseline,
      undefined,
      values.database,
    );
  }
  console.log(JSON.stringify(figures, null, 2));
  process.exit(0);
}
