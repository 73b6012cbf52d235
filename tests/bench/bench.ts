/**
 * `npm run bench [-- --quick] [-- --json FILE]`: the service's speed, measured (never asserted).
 * At 1k, 10k and 100k generated rules (5 phrasings each; --quick: 1k and 10k):
 *   ask latency in-process (Fastify inject, no socket) and over HTTP, p50/p99, of questions
 *   the service has not been asked before (after a warm-up of 1000 other questions);
 *   HTTP ask requests/s next to a bare Node server answering a fixed body (same run, same load,
 *   alternating rounds, medians), for 1000 questions asked over and over (repeated traffic) and
 *   for a new question each time;
 *   import rules/s through the HTTP batch route (batches of 1000, durable);
 *   time from spawning the service on a data directory to the first answered question;
 *   latency of the deepest list page; peak RSS of the service process (before its stop, and over
 *   its whole life, the stop's snapshot and saved index included).
 * The same import and HTTP ask load run again against the service with a stand-in matching
 * index (tests/bench/stand-in-service.ts): the service's own cost apart from the engine's.
 * At 10k rules, ask p99 idle and while two tenants import (tests/bench/ask-under-import.ts);
 * `--under-import` measures only that (quicker, for work on it).
 * At 10k rules, the question log: ask requests/s with the log on against off, its bytes per
 * million asks, and the inbox of 100k logged questions (tests/bench/question-log-bench.ts);
 * `--question-log [--log-asks N] [--database postgres://…]` measures only that, and the log at
 * volume: N asks (default 1,000,000) recorded, then the editor's reads timed while asks go on,
 * RSS, bytes and the size budget (tests/bench/question-log-volume.ts), on both stores;
 * `--question-log --log-dir D [--baseline JS] [--rounds R]`: only the log at volume, on a log
 * filled once in D and kept (no size budget), read by this build and the baseline's in turn;
 * with `--database postgres://…/postgres`, the team server's: filled once into a database of
 * that cluster named in D, each run on a copy of it, the size budget included
 * (tests/bench/question-log-pg-kept.ts).
 * `--memory [--rounds N] [--heap-snapshot DIR] [--service FILE]`: only the peak RSS at 100k
 * rules (tests/bench/memory-bench.ts), medians of N rounds.
 * Publishing at 10k and 100k rules (tests/bench/publish-bench.ts; --quick: 20 edits, not 100).
 * `--database postgres://…` measures only the team server next to the embedded store, at 10k
 * rules (--quick: 1k): import, ask p99 and requests/s on one node and three, and the delay from a
 * write on one node to its answer on another (tests/bench/team-server-bench.ts).
 * `--version-reads [--version-rules N] [--rounds N]`: only the longest hold of the loop during a
 * version diff, paged against read whole (tests/bench/version-read-bench.ts).
 * `--import-rate [--import-rules N] [--rounds N] [--service FILE] [--cpu-prof DIR]`: only the
 * import rate and its peak RSS (tests/bench/import-bench.ts).
 * `--embedding-import [--import-rules N] [--rounds N] [--embedding-dimensions D]`: only the import
 * rate with an embedding provider against without, alternating (embedding-import-bench.ts).
 * `--collisions [--collision-sizes 1000,100000]`: only the collision report's time against the
 * same number of plain asks, and its longest hold (tests/bench/collision-bench.ts).
 * `--rule-figures --database postgres://… [--log-asks N] [--rule-days D] [--rounds R] [--baseline JS]`: only rule
 * analytics and rule hits on the team server, every day summed against running totals
 * (tests/bench/rule-figures-bench.ts); `--log-ratio --database postgres://…`: only askLogRatio and
 * askLogCpuRatio on both stores.
 * `--log-reads [--log-asks N] [--log-dir D] [--rounds R] [--cpu-prof DIR] [--baseline JS]`:
 * only the editor's reads of the kept figures, wall and CPU, on a log filled once in D and
 * reused, against another build's headless.js read in the same run
 * (tests/bench/question-log-reads-bench.ts).
 * `--question-log-pg --database postgres://…/postgres [--log-asks N] [--rounds R]`: only the log
 * at volume on the team server, in a database of its own, with the reads changed timed against
 * what they were (tests/bench/question-log-pg-bench.ts).
 * `--log-pg-reads --database postgres://…/FILLED --baseline JS [--rounds R]`: only the team
 * server's editor reads and size budget on a copy of a filled log, another build's headless.js
 * read first in the same run (tests/bench/question-log-pg-reads.ts).
 * The machine is shared and noisy: compare the ratios, not the absolute figures.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { startService } from '../../electron/service/index';
import { silentLogger } from '../../electron/service/logger';
import { spawnService } from '../helpers/child-service';
import { TEST_CREDENTIALS, TEST_ENV, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { deriveQueries } from './typed-questions';
import { askUnderImport } from './ask-under-import';
import type { AskUnderImport } from './ask-under-import';
import { alternatingRps, askRps, askTarget, bareRps } from './http-load';
import { measurePublishing } from './publish-bench';
import type { PublishFigures } from './publish-bench';
import { followPeakRss, peakRssMb, percentile, round } from './stats';
import { measureQuestionLog } from './question-log-bench';
import { measureLogVolume, volumeLine } from './question-log-volume';
import { comparedLine, measurePostgresVolume } from './question-log-pg-bench';
import { measurePgReads, pgReadsLine } from './question-log-pg-reads';
import { logReadLine, measureLogReads } from './log-read-bench';
import { measureTeamServer } from './team-server-bench';
import { measureMemory } from './memory-bench';
import type { MemoryFigures } from './memory-bench';
import { embeddingLine, measureEmbedding } from './embedding-bench';
import { embeddingImportLine, measureEmbeddingImport } from './embedding-import-bench';
import { impactLine, measureImpact } from './impact-bench';
import type { ImpactEdits, ImpactKb, ImpactRunner } from './impact-bench';
import { collisionLine, measureCollisions } from './collision-bench';
import { allocatorRuns, budgetLine, measureMemoryBudget } from './memory-budget-bench';
import { bundleImportLine, measureBundleImport } from './bundle-import-bench';
import { feedImportLine, measureFeedImport } from './feed-import-bench';
import type { FeedImportFigures } from './feed-import-bench';
import { measureVersionReads, versionReadLine } from './version-read-bench';
import {
  logRatiosLine,
  measureLogRatios,
  measureRuleFigures,
  ruleFiguresLine,
} from './rule-figures-bench';
import { importLine, importRounds } from './import-bench';
import { measureReads, readsLine } from './question-log-reads-bench';

const STAND_IN = join(import.meta.dirname, 'stand-in-service.ts');

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    'under-import': { type: 'boolean', default: false },
    'question-log': { type: 'boolean', default: false },
    'log-asks': { type: 'string', default: '1000000' },
    database: { type: 'string' },
    memory: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    'heap-snapshot': { type: 'string' },
    service: { type: 'string' },
    embedding: { type: 'boolean', default: false },
    'embedding-size': { type: 'string', default: '1000,10000,100000' },
    'embedding-dimensions': { type: 'string', default: '1024' },
    impact: { type: 'boolean', default: false },
    'version-reads': { type: 'boolean', default: false },
    'version-rules': { type: 'string', default: '10000' },
    'impact-questions': { type: 'string', default: '100000' },
    'impact-edited': { type: 'string', default: '5,300' },
    'impact-kb': { type: 'string', default: 'zipf,narrow' },
    'impact-edits': { type: 'string', default: 'mixed,answers' },
    'impact-runners': { type: 'string', default: 'worker,loop' },
    'impact-rounds': { type: 'string', default: '1' },
    collisions: { type: 'boolean', default: false },
    'collision-sizes': { type: 'string', default: '1000,10000,100000' },
    'memory-budget': { type: 'boolean', default: false },
    'budget-robots': { type: 'string', default: '20' },
    'budget-rules': { type: 'string', default: '10000' },
    'budget-mb': { type: 'string', default: '0' },
    'budget-cpu-prof': { type: 'string' },
    'budget-allocator': { type: 'string', default: 'default' },
    'bundle-import': { type: 'boolean', default: false },
    'feed-import': { type: 'boolean', default: false },
    'bundle-mb': { type: 'string', default: '116' },
    baseline: { type: 'string' },
    'rule-figures': { type: 'boolean', default: false },
    'question-log-pg': { type: 'boolean', default: false },
    'log-pg-reads': { type: 'boolean', default: false },
    'rule-days': { type: 'string', default: '90' },
    'log-ratio': { type: 'boolean', default: false },
    'import-rate': { type: 'boolean', default: false },
    'embedding-import': { type: 'boolean', default: false },
    'import-rules': { type: 'string', default: '100000' },
    'cpu-prof': { type: 'string' },
    'log-reads': { type: 'boolean', default: false },
    'log-dir': { type: 'string' },
  },
});
if (values['log-reads']) {
  const [asks, rounds, dir, cpuProfDir] = [
    Number(values['log-asks']),
    Number(values.rounds),
    values['log-dir'],
    values['cpu-prof'],
  ];
  const figures = await measureReads({
    rules: generateRules(10_000, 42),
    asks,
    rounds,
    dir,
    cpuProfDir,
    ...(values.baseline ? { baseline: values.baseline } : {}),
  });
  console.log(readsLine(figures));
  if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
  process.exit(0);
}
if (values['embedding-import']) {
  const figures = await measureEmbeddingImport(
    Number(values['import-rules']),
    Math.max(1, Number(values.rounds)),
    Number(values['embedding-dimensions']),
  );
  console.log(embeddingImportLine(figures));
  if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
  process.exit(0);
}
if (values['import-rate']) {
  const size = Number(values['import-rules']);
  const rounds = Math.max(1, Number(values.rounds));
  const result = await importRounds(size, rounds, values.service, values['cpu-prof']);
  console.log(importLine(size, result));
  if (values.json) writeFileSync(values.json, JSON.stringify(result, null, 2));
  process.exit(0);
} else if (values['log-pg-reads'] && values.database && values.baseline) {
  const f = await measurePgReads({
    database: values.database,
    baseline: values.baseline,
    rounds: Math.max(1, Number(values.rounds)),
  });
  console.log(pgReadsLine(f));
  if (values.json) writeFileSync(values.json, JSON.stringify(f, null, 2));
  process.exit(0);
} else if (values['question-log-pg'] && values.database) {
  const rules = generateRules(10_000, 42);
  const rounds = Math.max(1, Number(values.rounds));
  const pgVolume = await measurePostgresVolume({
    cluster: values.database,
    rules,
    asks: Number(values['log-asks']),
    rounds,
  });
  console.log(volumeLine(pgVolume.volume) + comparedLine(pgVolume));
  if (values.json) writeFileSync(values.json, JSON.stringify(pgVolume, null, 2));
  process.exit(0);
} else if (values['rule-figures'] && values.database) {
  const figures = await measureRuleFigures({
    database: values.database,
    rules: generateRules(10_000, 42),
    asks: Number(values['log-asks']),
    days: Number(values['rule-days']),
    rounds: Number(values.rounds),
    ...(values.baseline ? { baseline: values.baseline } : {}),
  });
  console.log(ruleFiguresLine(figures));
  if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
  process.exit(0);
}
if (values['feed-import'] && values.database) {
  const mb = Number(values['bundle-mb']);
  const figures: FeedImportFigures = await measureFeedImport(mb, values.database, values.service);
  if (values.baseline)
    figures.baseline = await measureFeedImport(mb, values.database, values.baseline);
  console.log(feedImportLine(figures));
  process.exit(0);
}
if (values['bundle-import']) {
  const mb = Number(values['bundle-mb']);
  const { service, baseline, database } = values;
  const figures = await measureBundleImport(mb, service, values['cpu-prof'], database);
  if (baseline) figures.baseline = await measureBundleImport(mb, baseline, undefined, database);
  console.log(bundleImportLine(figures));
  if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
  process.exit(0);
}
if (values['memory-budget']) {
  const figures = await measureMemoryBudget({
    robots: Number(values['budget-robots']),
    rulesPerRobot: Number(values['budget-rules']),
    budgetMb: Number(values['budget-mb']),
    cpuProfDir: values['budget-cpu-prof'],
    allocators: allocatorRuns(values['budget-allocator']),
    ...(values.service ? { script: values.service } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    rounds: Number(values.rounds),
  });
  for (const run of figures) console.log(budgetLine(run));
  if (values.json) writeFileSync(values.json, JSON.stringify(figures, null, 2));
  process.exit(0);
}
if (values['version-reads']) {
  const rounds = Math.max(1, Number(values.rounds));
  console.log(versionReadLine(await measureVersionReads(Number(values['version-rules']), rounds)));
  process.exit(0);
}
if (values.impact) {
  const all = [];
  const kbs = values['impact-kb'].split(',');
  for (const kb of kbs.filter((name): name is ImpactKb => name === 'zipf' || name === 'narrow')) {
    const edited = values['impact-edited'].split(',').map(Number);
    for (const edits of values['impact-edits'].split(',') as ImpactEdits[]) {
      const runners = values['impact-runners'].split(',') as ImpactRunner[];
      const rounds = Number(values['impact-rounds']);
      const q = Number(values['impact-questions']);
      all.push(await measureImpact(q, edited, kb, edits, runners, rounds));
      console.log(impactLine(all.at(-1) as (typeof all)[number]));
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(all, null, 2));
  process.exit(0);
}
if (values.collisions) {
  for (const size of values['collision-sizes'].split(',').map(Number)) {
    console.log(collisionLine(await measureCollisions(size)));
  }
  process.exit(0);
}
if (values.embedding) {
  const all = [];
  for (const size of values['embedding-size'].split(',').map(Number)) {
    const figures = await measureEmbedding(size, Number(values['embedding-dimensions']));
    all.push(figures);
    console.log(embeddingLine(figures));
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(all, null, 2));
  process.exit(0);
}
const SIZES = values.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const RPS_SIZE = 10_000;
const LOAD = { durationSec: values.quick ? 2 : 4, connections: 16 };
const LOAD_ROUNDS = 3;
/** More than a round can ask (new questions are answered at a few thousand per second). */
const UNIQUE_PER_ROUND = 30_000;
const LATENCY_QUERIES = 1_000;
/**
 * Other questions asked before the latency samples: the first thousand or so answers after a
 * start run partly unoptimised code and compute per-rule norms for the first time (start-up is
 * measured on its own, as open → first answer), and the samples are of the steady state.
 */
