/**
 * `tsx tests/bench/store-compare.ts [RULES] [pg]`: the two stores side by side in one run, through
 * the repositories (no HTTP): RULES rules (default 100,000) inserted in batches of 1000 into one
 * robot, then the editor's pages (at offset 50,000, and the first by name), a text search and
 * every rule as the matcher loads them, each the mean of 5 after one warm-up. PostgreSQL is a
 * throwaway cluster (tests/helpers/postgres.ts). `pg` measures PostgreSQL alone. Figures go in
 * docs/team-server.md as ratios to the embedded store.
 */
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import { PostgresStore } from '../../electron/service/store/postgres/postgres-store';
import { EmbeddedStore } from '../../electron/service/store/embedded/embedded-store';
import type { KbStore } from '../../electron/service/store/contract/store';
import type { NewRule } from '../../electron/service/store/contract/records';
import { freshDatabase } from '../helpers/postgres';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function measure(name: string, store: KbStore, total: number) {
  const tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'a@b', company: 'c', createdAt: 1 },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', role: 'ADMIN', passwordHash: 'h' },
    robot: {
      robotId: 'default',
      name: 'd',
      secret: 's'.repeat(43),
      settingsJson: '{}',
      createdAt: 1,
    },
  });
  const robot = { tenantId, robotId: 'default' };
  let n = 0;
  const t0 = performance.now();
  for (let b = 0; b < total / 1000; b++) {
    const rules: NewRule[] = [];
    for (let i = 0; i < 1000; i++) {
      n++;
      rules.push({
        ruleId: `r-${n}`,
        ruleName: `rule ${(n * 7919) % 1000003}`,
        nameKey: `rule ${(n * 7919) % 1000003}`,
        categoryId: String(n % 10),
        active: true,
        allowSimGen: null,
        effectBegin: null,
        effectEnd: null,
        questions: [`how do I do thing ${n}`, `thing ${n} question`],
        answer: `answer ${n} `.repeat(5),
        createdAt: 1,
      });
    }
    await store.rules.insert(robot, rules, 2, 'bench');
  }
  const t1 = performance.now();
  const time = async (label: string, work: () => Promise<unknown>) => {
    await work();
    const s = performance.now();
    for (let i = 0; i < 5; i++) await work();
    console.log(`${name} ${label}: ${((performance.now() - s) / 5).toFixed(1)} ms`);
  };
  console.log(`${name} insert ${total} rules: ${((total / (t1 - t0)) * 1000).toFixed(0)} rules/s`);
  const base = { offset: 50_000, limit: 50, descending: false, now: 3 };
  await time('page by created', () => store.rules.query(robot, { ...base, sort: 'created' }));
  await time('page by name', () => store.rules.query(robot, { ...base, sort: 'ruleName' }));
  await time('page by name, first', () =>
    store.rules.query(robot, { ...base, offset: 0, sort: 'ruleName' }),
  );
  await time('page by updated', () => store.rules.query(robot, { ...base, sort: 'updated' }));
  await time('text search', () =>
    store.rules.query(robot, { ...base, offset: 0, sort: 'created', text: 'thing 4242' }),
  );
  await time('matchable', () => store.rules.matchable());
  await store.close();
}

async function main() {
  const total = Number(process.argv[2] ?? 100_000);
  if (process.argv[3] !== 'pg')
    await measure(
      'embedded',
      await EmbeddedStore.open({
        dataDir: mkdtempSync(join(tmpdir(), 'kb-m-')),
        logger: silentLogger,
        textKey: normalizeText,
      }),
      total,
    );
  await measure(
    'postgres',
    await PostgresStore.open({
      url: await freshDatabase('m'),
      logger: silentLogger,
      textKey: normalizeText,
    }),
    total,
  );
  process.exit(0);
}
void main();
