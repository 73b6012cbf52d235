/**
 * `tsx tests/bench/answer-search-bench.ts [--mb N] [--rounds R] [--baseline DIR] [--keep]`: the embedded
 * database's size for the rules of a bundle-import-bench bundle of about N MB (default 20), and
 * the editor's text filter on them (decision 200: an answer searched in its own column rather
 * than a second, keyed copy). Through the repositories, no HTTP: the rules inserted 200 at a time
 * into one robot, the store stopped (its snapshot's size is the database's), opened again, then
 * each filter timed (the median of 3 after one warm-up). With `--baseline` (another checkout's
 * root, its node_modules resolvable), the same on its code, rounds alternated in one run.
 * @module
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from '../../electron/service/logger';
import type { RobotBundle } from '../../electron/service/robot-bundle-types';
import type { EmbeddedStore } from '../../electron/service/store/embedded/embedded-store';
import type { NewRule } from '../../electron/service/store/contract/records';
import { percentile, round } from './stats';

const MB = 1024 * 1024;
const HERE = resolve(import.meta.dirname, '../..');

/**
 * Filters: found nowhere; a rule's name; a word of every answer; two words of some answers; two
 * words every answer has, never with one space between (every rule a candidate, none found).
 */
const FILTERS = ['无处可寻 nowhere', 'rule 4242', '答答答', '密码 重置', '答答 答'];

interface Modules {
  EmbeddedStore: typeof EmbeddedStore;
  normalizeText: (text: string) => string;
  silentLogger: Logger;
  makeBundle: (mb: number) => RobotBundle;
}

async function modulesOf(root: string): Promise<Modules> {
  const at = (path: string) => import(join(root, path));
  return {
    EmbeddedStore: (await at('electron/service/store/embedded/embedded-store.ts')).EmbeddedStore,
    normalizeText: (await at('electron/service/matching/normalize.ts')).normalizeText,
    silentLogger: (await at('electron/service/logger.ts')).silentLogger,
    makeBundle: (await at('tests/bench/bundle-import-bench.ts')).makeBundle,
  };
}

interface Figures {
  bundleMb: number;
  databaseMb: number;
  databaseOverBundle: number;
  filterMs: Record<string, number>;
}

async function oneRound(m: Modules, mb: number, keep: boolean): Promise<Figures> {
  const bundle = m.makeBundle(mb);
  const bundleBytes = Buffer.byteLength(JSON.stringify(bundle));
  const dir = mkdtempSync(join(tmpdir(), 'bench-answer-search-'));
  const open = () =>
    m.EmbeddedStore.open({ dataDir: dir, logger: m.silentLogger, textKey: m.normalizeText });
  try {
    let store = await open();
    const tenantId = await store.tenants.register({
      tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: 0 },
      admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
      robot: { robotId: 'default', name: 'R', secret: 's1', settingsJson: '{}', createdAt: 0 },
    });
    await store.close();
    const before = statSync(join(dir, 'kb.sqlite')).size;
    store = await open();
    const robot = { tenantId, robotId: 'default' };
    const rules: NewRule[] = bundle.rules.map((r) => ({
      ruleId: r.ruleId,
      ruleName: r.ruleName,
      nameKey: r.ruleName.trim(),
      categoryId: '',
      active: true,
      allowSimGen: null,
      effectBegin: null,
      effectEnd: null,
      questions: r.questions,
      answer: r.answer,
      createdAt: 0,
    }));
    for (let i = 0; i < rules.length; i += 200)
      await store.rules.insert(robot, rules.slice(i, i + 200), 0, 'bench');
    await store.close();
    const databaseBytes = statSync(join(dir, 'kb.sqlite')).size - before;
    store = await open();
    const filterMs: Record<string, number> = {};
    for (const text of FILTERS) {
      const times: number[] = [];
      for (let i = 0; i < 4; i++) {
        const start = performance.now();
        await store.rules.query(robot, {
          offset: 0,
          limit: 50,
          text,
          now: 0,
          sort: 'created',
          descending: false,
        });
        if (i > 0) times.push(performance.now() - start);
      }
      filterMs[text] = round(percentile(times, 50), 0);
    }
    await store.close();
    return {
      bundleMb: round(bundleBytes / MB, 1),
      databaseMb: round(databaseBytes / MB, 1),
      databaseOverBundle: round(databaseBytes / bundleBytes, 2),
      filterMs,
    };
  } finally {
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      mb: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '2' },
      baseline: { type: 'string' },
      // The data directories are kept (for `sqlite3 kb.sqlite` and its dbstat), named in the output.
      keep: { type: 'boolean', default: false },
    },
  });
  const builds: [string, Modules][] = [['new', await modulesOf(HERE)]];
  if (values.baseline) builds.push(['baseline', await modulesOf(resolve(values.baseline))]);
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const [name, modules] of r % 2 === 0 ? builds : [...builds].reverse()) {
      console.log(
        JSON.stringify({
          build: name,
          round: r,
          ...(await oneRound(modules, Number(values.mb), values.keep)),
        }),
      );
    }
  }
  process.exit(0);
}