const WARM_UP_QUERIES = 1_000;

/**
 * Latency of questions the service has not been asked before: it keeps recent answers, and a
 * repeated question would measure that table instead of the matcher.
 */
async function latencies(
  ask: (question: string) => Promise<unknown>,
  queries: readonly string[],
  warmUp: readonly string[] = [],
) {
  for (const question of warmUp) await ask(question);
  const samples: number[] = [];
  for (const question of queries) {
    const start = performance.now();
    await ask(question);
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

interface SizeResult {
  size: number;
  importRulesPerSec: number;
  askHttp: { p50: number; p99: number };
  askInProcess: { p50: number; p99: number };
  listDeepPageMs: number;
  openReadyMs: number;
  peakRssMb: number;
  peakRssWithStopMb: number;
  /** The service with a stand-in index: its own import cost, without the engine's. */
  standInImportRulesPerSec: number;
  /** The 1000 latency questions asked over and over (repeated traffic, recent answers hit). */
  httpAskRps?: number;
  /** Every request a question not asked before. */
  httpAskRpsUnique?: number;
  standInHttpAskRps?: number;
  bareHttpRps?: number;
}

async function importAll(robot: RobotClient, rules: readonly RuleInput[]): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < rules.length; i += 1000) {
    const result = await robot.importRules(rules.slice(i, i + 1000));
    if (result.failInfo.length > 0)
      throw new Error(`import failed: ${JSON.stringify(result.failInfo[0])}`);
  }
  return rules.length / ((performance.now() - start) / 1000);
}

