/**
 * `tsx tests/bench/bundle-import-bench.ts [--bundle-mb N] [--service FILE] [--baseline FILE]`,
 * or `npm run bench -- --bundle-import [--bundle-mb N] [--json FILE]`: a robot bundle of about N MB (default 116, the red team's) imported into the built
 * headless service over HTTP, with one bad field in its last rule and then valid, while another
 * robot is asked one question after another. Reports the service's RSS before, its peak during and its RSS after each import, as multiples of the bundle's size, and
 * the slowest ask during each import against the slowest of as many idle asks before it (the
 * same run, so the ratios hold on a noisy machine).
 */
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { BundleRule, RobotBundle } from '../../electron/service/robot-bundle-types';
import { spawnService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { percentile, round } from './stats';

const MB = 1024 * 1024;

export interface BundleImportFigures {
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
    asks: number;
    failedAsks: number;
    slowestAskMs: number;
    askP99Ms: number;
    idleSlowestAskMs: number;
    idleAskP99Ms: number;
    /** slowestAskMs / idleSlowestAskMs. */
    askMaxOverIdle: number;
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
          `${i.valid ? 'valid' : 'invalid'} ${f.bundleMb} MB: ${i.status} in ${i.seconds} s, peak RSS +${i.peakOverBundle}× the bundle, slowest ask ${i.slowestAskMs} ms (${i.askMaxOverIdle}× idle)`,
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

async function importOnce(
  url: string,
  token: string,
  tenantId: number,
  body: Buffer,
): Promise<number> {
  const response = await fetch(`${url}/console/api/tenants/${tenantId}/robots/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

export async function measureBundleImport(
  mb: number,
  script?: string,
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
  const service = await spawnService(dataDir, script ? { script } : {});
  try {
    const pid = service.child.pid ?? 0;
    const token = /token=([\w-]+)/.exec(service.output())?.[1] ?? '';
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [listed] = await client.listRobots(tenantId);
    const robot = client.robot(tenantId, 'default', listed?.robotSecret ?? '');
    await robot.importRules(generateRules(1000, 3));
    const figures: BundleImportFigures = {
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
      const start = performance.now();
      const status = await importOnce(service.url, token, tenantId, body);
      const seconds = (performance.now() - start) / 1000;
      const { samples, failed } = await asks.stop();
      clearInterval(sampler);
      const rssAfterMb = rssMb(pid, 'VmRSS');
      figures.imports.push({
        valid: isValid,
        status,
        seconds: round(seconds, 1),
        rssBeforeMb: round(rssBeforeMb, 0),
        peakRssMb: round(peak, 0),
        rssAfterMb: round(rssAfterMb, 0),
        peakOverBundle: round((peak - rssBeforeMb) / (valid.length / MB), 2),
        asks: samples.length,
        failedAsks: failed,
        slowestAskMs: round(Math.max(...samples), 0),
        askP99Ms: round(percentile(samples, 99), 0),
        idleSlowestAskMs: round(Math.max(...idleSamples), 0),
        idleAskP99Ms: round(percentile(idleSamples, 99), 0),
        askMaxOverIdle: round(Math.max(...samples) / Math.max(...idleSamples), 1),
      });
    }
    return figures;
  } finally {
    service.child.kill('SIGKILL');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      'bundle-mb': { type: 'string', default: '116' },
      service: { type: 'string' },
      baseline: { type: 'string' },
    },
  });
  const figures = await measureBundleImport(Number(values['bundle-mb']), values.service);
  if (values.baseline) {
    figures.baseline = await measureBundleImport(Number(values['bundle-mb']), values.baseline);
  }
  console.log(JSON.stringify(figures, null, 2));
  process.exit(0);
}
