/**
 * A team node whose indexes are loaded on demand (a memory budget) follows an import's changes
 * without reading the imported rules back: a robot whose index is not in memory gets only its
 * menus (read alone), and is answered from the store when first asked; an index most of a change
 * concerns is let go of and read again when asked, instead of followed a chunk at a time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Change } from '../../../electron/service/cluster/change-feed';
import { followChanges } from '../../../electron/service/cluster/follow-changes';
import { ask } from '../../../electron/service/domain/ask';
import type { DomainContext } from '../../../electron/service/domain/context';
import { robotKey } from '../../../electron/service/domain/robot-directory';
import { RobotIndexes } from '../../../electron/service/domain/robot-indexes';
import { indexKey, indexLoader, loadRobots } from '../../../electron/service/domain/robot-loading';
import { silentLogger } from '../../../electron/service/logger';
import { createRobotIndex, normalizeText } from '../../../electron/service/matching/index';
import type { RobotKey } from '../../../electron/service/store/contract/records';
import type { RuleRepository } from '../../../electron/service/store/contract/rules';
import { EmbeddedStore } from '../../../electron/service/store/embedded/embedded-store';
import { nodeMemory, storeRule } from '../../helpers/node-memory';

let dir: string;
let store: EmbeddedStore;
let ctx: DomainContext;
let robot: RobotKey;
/** Rules read whole by the follower (findMany) and menus read alone (menusOf). */
const reads = { rules: 0, menus: 0, queries: 0 };

/** The store's rules, counting reads; with `menusOf` as the PostgreSQL store has it. */
function countingRules(rules: RuleRepository): RuleRepository {
  return new Proxy(rules, {
    get(target, prop) {
      if (prop === 'findMany') {
        return (key: RobotKey, ids: readonly string[]) => {
          reads.rules += ids.length;
          reads.queries += 1;
          return target.findMany(key, ids);
        };
      }
      if (prop === 'menusOf') {
        return async (_robot: RobotKey, ids: readonly string[]) => {
          reads.menus += ids.length;
          const menus = (await target.menus()).filter((m) => ids.includes(m.ruleId));
          return menus;
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const rulesChange = (ruleIds: string[]): Change => ({
  id: 0,
  kind: 'rules',
  tenantId: robot.tenantId,
  robotId: robot.robotId,
  ruleIds,
});

async function answerOf(question: string): Promise<string | null> {
  const current = ctx.robots.get(robot.tenantId, robot.robotId);
  assert.ok(current);
  const { result } = await ask(ctx, current, { question, userId: 'u', channel: 'API' });
  return result.module === 'KB' && result.answerType === 'BESTMATCH' ? result.answer : null;
}

/** `count` rules written by "another node" (straight to the store); their ids. */
async function writeRules(prefix: string, count: number): Promise<string[]> {
  const rules = Array.from({ length: count }, (_, i) =>
    storeRule(`${prefix}-${i}`, `${prefix} question number ${i}`),
  );
  rules[0] = { ...rules[0]!, menu: [{ ruleId: `${prefix}-1`, text: 'next' }] };
  await store.rules.insert(robot, rules, Date.now(), 'tester');
  return rules.map((r) => r.ruleId);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kbstudio-follow-demand-'));
  store = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
  const tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: Date.now() },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
    robot: { robotId: 'default', name: 'D', secret: 's', settingsJson: '{}', createdAt: 0 },
  });
  robot = { tenantId, robotId: 'default' };
  const counted = new Proxy(store, {
    get(target, prop) {
      if (prop === 'rules') return countingRules(target.rules);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const built: { ctx?: DomainContext } = {};
  const loader = indexLoader(() => built.ctx as DomainContext);
  ctx = {
    ...nodeMemory(counted),
    indexes: new RobotIndexes(createRobotIndex, { budgetBytes: 1e9, loader }),
  };
  built.ctx = ctx;
  await loadRobots(ctx, { file: null }, null);
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('following on a node that loads indexes on demand', () => {
  test('an index not in memory: no rule read back, menus followed, answered when asked', async () => {
    assert.equal(ctx.indexes.peek(indexKey(robot)), undefined);
    const ids = await writeRules('cold', 30);
    reads.rules = 0;
    reads.menus = 0;
    await followChanges(ctx, [rulesChange(ids)]);
    assert.equal(reads.rules, 0, 'no rule read back');
    assert.equal(reads.menus, 30);
    assert.deepEqual(ctx.menus?.get('cold-0'), [{ ruleId: 'cold-1', text: 'next' }]);
    assert.equal(ctx.indexes.peek(indexKey(robot)), undefined, 'still not loaded');
    assert.equal(await answerOf('cold question number 7'), 'answer of cold-7');
  });

  test('a loaded index is followed; one most of a large change concerns is let go of', async () => {
    assert.ok(ctx.indexes.peek(indexKey(robot)), 'loaded by the ask');
    const few = await writeRules('warm', 3);
    reads.rules = 0;
    await followChanges(ctx, [rulesChange(few)]);
    assert.equal(reads.rules, 3, 'a small change is followed');
    assert.equal(await answerOf('warm question number 2'), 'answer of warm-2');
    const many = await writeRules('bulk', 1500);
    reads.rules = 0;
    await followChanges(ctx, [rulesChange(many)]);
    assert.equal(reads.rules, 0, 'the large change is not read back rule by rule');
    assert.equal(ctx.indexes.peek(indexKey(robot)), undefined, 'let go of');
    assert.equal(await answerOf('bulk question number 1234'), 'answer of bulk-1234');
    assert.equal(await answerOf('warm question number 2'), 'answer of warm-2');
  });

  test("changes named while the robot's queue is held join one read after it", async () => {
    assert.ok(await answerOf('bulk question number 1'), 'loaded again');
    let release = () => undefined as void;
    const held = ctx.writes.run(robotKey(robot), () => new Promise<void>((r) => (release = r)));
    const first = await writeRules('late', 2);
    const second = await writeRules('later', 2);
    reads.queries = 0;
    const following = [
      followChanges(ctx, [rulesChange(first)]),
      followChanges(ctx, [rulesChange(second)]),
    ];
    release();
    await held;
    await Promise.all(following);
    assert.equal(reads.queries, 1, 'one read for both changes');
    assert.equal(await answerOf('later question number 1'), 'answer of later-1');
    assert.equal(await answerOf('late question number 1'), 'answer of late-1');
  });
});