async function registerRobot(url: string): Promise<RobotClient> {
  const client = new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });
  const { tenantId } = await client.registerTenant(tenantRequest());
  const [robot] = await client.listRobots(tenantId);
  return client.robot(tenantId, 'default', robot?.robotSecret ?? '');
}

async function measureSize(size: number): Promise<SizeResult> {
  const dataDir = makeDataDir('bench');
  const standInDir = makeDataDir('bench-stand-in');
  const rules = generateRules(size, 42);
  const queries = deriveQueries(rules, LATENCY_QUERIES);
  const warmUp = deriveQueries(rules, WARM_UP_QUERIES, 1_000_000);
  // Each request of the unique-question load asks something new (no recent-answer hits).
  const uniqueQueries = deriveQueries(rules, LOAD_ROUNDS * UNIQUE_PER_ROUND, 2_000_000);
  try {
    const service = await spawnService(dataDir);
    const robot = await registerRobot(service.url);
    const importRulesPerSec = await importAll(robot, rules);
    const askHttp = await latencies((q) => robot.ask(q), queries, warmUp);
    const lastPage = Math.max(0, Math.ceil(size / 20) - 1);
    const deep = await latencies(
      () => robot.listRules(lastPage, 20),
      Array.from({ length: 200 }, () => ''),
    );
    const result: SizeResult = {
      size,
      importRulesPerSec,
      askHttp,
      askInProcess: { p50: Number.NaN, p99: Number.NaN },
      listDeepPageMs: deep.p50,
      openReadyMs: Number.NaN,
      peakRssMb: Number.NaN,
      peakRssWithStopMb: Number.NaN,
      standInImportRulesPerSec: Number.NaN,
    };
    if (size === RPS_SIZE) {
      const target = askTarget(service, robot);
      const rps = await alternatingRps(
        {
          bare: () => bareRps(target, queries, LOAD),
          repeated: () => askRps(target, queries, LOAD),
          // A slice of its own per round: no question is asked twice.
          unique: (round) =>
            askRps(
              target,
              uniqueQueries.slice(round * UNIQUE_PER_ROUND, (round + 1) * UNIQUE_PER_ROUND),
              LOAD,
            ),
        },
        LOAD_ROUNDS,
      );
      result.bareHttpRps = rps.bare;
      result.httpAskRps = rps.repeated;
      result.httpAskRpsUnique = rps.unique;
    }
    result.peakRssMb = peakRssMb(service.child.pid ?? 0);
    const lifetimePeak = followPeakRss(service.child.pid ?? 0);
    service.child.kill('SIGTERM');
    await service.exited;
    result.peakRssWithStopMb = lifetimePeak.stop();

    // Open: from spawning a process on the data directory to the first answered question.
    const openStart = performance.now();
    const reopened = await spawnService(dataDir);
    await new OpenApiClient({ baseUrl: reopened.url, ...TEST_CREDENTIALS })
      .robot(robot.tenantId, 'default', robot.robotSecret)
      .ask(queries[0] ?? '');
    result.openReadyMs = performance.now() - openStart;
    reopened.child.kill('SIGTERM');
    await reopened.exited;

    // In-process: the whole pipeline (signature, validation, matching, answer) without a socket.
    // The URLs are signed before the clock starts: the client's signing is not the service's.
    const inProcess = await startService({ dataDir, port: 0, logger: silentLogger, env: TEST_ENV });
    const local = new OpenApiClient({ baseUrl: '', ...TEST_CREDENTIALS });
    const path = `${robot.basePath}/robot/ask`;
    const signed = Array.from({ length: queries.length + warmUp.length }, () =>
      local.signedUrl(path, { signMethod: 2, robotSecret: robot.robotSecret }),
    );
    let next = 0;
    result.askInProcess = await latencies(
      async (question) => {
        const response = await inProcess.inject({
          method: 'POST',
          url: signed[next++] ?? '',
          payload: { userId: 'bench', question, channel: 'API', questionType: 'TEXT' },
        });
        if (response.statusCode !== 200) throw new Error(response.body);
      },
      queries,
      warmUp,
    );
    await inProcess.stop();

    // The service alone: the same import and HTTP load with a stand-in matching index.
    const standIn = await spawnService(standInDir, {
      script: STAND_IN,
      nodeArgs: ['--import', 'tsx'],
    });
    try {
      const standInRobot = await registerRobot(standIn.url);
      result.standInImportRulesPerSec = await importAll(standInRobot, rules);
      if (size === RPS_SIZE) {
        result.standInHttpAskRps = await askRps(askTarget(standIn, standInRobot), queries, LOAD);
      }
    } finally {
      standIn.child.kill('SIGTERM');
      await standIn.exited;
    }
    return result;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(standInDir, { recursive: true, force: true });
  }
}

