/**
 * `npm run bench -- --database postgres://…`: the team server against the embedded store, in the
 * same run and with the same rules and questions. On the embedded store and on PostgreSQL (a new
 * database made in the given cluster, dropped after): import rules/s through one node, HTTP ask
 * p99 one question at a time, ask requests/s on one node; on PostgreSQL also requests/s spread
 * over three nodes of the one database (the load generators share the machine's two cores with
 * the three nodes and PostgreSQL: on this machine it measures contention more than capacity),
 * and the delay from a write acknowledged by one node to its answer on another (p50/p99; the
 * other node is asked in a loop, so the figure includes up to one ask's time).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, ruleInput } from '../helpers/service';
import { askRps, askTarget } from './http-load';
import type { LoadOptions } from './http-load';
import { percentile } from './stats';

export interface StoreFigures {
  importRulesPerSec: number;
  askP99Ms: number;
  askRps1Node: number;
}

export interface TeamServerFigures {
  embedded: StoreFigures;
  postgres: StoreFigures & {
    askRps3Nodes: number;
    replicationP50Ms: number;
    replicationP99Ms: number;
  };
}

export interface TeamServerBenchOptions {
  /** A PostgreSQL URL whose user may create databases. */
  database: string;
  rules: readonly RuleInput[];
  questions: readonly string[];
  registerRobot: (url: string) => Promise<RobotClient>;
  importAll: (robot: RobotClient, rules: readonly RuleInput[]) => Promise<number>;
  load: LoadOptions;
  /** Writes whose delay to another node's answer is measured. */
  replicationSamples: number;
}

async function askP99(robot: RobotClient, questions: readonly string[]): Promise<number> {
  const samples: number[] = [];
  for (const question of questions) {
    const start = performance.now();
    await robot.ask(question);
    samples.push(performance.now() - start);
  }
  return percentile(samples, 99);
}

/** Import, ask p99 and requests/s through one node; the node is left running. */
async function measureNode(
  service: ChildService,
  options: TeamServerBenchOptions,
): Promise<{ robot: RobotClient; figures: StoreFigures }> {
  const robot = await options.registerRobot(service.url);
  const importRulesPerSec = await options.importAll(robot, options.rules);
  // Warm-up, then the samples.
  const half = Math.floor(options.questions.length / 2);
  await askP99(robot, options.questions.slice(0, half));
  const p99 = await askP99(robot, options.questions.slice(half));
  const rps = await askRps(askTarget(service, robot), options.questions, options.load);
  return { robot, figures: { importRulesPerSec, askP99Ms: p99, askRps1Node: rps } };
}

async function withDatabase<T>(clusterUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `kb_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(clusterUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

async function stop(service: ChildService, dataDir: string): Promise<void> {
  if (service.child.exitCode === null) service.child.kill('SIGTERM');
  await service.exited;
  rmSync(dataDir, { recursive: true, force: true });
}

/** Write on `writer`, then ask `reader` until it answers the new rule: ms per sample. */
async function replicationDelays(
  writer: RobotClient,
  reader: RobotClient,
  samples: number,
): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < samples; i++) {
    const tag = randomBytes(4).toString('hex');
    const question = `replication probe ${tag} question`;
    const answer = `probe ${tag}`;
    await writer.importRules([ruleInput(`probe ${tag}`, [question], answer)]);
    const start = performance.now();
    for (;;) {
      if ((await reader.ask(question)).answer === answer) break;
      if (performance.now() - start > 10_000) throw new Error('a write was not followed in 10 s');
    }
    delays.push(performance.now() - start);
  }
  return delays;
}

export async function measureTeamServer(
  options: TeamServerBenchOptions,
): Promise<TeamServerFigures> {
  const embeddedDir = makeDataDir('bench-embedded');
  const embeddedService = await spawnService(embeddedDir);
  let embedded: StoreFigures;
  try {
    embedded = (await measureNode(embeddedService, options)).figures;
  } finally {
    await stop(embeddedService, embeddedDir);
  }

  const postgres = await withDatabase(options.database, async (url) => {
    const dirs = [makeDataDir('bench-node'), makeDataDir('bench-node'), makeDataDir('bench-node')];
    const services: ChildService[] = [];
    try {
      for (const dir of dirs) {
        services.push(await spawnService(dir, { env: { KB_DATABASE_URL: url } }));
      }
      const [first, ...others] = services as [ChildService, ...ChildService[]];
      const { robot, figures } = await measureNode(first, options);
      const robots = others.map((service) =>
        new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS }).robot(
          robot.tenantId,
          robot.robotId,
          robot.robotSecret,
        ),
      );
      // The other nodes are warmed up as the first was (its p99 questions): the same questions
      // asked once, so that the load meets compiled code and warm caches on every node.
      for (const other of robots)
        for (const question of options.questions) await other.ask(question);
      // Three load generators at once, one per node, each with a third of the connections.
      const perNode = {
        ...options.load,
        connections: Math.max(1, Math.round(options.load.connections / 3)),
      };
      const rps = await Promise.all(
        [first, ...others].map((service) =>
          askRps(askTarget(service, robot), options.questions, perNode),
        ),
      );
      console.error(`three nodes at once: ${rps.map((r) => Math.round(r)).join(' + ')} req/s`);
      const delays = await replicationDelays(
        robot,
        robots[0] as RobotClient,
        options.replicationSamples,
      );
      return {
        ...figures,
        askRps3Nodes: rps.reduce((a, b) => a + b, 0),
        replicationP50Ms: percentile(delays, 50),
        replicationP99Ms: percentile(delays, 99),
      };
    } finally {
      await Promise.all(services.map((service, i) => stop(service, dirs[i] as string)));
    }
  });
  return { embedded, postgres };
}
