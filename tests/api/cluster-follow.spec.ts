/**
 * Two nodes in one process on one real PostgreSQL database, each with its own store connections,
 * memory and follower (NOTIFY, the timer, catch-up): what one node writes through the domain is
 * answered by the other; a transaction that took its change id before another's and commits
 * after it is not lost; the writing node following its own changes again is harmless; a node
 * whose listening connection is cut catches up when it is back (checked to fail without the
 * catch-up read).
 *
 * `KB_TEST_NO_FOLLOW=1` starts the nodes without their followers: every test here but the first
 * (a node joining with the state written before it) must then fail; that is how they were checked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ClusterNode } from '../../electron/service/cluster/node';
import { ask } from '../../electron/service/domain/ask';
import type { DomainContext } from '../../electron/service/domain/context';
import type { Robot } from '../../electron/service/domain/robot-directory';
import { indexKey, loadRobots } from '../../electron/service/domain/robot-loading';
import { robotKey } from '../../electron/service/domain/robot-directory';
import { patchRobot } from '../../electron/service/domain/robots';
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/index';
import { PostgresStore } from '../../electron/service/store/postgres/postgres-store';
import { freshDatabase } from '../helpers/postgres';
import { nodeMemory, storeRule } from '../helpers/node-memory';

const FOLLOW = process.env.KB_TEST_NO_FOLLOW !== '1';
/** A functional bound (the one second, with room for a loaded machine), not a timing. */
const DEADLINE_MS = 5000;

interface Node {
  ctx: DomainContext;
  store: PostgresStore;
  cluster: ClusterNode;
}

let url: string;
let one: Node;
let two: Node;
let tenantId: number;

async function startNode(pollMs?: number): Promise<Node> {
  const store = await PostgresStore.open({ url, logger: silentLogger, textKey: normalizeText });
  const ctx = nodeMemory(store);
  const cluster = await ClusterNode.join({ pool: store.pool, url, logger: silentLogger, pollMs });
  await loadRobots(ctx, { file: null }, null);
  if (FOLLOW) await cluster.follow(ctx);
  return { ctx, store, cluster };
}

function robotOn(node: Node): Robot {
  const robot = node.ctx.robots.get(tenantId, 'default');
  assert.ok(robot, 'the robot is in the node');
  return robot;
}

async function answerOn(node: Node, question: string): Promise<string | null> {
  const robot = node.ctx.robots.get(tenantId, 'default');
  if (!robot) return null;
  const { result } = await ask(node.ctx, robot, { question, userId: 'u', channel: 'API' });
  return result.module === 'KB' && result.answerType === 'BESTMATCH' ? result.answer : null;
}

/** A rule written in SQL on a connection of the test's (in its transaction, if one is open). */
function insertBySql(client: pg.Client, id: string, question: string) {
  return client.query(
    `INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer, created_at, updated_at)
     VALUES ($1, $2, 'default', $1, $1, $3, $4, 0, 0)`,
    [id, tenantId, JSON.stringify([question]), `answer of ${id}`],
  );
}