if (values['log-ratio'] && values.database) {
  const rules = generateRules(RPS_SIZE, 42);
  const deps = {
    rules,
    questions: deriveQueries(rules, LATENCY_QUERIES),
    registerRobot,
    importAll,
  };
  const ratios = await measureLogRatios(
    { ...deps, load: LOAD, rounds: LOAD_ROUNDS },
    values.database,
  );
  console.log(logRatiosLine(ratios, LOAD_ROUNDS));
  if (values.json) writeFileSync(values.json, JSON.stringify(ratios, null, 2));
  process.exit(0);
}
if (values.database && !values['question-log']) {
  const size = values.quick ? 1_000 : RPS_SIZE;
  console.error(`measuring the team server at ${size} rules…`);
  const rules = generateRules(size, 42);
  const { embedded, postgres } = await measureTeamServer({
    database: values.database,
    rules,
    questions: deriveQueries(rules, LATENCY_QUERIES),
    registerRobot,
    importAll,
    load: LOAD,
    replicationSamples: values.quick ? 20 : 100,
  });
  const ratio = (a: number, b: number) => round(a / b, 2);
  console.log(
    `| ${size} rules | import rules/s | HTTP ask p99 (ms) | ask req/s, 1 node | ask req/s, 3 nodes |\n` +
      '|---|---|---|---|---|\n' +
      `| embedded | ${round(embedded.importRulesPerSec, 0)} | ${round(embedded.askP99Ms)} | ${round(embedded.askRps1Node, 0)} | |\n` +
      `| PostgreSQL | ${round(postgres.importRulesPerSec, 0)} (ratio ${ratio(postgres.importRulesPerSec, embedded.importRulesPerSec)}) | ${round(postgres.askP99Ms)} (ratio ${ratio(postgres.askP99Ms, embedded.askP99Ms)}) | ${round(postgres.askRps1Node, 0)} (ratio ${ratio(postgres.askRps1Node, embedded.askRps1Node)}) | ${round(postgres.askRps3Nodes, 0)} (ratio ${ratio(postgres.askRps3Nodes, embedded.askRps1Node)}) |\n` +
      `\nwrite on one node → answered on another: p50 ${round(postgres.replicationP50Ms)} ms, p99 ${round(postgres.replicationP99Ms)} ms`,
  );
  if (values.json) {
    const figures = {
      postgres: {
        importRulesPerSec: round(postgres.importRulesPerSec, 0),
        askP99Ms: round(postgres.askP99Ms, 2),
        askRps1Node: round(postgres.askRps1Node, 0),
        askRps3Nodes: round(postgres.askRps3Nodes, 0),
        replicationP50Ms: round(postgres.replicationP50Ms, 1),
        replicationP99Ms: round(postgres.replicationP99Ms, 1),
      },
      embedded: {
        importRulesPerSec: round(embedded.importRulesPerSec, 0),
        askP99Ms: round(embedded.askP99Ms, 2),
        askRps1Node: round(embedded.askRps1Node, 0),
      },
    };
    writeFileSync(values.json, `${JSON.stringify(figures)}\n`);
  }
  process.exit(0);
}

