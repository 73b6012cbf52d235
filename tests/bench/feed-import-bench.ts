/**
 * `tsx tests/bench/feed-import-bench.ts --database postgres://… [--bundle-mb N] [--baseline FILE]`,
 * or `npm run bench -- --feed-import --database URL [--bundle-mb N]`: a team node (the built
 * headless service on a fresh database of the cluster) imports a robot bundle of about N MB
 * (default 20) while "another node" writes a rule to another robot every 2 s (an INSERT on the
 * database: the node learns of it only by its change feed). Reports, for the import and until
 * the node is ready again after it: how long `/readyz` said not ready (the longest stretch and
 * in all), and how long each of those writes took to be answered by the node (the longest).
 * Before issue 32's fix the feed waited behind the import: not ready, and the writes unanswered,
 * for the whole import (36 min at 116 MB). `--baseline`: the same with another build, same run.
 * @module
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import { freshDatabase } from '../helpers/postgres';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';
import { importOnce, makeBundle } from './bundle-import-bench';
import { generateRules } from './generate-rules';
import { round } from './stats';

export interface FeedImportFigures {
  bundleMb: number;
  rules: number;
  status: number;
  importSeconds: number;
  /** From the start of the import until ready again after it. */
  notReadyLongestSeconds: number;
  notReadySeconds: number;
  readyAgainAfterAnswerSeconds: number | null;
  /** Writes of "another node" during the import, and the longest until this node answered one. */
  writes: number;
  writeAnsweredMaxSeconds: number | null;
  unanswered: number;
  baseline?: Omit<FeedImportFigures, 'baseline'>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ready(url: string): Promise<boolean> {
  const response = await fetch(`${url}/readyz`).catch(() => null);
  await response?.body?.cancel();
  return response?.status === 200;
}

export async function measureFeedImport(
  mb: number,
  cluster: string,
  script?: string,
): Promise<Omit<FeedImportFigures, 'baseline'>> {
  const bundle = makeBundle(mb);
  const body = Buffer.from(JSON.stringify(bundle));
  process.env.KB_TEST_PG_URL = cluster;
  const url = await freshDatabase('feed_import_bench');
  const dataDir = makeDataDir('bench-feed-import');
  const service = await spawnService(dataDir, {
    ...(script ? { script } : {}),
    env: { KB_DATABASE_URL: url },
  });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const setup = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await setup.registerTenant(tenantRequest());
    const [listed] = await setup.listRobots(tenantId);
    const robot = setup.robot(tenantId, 'default', listed?.robotSecret ?? '');
    await robot.importRules(generateRules(200, 3));
    const token = /token=([\w-]+)/.exec(service.output())?.[1] ?? '';
    let importing = true;
    let answeredAt: number | null = null;
    const start = performance.now();
    const importing$ = importOnce(service.url, token, tenantId, body).then((status) => {
      answeredAt = performance.now();
      importing = false;
      return status;
    });
    // Readiness, sampled until ready again after the answer.
    let notReady = 0;
    let stretch = 0;
    let longest = 0;
    let readyAgain: number | null = null;
    const watching = (async () => {
      let last = performance.now();
      for (;;) {
        const ok = await ready(service.url);
        const now = performance.now();
        if (!ok) {
          notReady += now - last;
          stretch += now - last;
          longest = Math.max(longest, stretch);
        } else stretch = 0;
        last = now;
        if (ok && answeredAt !== null) {
          readyAgain = now - answeredAt;
          return;
        }
        await sleep(200);
      }
    })();
    // "Another node"'s writes, each waited for until this node answers it.
    const delays: number[] = [];
    let unanswered = 0;
    for (let i = 0; importing; i++) {
      const question = `is feed write ${i} answered zqx${i}`;
      await db.query(
        `INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer, created_at, updated_at)
         VALUES ($1, $2, 'default', $1, $1, $3, $4, 0, 0)`,
        [`feed-${i}`, tenantId, JSON.stringify([question]), `answer of feed-${i}`],
      );
      const written = performance.now();
      let answered = false;
      while (!answered && performance.now() - written < 30 * 60_000) {
        const reply = await robot.ask(question, 'u1').catch(() => null);
        answered = JSON.stringify(reply ?? '').includes(`answer of feed-${i}`);
        if (!answered) await sleep(100);
      }
      if (answered) delays.push(performance.now() - written);
      else unanswered += 1;
      await sleep(2000);
    }
    const status = await importing$;
    await watching;
    return {
      bundleMb: round(body.length / 1024 / 1024, 1),
      rules: bundle.rules.length,
      status,
      importSeconds: round(((answeredAt ?? performance.now()) - start) / 1000, 1),
      notReadyLongestSeconds: round(longest / 1000, 1),
      notReadySeconds: round(notReady / 1000, 1),
      readyAgainAfterAnswerSeconds: readyAgain === null ? null : round(readyAgain / 1000, 1),
      writes: delays.length + unanswered,
      writeAnsweredMaxSeconds: delays.length ? round(Math.max(...delays) / 1000, 2) : null,
      unanswered,
    };
  } finally {
    await db.end();
    service.child.kill('SIGKILL');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function feedImportLine(figures: FeedImportFigures): string {
  const line = (f: Omit<FeedImportFigures, 'baseline'>) =>
    `feed during a ${f.bundleMb} MB import (${f.rules} rules, ${f.status} in ${f.importSeconds} s): not ready ${f.notReadySeconds} s in all, ${f.notReadyLongestSeconds} s at once, ready again ${f.readyAgainAfterAnswerSeconds ?? '–'} s after the answer; another node's writes answered within ${f.writeAnsweredMaxSeconds ?? '–'} s at most (${f.writes} writes, ${f.unanswered} unanswered)`;
  return figures.baseline ? `${line(figures)}\nbaseline: ${line(figures.baseline)}` : line(figures);
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      'bundle-mb': { type: 'string', default: '20' },
      database: { type: 'string' },
      service: { type: 'string' },
      baseline: { type: 'string' },
    },
  });
  if (!values.database) throw new Error('--database postgres://… (a cluster) is needed');
  const mb = Number(values['bundle-mb']);
  const figures: FeedImportFigures = await measureFeedImport(mb, values.database, values.service);
  if (values.baseline) {
    figures.baseline = await measureFeedImport(mb, values.database, values.baseline);
  }
  console.log(feedImportLine(figures));
  console.log(JSON.stringify(figures));
  process.exit(0);
}
