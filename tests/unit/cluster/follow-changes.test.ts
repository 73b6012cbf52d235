/**
 * A node following changes another node wrote: here the "other node" writes straight to the
 * store both share (a real embedded store on disk), and this node's memory (directory, index,
 * answer cache, menus, published index) must answer as the store says once it follows the change
 * the feed would name. Applying a change twice must change nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { followChanges, followEverything } from '../../../electron/service/cluster/follow-changes';
import type { Change } from '../../../electron/service/cluster/change-feed';
import { ask } from '../../../electron/service/domain/ask';
import type { DomainContext } from '../../../electron/service/domain/context';
import type { Robot } from '../../../electron/service/domain/robot-directory';
import { loadRobots } from '../../../electron/service/domain/robot-loading';
import { silentLogger } from '../../../electron/service/logger';
import { normalizeText } from '../../../electron/service/matching/index';
import type { RobotKey } from '../../../electron/service/store/contract/records';
import { EmbeddedStore } from '../../../electron/service/store/embedded/embedded-store';
import { nodeMemoryWithPublishing, storeRule } from '../../helpers/node-memory';

let dir: string;
let store: EmbeddedStore;
let ctx: DomainContext;
let tenantId: number;
const now = () => Date.now();

const rulesChange = (robot: RobotKey, ruleIds: string[]): Change => ({
  id: 0,
  kind: 'rules',
  tenantId: robot.tenantId,
  robotId: robot.robotId,
  ruleIds,
});
const robotChange = (robot: RobotKey): Change => ({ ...rulesChange(robot, []), kind: 'robot' });
const versionChange = (robot: RobotKey): Change => ({ ...rulesChange(robot, []), kind: 'version' });

function robotOf(robotId: string): Robot {
  const robot = ctx.robots.get(tenantId, robotId);
  assert.ok(robot, `robot ${robotId} is in memory`);
  return robot;
}

/** What this node answers (the draft, or what the openapi serves). */
async function answerOf(robotId: string, question: string, edition: 'draft' | 'served' = 'draft') {
  const { result } = await ask(
    ctx,
    robotOf(robotId),
    { question, userId: 'u', channel: 'API' },
    now(),
    edition,
  );
  return result.module === 'KB' && result.answerType === 'BESTMATCH' ? result.answer : null;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kbstudio-follow-'));
  store = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
  const publishing = nodeMemoryWithPublishing(store);
  ctx = publishing.ctx;
  tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: now() },
    admin: {
      userId: 'u1',
      username: 'admin',
      usernameKey: 'admin',
      passwordHash: 'x',
      role: 'ADMIN',
    },
    robot: { robotId: 'default', name: 'Default', secret: 's1', settingsJson: '{}', createdAt: 0 },
  });
  await loadRobots(ctx, { file: null }, null);
  await publishing.load();
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('following the changes of another node', () => {
  test('a rule added elsewhere is answered once followed; following twice changes nothing', async () => {
    const robot = robotOf('default');
    await store.rules.insert(
      robot,
      [storeRule('r-hours', 'what are your opening hours')],
      now(),
      'tester',
    );
    assert.equal(await answerOf('default', 'what are your opening hours'), null);
    const change = rulesChange(robot, ['r-hours']);
    await followChanges(ctx, [change]);
    assert.equal(await answerOf('default', 'what are your opening hours'), 'answer of r-hours');
    const size = ctx.indexes.of(`${tenantId}/default`).size;
    await followChanges(ctx, [change, change]);
    assert.equal(ctx.indexes.of(`${tenantId}/default`).size, size);
    assert.equal(await answerOf('default', 'what are your opening hours'), 'answer of r-hours');
  });

  test('a rule changed elsewhere: new phrasing and new answer (the cached one is forgotten)', async () => {
    const robot = robotOf('default');
    await store.rules.insert(
      robot,
      [storeRule('r-ship', 'how long does shipping take')],
      now(),
      'tester',
    );
    await followChanges(ctx, [rulesChange(robot, ['r-ship'])]);
    // Asked once: the answer is now in this node's cache.
    assert.equal(await answerOf('default', 'how long does shipping take'), 'answer of r-ship');
    const stored = await store.rules.find(robot, 'r-ship');
    assert.ok(stored);
    await store.rules.update(
      robot,
      'r-ship',
      { ...stored, questions: ['when will my parcel arrive'], answer: 'three days' },
      now(),
      'tester',
    );
    await followChanges(ctx, [rulesChange(robot, ['r-ship'])]);
    assert.equal(await answerOf('default', 'when will my parcel arrive'), 'three days');
    assert.notEqual(await answerOf('default', 'how long does shipping take'), 'three days');
  });

  test('a rule deleted elsewhere is no longer answered, and its menu is gone', async () => {
    const robot = robotOf('default');
    await store.rules.insert(
      robot,
      [
        {
          ...storeRule('r-menu', 'show me the help menu'),
          menu: [{ ruleId: 'r-hours', text: 'Hours' }],
        },
      ],
      now(),
      'tester',
    );
    await followChanges(ctx, [rulesChange(robot, ['r-menu'])]);
    assert.ok(ctx.menus?.get('r-menu'));
    await store.rules.remove(robot, ['r-menu'], now(), 'tester');
    await followChanges(ctx, [rulesChange(robot, ['r-menu'])]);
    assert.equal(ctx.menus?.get('r-menu'), undefined);
    assert.equal(await answerOf('default', 'show me the help menu'), null);
  });

  test('an import elsewhere (many rules, read in one go) is answered whole', async () => {
    const robot = robotOf('default');
    const rules = Array.from({ length: 60 }, (_, i) =>
      storeRule(`bulk-${i}`, `bulk question number ${i} about topic ${i * 7}`),
    );
    await store.rules.insert(robot, rules, now(), 'tester');
    await followChanges(ctx, [
      rulesChange(
        robot,
        rules.map((r) => r.ruleId),
      ),
    ]);
    for (const i of [0, 31, 59]) {
      assert.equal(
        await answerOf('default', `bulk question number ${i} about topic ${i * 7}`),
        `answer of bulk-${i}`,
      );
    }
  });

  test('a large import elsewhere is read and applied a chunk at a time, never held whole', async () => {
    const robot = robotOf('default');
    const rules = Array.from({ length: 2100 }, (_, i) =>
      storeRule(`big-${i}`, `large import question ${i} on subject ${i * 13}`),
    );
    await store.rules.insert(robot, rules, now(), 'tester');
    const { findMany } = store.rules;
    const reads: number[] = [];
    let appliedBeforeSecondRead: string | null | undefined;
    store.rules.findMany = async (key, ids) => {
      reads.push(ids.length);
      // The first chunk is in the index before the second is read.
      if (reads.length === 2)
        appliedBeforeSecondRead = await answerOf(
          'default',
          'large import question 5 on subject 65',
        );
      return findMany.call(store.rules, key, ids);
    };
    try {
      await followChanges(ctx, [
        rulesChange(
          robot,
          rules.map((r) => r.ruleId),
        ),
      ]);
    } finally {
      store.rules.findMany = findMany;
    }
    assert.deepEqual(reads, [1000, 1000, 100]);
    assert.equal(appliedBeforeSecondRead, 'answer of big-5');
    assert.equal(
      await answerOf('default', 'large import question 2099 on subject 27287'),
      'answer of big-2099',
    );
  });

  test('settings, secret and name changed elsewhere are followed', async () => {
    const robot = robotOf('default');
    await store.robots.update(robot, {
      name: 'Renamed',
      secret: 's2',
      settingsJson: JSON.stringify({ fallbackText: 'ask a person' }),
    });
    await followChanges(ctx, [robotChange(robot)]);
    const now = robotOf('default');
    assert.equal(now.name, 'Renamed');
    assert.equal(now.secret, 's2');
    assert.equal(now.settings.fallbackText, 'ask a person');
  });

  test('a robot added, deleted and restored elsewhere', async () => {
    await store.robots.insert({
      tenantId,
      robotId: 'second',
      name: 'Second',
      secret: 'x',
      settingsJson: '{}',
      createdAt: now(),
    });
    const key = { tenantId, robotId: 'second' };
    await store.rules.insert(
      key,
      [storeRule('second-1', 'where is the second office')],
      now(),
      'tester',
    );
    await followChanges(ctx, [robotChange(key), rulesChange(key, ['second-1'])]);
    assert.equal(await answerOf('second', 'where is the second office'), 'answer of second-1');
    await store.robots.setDeleted(key, now());
    await followChanges(ctx, [robotChange(key)]);
    assert.equal(ctx.robots.get(tenantId, 'second'), undefined);
    await store.robots.setDeleted(key, null);
    await followChanges(ctx, [robotChange(key)]);
    assert.equal(await answerOf('second', 'where is the second office'), 'answer of second-1');
  });

  test('review mode and a publish elsewhere: the served edition follows the new version', async () => {
    const robot = robotOf('default');
    const settingsJson = JSON.stringify({ ...robot.storedSettings, publishMode: 'review' });
    const request = { note: '', author: 'other node', now: now(), confirmedFailures: null };
    await store.robots.update(robot, { settingsJson });
    await store.versions.publish(robot, request);
    await followChanges(ctx, [robotChange(robot), versionChange(robot)]);
    assert.equal(robotOf('default').settings.publishMode, 'review');
    await store.rules.insert(
      robot,
      [storeRule('r-new', 'is there a student discount')],
      now(),
      'tester',
    );
    await followChanges(ctx, [rulesChange(robot, ['r-new'])]);
    // In the draft, not yet served: it is not published.
    assert.equal(await answerOf('default', 'is there a student discount'), 'answer of r-new');
    assert.equal(await answerOf('default', 'is there a student discount', 'served'), null);
    await store.versions.publish(robotOf('default'), { ...request, now: now() });
    await followChanges(ctx, [versionChange(robot)]);
    assert.equal(
      await answerOf('default', 'is there a student discount', 'served'),
      'answer of r-new',
    );
    // Nothing was published by following (no version of this node's own).
    assert.equal((await store.versions.list(robot)).length, 2);
  });

  test('a node that lost track of the feed reads everything again', async () => {
    const robot = robotOf('default');
    // Asked once: the answer is in this node's cache.
    assert.equal(await answerOf('default', 'what are your opening hours'), 'answer of r-hours');
    const hours = await store.rules.find(robot, 'r-hours');
    assert.ok(hours);
    await store.rules.update(
      robot,
      'r-hours',
      { ...hours, answer: 'nine to five' },
      now(),
      'tester',
    );
    await store.rules.insert(robot, [storeRule('r-missed', 'can I pay by card')], now(), 'tester');
    await store.robots.update(robot, { name: 'Missed rename' });
    await followEverything(ctx);
    assert.equal(robotOf('default').name, 'Missed rename');
    assert.equal(await answerOf('default', 'what are your opening hours'), 'nine to five');
    assert.equal(await answerOf('default', 'can I pay by card'), 'answer of r-missed');
    assert.equal(
      ctx.indexes.of(`${tenantId}/default`).size,
      (await store.rules.matchable(robot)).length,
    );
  });
});