if (values.memory) {
  const builds = [values.service, undefined].filter((b, i) => i > 0 || b !== undefined);
  const runs = new Map<string, MemoryFigures[]>(builds.map((b) => [b ?? 'dist/headless.js', []]));
  for (let i = 0; i < Number(values.rounds); i++) {
    for (const build of builds) {
      const name = build ?? 'dist/headless.js';
      console.error(`measuring memory at 100000 rules, ${name}, round ${i + 1}…`);
      const r = await measureMemory(100_000, values['heap-snapshot'], build);
      runs.get(name)?.push(r);
      console.log(
        `${name}: peak RSS ${round(r.peakRssMb, 0)} MB, with stop ${round(r.peakRssWithStopMb, 0)} MB, ` +
          `RSS after the asks ${round(r.rssAfterWorkMb, 0)} MB`,
      );
    }
  }
  const summary: Record<string, Record<string, number>> = {};
  for (const [name, figures] of runs) {
    const median = (pick: (r: MemoryFigures) => number) =>
      round(percentile(figures.map(pick), 50), 0);
    summary[name] = {
      peakRssMb: median((r) => r.peakRssMb),
      peakRssWithStopMb: median((r) => r.peakRssWithStopMb),
      rssAfterWorkMb: median((r) => r.rssAfterWorkMb),
    };
    console.log(`${name}, median of ${figures.length}: ${JSON.stringify(summary[name])}`);
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(summary)}\n`);
  process.exit(0);
}

const results: SizeResult[] = [];
const onlyOnePart = values['under-import'] || values['question-log'];
for (const size of onlyOnePart ? [] : SIZES) {
  console.error(`measuring ${size} rules…`);
  results.push(await measureSize(size));
}

/**
 * Ask p99 at RPS_SIZE rules, idle and while two other tenants import (tests/bench/
 * ask-under-import.ts), on a service of its own so that the imported rules touch no other figure.
 */
async function measureAskUnderImport(): Promise<AskUnderImport> {
  console.error(`measuring asks under import at ${RPS_SIZE} rules…`);
  const dataDir = makeDataDir('bench-under-import');
  const service = await spawnService(dataDir);
  try {
    const robot = await registerRobot(service.url);
    const rules = generateRules(RPS_SIZE, 42);
    await importAll(robot, rules);
    for (const question of deriveQueries(rules, WARM_UP_QUERIES, 1_000_000))
      await robot.ask(question);
    const questions = deriveQueries(rules, 2 * LATENCY_QUERIES, 3_000_000);
    return await askUnderImport(service.url, robot, questions, values.quick ? 5_000 : 20_000);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const underImport = values['question-log'] ? null : await measureAskUnderImport();

function underImportLine(figures: AskUnderImport): string {
  const p99 = round(figures.askP99UnderImportMs, 2);
  const idle = round(figures.askP99IdleMs, 2);
  return (
    `\nHTTP ask at ${RPS_SIZE} rules, one question at a time: p99 ${idle} ms idle, ` +
    `${p99} ms (ratio ${round(p99 / idle, 1)}) ` +
    `while two tenants import ${figures.importedRules} rules in batches of 1000 ` +
    `(${figures.asksUnderImport} asks; slowest ${round(figures.askMaxUnderImportMs, 2)} ms; ` +
    `the imports wrote ${round(figures.importRulesPerSec, 0)} rules/s meanwhile)`
  );
}

if (values['under-import'] && underImport) {
  console.log(underImportLine(underImport));
  if (values.json) {
    const { askP99IdleMs, askP99UnderImportMs, askMaxUnderImportMs } = underImport;
    const figures = {
      askP99IdleMs,
      askP99UnderImportMs,
      askMaxUnderImportMs,
      // The same key as the full run's summary.
      importUnderAsksRulesPerSec: underImport.importRulesPerSec,
    };
    writeFileSync(values.json, `${JSON.stringify(figures)}\n`);
  }
  process.exit(0);
}

console.error(`measuring the question log at ${RPS_SIZE} rules…`);
const logRules = generateRules(RPS_SIZE, 42);
if (values['question-log'] && values['log-dir']) {
  // Only the log at volume, on a log filled once in --log-dir and kept: with --baseline, that
  // build and this one read it in turn (base, new, new, base, … --rounds pairs).
  const [asks, dir, baseline] = [Number(values['log-asks']), values['log-dir'], values.baseline];
  const builds = baseline
    ? Array.from({ length: Math.max(1, Number(values.rounds)) }, (_, i) =>
        i % 2 === 0 ? [baseline, undefined] : [undefined, baseline],
      ).flat()
    : [undefined];
  const volume = [];
  for (const script of builds) {
    const figures = await measureLogVolume({
      rules: logRules,
      asks,
      dir,
      ...(values.database ? { database: values.database } : {}),
      ...(script ? { script } : {}),
    });
    console.log(volumeLine(figures));
    volume.push(figures);
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ volume })}\n`);
  process.exit(0);
}
const questionLog = await measureQuestionLog({
  rules: logRules,
  questions: deriveQueries(logRules, LATENCY_QUERIES),
  registerRobot,
  importAll,
  load: LOAD,
  rounds: LOAD_ROUNDS,
});

