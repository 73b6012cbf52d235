/**
 * A version's rules are read in pages with a turn of the event loop between them (the reader
 * the draft uses), for the diff, test runs and a version's index alike: a 10k-rule version read
 * at once held the loop ~224 ms. Checked without timing: the pages asked of the store, and the
 * turns other work got while the read went on.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { DomainContext } from '../../../electron/service/domain/context';
import type { Robot } from '../../../electron/service/domain/robot-directory';
import { loadRobots } from '../../../electron/service/domain/robot-loading';
import { silentLogger } from '../../../electron/service/logger';
import { normalizeText } from '../../../electron/service/matching/index';
import { rulesOf } from '../../../electron/service/publishing/targets';
import { diff } from '../../../electron/service/publishing/versions';
import { EmbeddedStore } from '../../../electron/service/store/embedded/embedded-store';
import { nodeMemoryWithPublishing, storeRule } from '../../helpers/node-memory';

const RULES = 620;
let dir: string;
let store: EmbeddedStore;
let ctx: DomainContext;
let robot: Robot;
const pages: number[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kbstudio-version-reads-'));
  store = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
  const publishing = nodeMemoryWithPublishing(store);
  ctx = publishing.ctx;
  const tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: 0 },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
    robot: { robotId: 'default', name: 'R', secret: 's1', settingsJson: '{}', createdAt: 0 },
  });
  await loadRobots(ctx, { file: null }, null);
  await publishing.load();
  const found = ctx.robots.get(tenantId, 'default');
  assert.ok(found);
  robot = found;
  const rules = Array.from({ length: RULES }, (_, i) => storeRule(`r${i}`, `question ${i}`));
  await store.rules.insert(robot, rules, 0, 'tester');
  const request = { note: '', author: 'a', now: 1, confirmedFailures: null };
  await store.versions.publish(robot, request);
  await store.rules.remove(robot, ['r7'], 2, 'tester');
  await store.versions.publish(robot, { ...request, now: 3 });
  // Spy on the store's page reads (the reader must ask for pages, never the whole version).
  const read = store.versions.rulesFrom.bind(store.versions);
  store.versions.rulesFrom = (key, version, fromSeq, limit) => {
    pages.push(limit);
    return read(key, version, fromSeq, limit);
  };
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `work`, counting the turns of the event loop other callbacks got meanwhile. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let going = true;
  const tick = () => {
    if (!going) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const result = await work();
  going = false;
  return { result, turns };
}

test('a version is read in pages, with turns between, whole and in creation order', async () => {
  pages.length = 0;
  const { result, turns } = await turnsDuring(() => rulesOf(ctx, robot, 1));
  assert.equal(result.length, RULES);
  assert.deepEqual(
    result.map((r) => r.ruleId),
    Array.from({ length: RULES }, (_, i) => `r${i}`),
  );
  assert.ok(pages.length >= 3, `read in ${pages.length} pages`);
  assert.ok(Math.max(...pages) <= 250, 'no page over 250 rules');
  assert.ok(turns >= pages.length - 1, `other work had ${turns} turns meanwhile`);
});

test('the diff between two versions and the published one read the same way', async () => {
  pages.length = 0;
  const { result, turns } = await turnsDuring(() => diff(ctx, robot, 1, 'published'));
  assert.deepEqual(
    result.removed.map((r) => r.ruleId),
    ['r7'],
  );
  assert.equal(result.added.length + result.changed.length, 0);
  assert.ok(pages.length >= 6, `both sides read in pages (${pages.length})`);
  assert.ok(turns >= pages.length - 2, `other work had ${turns} turns meanwhile`);
  assert.equal((await rulesOf(ctx, robot, 2)).length, RULES - 1);
});