/** Polls until `check` holds, up to the deadline; returns whether it did. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<boolean> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

before(async () => {
  url = await freshDatabase('follow');
  one = await startNode();
  tenantId = await one.store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: Date.now() },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
    robot: { robotId: 'default', name: 'D', secret: 's', settingsJson: '{}', createdAt: 0 },
  });
  await one.cluster.catchUp();
  two = await startNode();
});

after(async () => {
  for (const node of [one, two]) {
    await node?.cluster.stop();
    await node?.store.close();
  }
});

describe('two nodes on one database', () => {
  test('a node started after a robot was made has it', () => {
    assert.ok(two.ctx.robots.get(tenantId, 'default'));
  });

  test('a rule written on one node is answered by the other', async () => {
    await one.store.rules.insert(
      robotOn(one),
      [storeRule('r1', 'how do I reset my password')],
      0,
      'tester',
    );
    assert.ok(
      await eventually(
        async () => (await answerOn(two, 'how do I reset my password')) === 'answer of r1',
      ),
    );
    // The writing node follows its own change too (it wrote straight to the store here).
    assert.ok(
      await eventually(
        async () => (await answerOn(one, 'how do I reset my password')) === 'answer of r1',
      ),
    );
  });

  test('settings changed on one node are followed by the other', async () => {
    await patchRobot(one.ctx, robotOn(one), { settings: { fallbackText: 'call us' } });
    assert.ok(await eventually(() => robotOn(two).settings.fallbackText === 'call us'));
  });

  test('a change id taken early and committed late is followed', async () => {
    const early = new pg.Client({ connectionString: url });
    const late = new pg.Client({ connectionString: url });
    await early.connect();
    await late.connect();
    try {
      await early.query('BEGIN');
      await insertBySql(early, 'ooo-early', 'where can I park my car');
      await late.query('BEGIN');
      await insertBySql(late, 'ooo-late', 'do you deliver on sundays');
      await late.query('COMMIT');
      assert.ok(
        await eventually(
          async () => (await answerOn(two, 'do you deliver on sundays')) === 'answer of ooo-late',
        ),
      );
      // The later id is applied; now the earlier one commits.
      await early.query('COMMIT');
      assert.ok(
        await eventually(
          async () => (await answerOn(two, 'where can I park my car')) === 'answer of ooo-early',
        ),
      );
    } finally {
      await early.end();
      await late.end();
    }
  });

  test('following its own writes again changes nothing on the writing node', async () => {
    const robot = robotOn(one);
    await one.store.rules.insert(
      robot,
      [storeRule('own-1', 'is the shop open on holidays')],
      0,
      'tester',
    );
    await one.cluster.catchUp();
    const size = one.ctx.indexes.of(indexKey(robot)).size;
    await one.cluster.catchUp();
    assert.equal(one.ctx.indexes.of(indexKey(robot)).size, size);
    assert.equal(size, (await one.store.rules.matchable(robot)).length);
  });

  test("a robot whose write queue is held (an import under way) holds up no other robot's changes", async () => {
    const busy = { tenantId, robotId: 'busy' };
    await two.store.robots.insert({
      ...busy,
      name: 'Busy',
      secret: 's2',
      settingsJson: '{}',
      createdAt: 0,
    });
    assert.ok(await eventually(() => one.ctx.robots.get(tenantId, 'busy') !== undefined));
    // Node one's queue for the busy robot is held, as its own import of 90k rules holds it.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = one.ctx.writes.run(robotKey(busy), () => held);
    try {
      await two.store.rules.insert(busy, [storeRule('busy-1', 'is this robot busy')], 0, 't');
      const written = Date.now();
      // Node one reads the feed again after that write (before the fix, its reads stopped
      // there until the queue was free: the node was "catching-up" for the whole import).
      assert.ok(
        await eventually(() => Date.now() - (one.cluster.feedLagMs() ?? Infinity) > written),
        "the feed is read past the held robot's change",
      );
      await two.store.rules.insert(
        robotOn(two),
        [storeRule('free-1', 'can I pay by card')],
        0,
        't',
      );
      assert.ok(
        await eventually(
          async () => (await answerOn(one, 'can I pay by card')) === 'answer of free-1',
        ),
        "another robot's change is followed while the held one waits",
      );
    } finally {
      release();
      await holding;
    }
    // The held robot's change is applied once its queue is free.
    await one.cluster.catchUp();
    const robot = one.ctx.robots.get(tenantId, 'busy');
    assert.ok(robot);
    const { result } = await ask(one.ctx, robot, {
      question: 'is this robot busy',
      userId: 'u',
      channel: 'API',
    });
    assert.equal(
      result.module === 'KB' && result.answerType === 'BESTMATCH' ? result.answer : null,
      'answer of busy-1',
    );
  });

  test('a node whose listening connection was cut catches up once it is back', async () => {
    // No timer to fall back on: only the catch-up after the reconnect can bring the change.
    const three = await startNode(10 * 60 * 1000);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await insertBySql(writer, 'cut-1', 'which languages do you speak');
      // Every listening connection of the database is cut (the other nodes' too), then the write
      // commits while they are away: its NOTIFY reaches nobody.
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
      );
      assert.ok((rowCount ?? 0) >= 1);
      await writer.query('COMMIT');
      assert.ok(
        await eventually(
          async () => (await answerOn(three, 'which languages do you speak')) === 'answer of cut-1',
        ),
      );
    } finally {
      await writer.end();
      await admin.end();
      await three.cluster.stop();
      await three.store.close();
    }
  });
});