function questionLogLine(figures: typeof questionLog, ratio: number): string {
  return (
    `\nQuestion log at ${RPS_SIZE} rules: ${round(figures.logOnRps, 0)} req/s with the log on, ` +
    `${round(figures.logOffRps, 0)} off (ratio ${ratio}); ` +
    `${round(figures.logBytesPerMillionAsks / 1e6, 0)} MB of log per million asks; ` +
    `inbox of 100k missed questions read and grouped in ${round(figures.inboxGroup100kMs, 0)} ms ` +
    `(${figures.inboxGroups} groups); recording costs an ask ${round(figures.logRecordUs, 2)} µs in-process; ` +
    `the service's CPU per ask ${round(figures.cpuUsPerAskOn, 0)} µs with the log on, ` +
    `${round(figures.cpuUsPerAskOff, 0)} off (ratio off/on ${round(figures.askLogCpuRatio, 3)})`
  );
}
if (values['question-log']) {
  console.log(questionLogLine(questionLog, round(questionLog.askLogRatio, 3)));
  // At volume (issue 28): the embedded store, and the team server with --database.
  const asks = Number(values['log-asks']);
  const volume = [await measureLogVolume({ rules: logRules, asks })];
  if (values.database)
    volume.push(await measureLogVolume({ rules: logRules, asks, database: values.database }));
  for (const figures of volume) console.log(volumeLine(figures));
  // The embedded log's raw reads in-process (decisions 133-134): tests/bench/log-read-bench.ts.
  const logReads = await measureLogReads(asks);
  console.log(logReadLine(logReads));
  if (values.json) {
    const { askLogRatio, logBytesPerMillionAsks, inboxGroup100kMs } = questionLog;
    const askLogCpuRatio = round(questionLog.askLogCpuRatio, 3);
    const figures = {
      askLogRatio,
      logBytesPerMillionAsks,
      inboxGroup100kMs,
      askLogCpuRatio,
      volume,
      logReads,
    };
    writeFileSync(values.json, `${JSON.stringify(figures)}\n`);
  }
  process.exit(0);
}

