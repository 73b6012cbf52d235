/**
 * A node on a real PostgreSQL database following the change feed while one robot's write queue is
 * held, as the node's own bundle import holds it for minutes: every read of the feed meanwhile
 * leaves a batch waiting behind the import, and whoever waits for the node to be caught up
 * (`catchUp`: a stop, the readiness check) waits for all of them. The work that waiting costs must
 * grow with the waiters plus the batches, not with their product: a `Promise.allSettled` over
 * every pending batch per wake made a 50 MB import end with ~200 ms of promise reactions and no
 * turn of the event loop, and a 116 MB one (36 min of reads) with seconds (decision 161).
 *
 * Counted as the promises made (async_hooks), not timed: a count does not depend on the load.
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { after, before, test } from 'node:test';
import { ClusterNode } from '../../electron/service/cluster/node';
import type { DomainContext } from '../../electron/service/domain/context';
import { ask } from '../../electron/service/domain/ask';
import { robotKey } from '../../electron/service/domain/robot-directory';
import { loadRobots } from '../../electron/service/domain/robot-loading';
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/index';
import { PostgresStore } from '../../electron/service/store/postgres/postgres-store';
import { nodeMemory, storeRule } from '../helpers/node-memory';
import { freshDatabase } from '../helpers/postgres';

/** Batches left waiting behind the held queue, and callers waiting for the node to catch up. */
const BATCHES = 120;
const WAITERS = 200;
/** A functional bound (room for a loaded machine), not a timing. */
const DEADLINE_MS = 10_000;

let store: PostgresStore;
let ctx: DomainContext;
let cluster: ClusterNode;
let tenantId: number;

before(async () => {
  const url = await freshDatabase('follow_long_write');
  store = await PostgresStore.open({ url, logger: silentLogger, textKey: normalizeText });
  ctx = nodeMemory(store);
  // No timer reads: each notification (one per committed write) is one read, one batch.
  cluster = await ClusterNode.join({ pool: store.pool, url, logger: silentLogger, pollMs: 3.6e6 });
  tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: Date.now() },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
    robot: { robotId: 'default', name: 'D', secret: 's', settingsJson: '{}', createdAt: 0 },
  });
  await loadRobots(ctx, { file: null }, null);
  await cluster.follow(ctx);
});

after(async () => {
  await cluster?.stop();
  await store?.close();
});

/** Resolves once the feed has been read after `since` (ms since the epoch); false past the deadline. */
async function readSince(since: number): Promise<boolean> {
  const deadline = Date.now() + DEADLINE_MS;
  while (Date.now() - (cluster.feedLagMs() ?? Infinity) <= since) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}

test('waiting for the follow of many batches held behind a long write costs waiters plus batches', async () => {
  const robot = ctx.robots.get(tenantId, 'default');
  assert.ok(robot);
  // The node's queue for the robot is held, as its own import holds it.
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = ctx.writes.run(robotKey(robot), () => held);
  let promises = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') promises += 1;
    },
  });
  try {
    for (let i = 0; i < BATCHES; i++) {
      // Read in a batch of its own (the notification's read), which waits behind the held
      // queue. The time is taken before the write: its notification's read may start at once.
      const writing = Date.now();
      await store.rules.insert(robot, [storeRule(`held-${i}`, `held question ${i}`)], 0, 't');
      assert.ok(await readSince(writing), `batch ${i} is read`);
    }
    hook.enable();
    const waiting = Array.from({ length: WAITERS }, () => cluster.catchUp());
    // One more read for the waiters (it finds nothing new), then the long write ends.
    assert.ok(await readSince(Date.now()));
    release();
    await holding;
    await Promise.all(waiting);
    hook.disable();
  } finally {
    hook.disable();
    release();
  }
  // Before the fix each waiter's wait took every pending batch again: over WAITERS × BATCHES
  // (24,000) promises. Now a few per waiter and per batch (the batches' own follow included).
  assert.ok(
    promises < (WAITERS * BATCHES) / 4,
    `${promises} promises made while ${WAITERS} waited for ${BATCHES} batches`,
  );
  // And the batches were followed: the last rule held back is answered.
  const { result } = await ask(ctx, robot, {
    question: `held question ${BATCHES - 1}`,
    userId: 'u',
    channel: 'API',
  });
  assert.equal(result.answer, `answer of held-${BATCHES - 1}`);
});