const PUBLISH_SIZES = [10_000, 100_000];
const publishing: PublishFigures[] = [];
for (const size of PUBLISH_SIZES) {
  console.error(`measuring publishing at ${size} rules…`);
  const cases = size === PUBLISH_SIZES.at(-1) ? 5_000 : 0;
  publishing.push(await measurePublishing(size, values.quick ? 20 : 100, cases));
}
const bySize = (pick: (p: PublishFigures) => number) =>
  Object.fromEntries(publishing.map((p) => [String(p.size), round(pick(p), 1)]));

const largest = results.at(-1) as SizeResult;
const rpsRow = results.find((r) => r.size === RPS_SIZE);
const byKey = (pick: (r: SizeResult) => number) =>
  Object.fromEntries(results.map((r) => [String(r.size), round(pick(r), 3)]));
const summary = {
  askP99Ms: byKey((r) => r.askInProcess.p99),
  askHttpP99Ms: byKey((r) => r.askHttp.p99),
  httpAskRps: round(rpsRow?.httpAskRps ?? Number.NaN, 0),
  httpAskRpsUnique: round(rpsRow?.httpAskRpsUnique ?? Number.NaN, 0),
  standInHttpAskRps: round(rpsRow?.standInHttpAskRps ?? Number.NaN, 0),
  bareHttpRps: round(rpsRow?.bareHttpRps ?? Number.NaN, 0),
  importRulesPerSec: round(largest.importRulesPerSec, 0),
  standInImportRulesPerSec: round(largest.standInImportRulesPerSec, 0),
  openReadyMs: round(largest.openReadyMs, 0),
  listDeepPageMs: round(largest.listDeepPageMs, 2),
  peakRssMb: round(largest.peakRssMb, 0),
  peakRssWithStopMb: round(largest.peakRssWithStopMb, 0),
  askP99IdleMs: round(underImport?.askP99IdleMs ?? Number.NaN, 2),
  askP99UnderImportMs: round(underImport?.askP99UnderImportMs ?? Number.NaN, 2),
  askMaxUnderImportMs: round(underImport?.askMaxUnderImportMs ?? Number.NaN, 2),
  importUnderAsksRulesPerSec: round(underImport?.importRulesPerSec ?? Number.NaN, 0),
  askLogRatio: round(questionLog.askLogRatio, 3),
  logBytesPerMillionAsks: round(questionLog.logBytesPerMillionAsks, 0),
  inboxGroup100kMs: round(questionLog.inboxGroup100kMs, 0),
  logRecordUs: round(questionLog.logRecordUs, 2),
  askLogCpuRatio: round(questionLog.askLogCpuRatio, 3),

  publishMs: bySize((p) => p.publishMs),
  versionBytes: bySize((p) => p.versionBytes),
  testRun5000Ms: round(publishing.at(-1)?.testRunMs ?? Number.NaN, 0),
};

console.log(
  '| rules | ask p50/p99 in-process (ms) | ask p50/p99 HTTP (ms) | import rules/s (stand-in index) | open→first answer (ms) | deepest list page (ms) | peak RSS / with stop (MB) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.size} | ${round(r.askInProcess.p50)} / ${round(r.askInProcess.p99)} | ${round(r.askHttp.p50)} / ${round(r.askHttp.p99)} | ${round(r.importRulesPerSec, 0)} (${round(r.standInImportRulesPerSec, 0)}) | ${round(r.openReadyMs, 0)} | ${round(r.listDeepPageMs)} | ${round(r.peakRssMb, 0)} / ${round(r.peakRssWithStopMb, 0)} |`,
  );
}
const toBare = (rps: number) => round(rps / summary.bareHttpRps, 2);
console.log(
  `\nHTTP ask at ${RPS_SIZE} rules, against a bare Node server's ${summary.bareHttpRps} req/s in the same run:\n` +
    `  1000 questions over and over: ${summary.httpAskRps} req/s (ratio ${toBare(summary.httpAskRps)})\n` +
    `  every question new:           ${summary.httpAskRpsUnique} req/s (ratio ${toBare(summary.httpAskRpsUnique)})\n` +
    `  stand-in index (service only): ${summary.standInHttpAskRps} req/s (ratio ${toBare(summary.standInHttpAskRps)})`,
);
if (underImport) console.log(underImportLine(underImport));
console.log(questionLogLine(questionLog, summary.askLogRatio));
console.log(
  '\n| rules | publish after one edit, p50 (ms) | the edit itself, p50 (ms) | extra bytes on disk per version |',
);
console.log('|---|---|---|---|');
for (const p of publishing) {
  console.log(
    `| ${p.size} | ${round(p.publishMs, 1)} | ${round(p.editMs, 1)} | ${round(p.versionBytes, 0)} (after ${p.edits} edits, each published) |`,
  );
}
const run = publishing.at(-1);
if (run?.testRunMs !== undefined) {
  console.log(
    `test run of ${run.testCases} cases at ${run.size} rules: ${round(run.testRunMs, 0)} ms ` +
      `(${round(run.testRunMs / (run.testCases ?? 1), 2)} ms a case; in-process ask p50 at the largest size above: ${round(largest.askInProcess.p50, 2)} ms)`,
  );
}
if (values.json) {
  writeFileSync(values.json, `${JSON.stringify(summary)}\n`);
  console.log(`figures written to ${values.json}`);
}
