/**
 * The team server's change feed on a real PostgreSQL: the triggers record every write of the
 * tables nodes keep in memory, announce it at commit, and the reader hands out a change that
 * commits after a later one (out-of-order ids) instead of losing it. Replay refusal across nodes
 * through the shared signatures table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ChangeFeed, pruneChanges } from '../../electron/service/cluster/change-feed';
import type { Change } from '../../electron/service/cluster/change-feed';
import { CHANGES_CHANNEL } from '../../electron/service/store/postgres/cluster-schema';
import { SharedSignatures } from '../../electron/service/cluster/shared-signatures';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { freshDatabase } from '../helpers/postgres';

let url: string;
let pool: Pool;

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

const insertRule = (db: Pick<pg.Client, 'query'>, robotId: string, ruleId: string) =>
  db.query(
    `INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer, created_at, updated_at)
     VALUES ($1, 1, $2, $1, $1, '["q"]', 'a', 0, 0)`,
    [ruleId, robotId],
  );

const ruleIdsOf = (changes: Change[]) => changes.flatMap((change) => change.ruleIds).sort();

before(async () => {
  url = await freshDatabase('feed');
  pool = openPool({ url, logger: silentLogger });
  await migrate(pool, silentLogger);
  await pool.query(
    `INSERT INTO tenants (tenant_id, phone_number, mail, company, created_at) VALUES (1, '1', 'm', 'c', 0);
     INSERT INTO robots (tenant_id, robot_id, name, secret, created_at) VALUES (1, 'a', 'A', 's', 0), (1, 'b', 'B', 's', 0);`,
  );
});

after(async () => {
  await pool.end();
});

describe('the change feed', () => {
  test('one change per statement and robot, naming the rules it touched', async () => {
    const feed = new ChangeFeed(pool);
    await feed.start();
    await pool.query(
      `INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name, name_key, questions, answer, created_at, updated_at)
       VALUES ('s1', 1, 'a', 's1', 's1', '[]', 'x', 0, 0), ('s2', 1, 'a', 's2', 's2', '[]', 'x', 0, 0),
              ('s3', 1, 'b', 's3', 's3', '[]', 'x', 0, 0)`,
    );
    await pool.query(`UPDATE rules SET answer = 'y' WHERE rule_id IN ('s1', 's3')`);
    await pool.query(`DELETE FROM rules WHERE rule_id = 's2'`);
    await pool.query(`UPDATE rules SET answer = 'z' WHERE rule_id = 'nothing'`);
    const batch = await feed.read();
    batch.advance();
    const seen = batch.changes.map(
      (c) => `${c.kind} ${c.robotId} ${[...c.ruleIds].sort().join(',')}`,
    );
    assert.deepEqual(seen.slice(0, 2).sort(), ['rules a s1,s2', 'rules b s3']);
    assert.deepEqual(seen.slice(2, 4).sort(), ['rules a s1', 'rules b s3']);
    assert.deepEqual(seen.slice(4), ['rules a s2']);
  });

  test('robots, tenants, versions, categories and administrators are recorded too', async () => {
    const feed = new ChangeFeed(pool);
    await feed.start();
    await pool.query(
      `UPDATE robots SET settings = '{"publishMode":"review"}' WHERE robot_id = 'a'`,
    );
    await pool.query(`UPDATE tenants SET deleted_at = NULL WHERE tenant_id = 1`);
    await pool.query(
      `INSERT INTO versions (tenant_id, robot_id, version, note, author, created_at, rules, added, changed, removed)
       VALUES (1, 'b', 1, '', 'api', 0, 0, 0, 0, 0)`,
    );
    await pool.query(
      `INSERT INTO categories (tenant_id, robot_id, name, name_key, created_at) VALUES (1, 'a', 'c', 'c', 0)`,
    );
    await pool.query(
      `INSERT INTO users (user_id, tenant_id, username, username_key, password_hash, role, created_at, updated_at)
       VALUES ('u1', 1, 'u', 'u', 'h', 'admin', 0, 0)`,
    );
    const batch = await feed.read();
    assert.deepEqual(
      batch.changes.map((c) => [c.kind, c.tenantId, c.robotId]),
      [
        ['robot', 1, 'a'],
        ['tenant', 1, null],
        ['version', 1, 'b'],
        ['category', 1, 'a'],
        ['user', 1, null],
      ],
    );
  });

  test('the change is announced at commit, not before', async () => {
    const listener = await client();
    const writer = await client();
    try {
      const heard: string[] = [];
      listener.on('notification', (n) => heard.push(n.channel));
      await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
      await writer.query('BEGIN');
      await insertRule(writer, 'a', 'n1');
      // A round trip on the listener: a notification sent by then would have arrived.
      await listener.query('SELECT 1');
      assert.deepEqual(heard, []);
      await writer.query('COMMIT');
      const deadline = Date.now() + 5000;
      while (heard.length === 0 && Date.now() < deadline) await listener.query('SELECT 1');
      assert.deepEqual(heard, [CHANGES_CHANNEL]);
    } finally {
      await listener.end();
      await writer.end();
    }
  });

  test('a change whose id is lower than one already read, committed after it, is read', async () => {
    const feed = new ChangeFeed(pool);
    await feed.start();
    const early = await client();
    const late = await client();
    try {
      // `early` takes the lower id, `late` the higher one and commits first.
      await early.query('BEGIN');
      await insertRule(early, 'a', 'ooo-early');
      await late.query('BEGIN');
      await insertRule(late, 'a', 'ooo-late');
      await late.query('COMMIT');

      const first = await feed.read();
      first.advance();
      assert.deepEqual(ruleIdsOf(first.changes), ['ooo-late']);
      const lateId = (first.changes[0] as Change).id;

      await early.query('COMMIT');
      const second = await feed.read();
      second.advance();
      assert.deepEqual(ruleIdsOf(second.changes), ['ooo-early']);
      // The case a reader of "ids above the last one read" loses:
      assert.ok((second.changes[0] as Change).id < lateId);

      // Nothing is handed out twice.
      const third = await feed.read();
      assert.deepEqual(third.changes, []);
    } finally {
      await early.end().catch(() => undefined);
      await late.end().catch(() => undefined);
    }
  });

  test('a batch not advanced is read again (its application failed)', async () => {
    const feed = new ChangeFeed(pool);
    await feed.start();
    await insertRule(pool, 'b', 'retry-1');
    const first = await feed.read();
    assert.deepEqual(ruleIdsOf(first.changes), ['retry-1']);
    const again = await feed.read();
    assert.deepEqual(ruleIdsOf(again.changes), ['retry-1']);
    again.advance();
    assert.deepEqual((await feed.read()).changes, []);
  });

  test('the position taken at start skips what committed before, not what commits after', async () => {
    const open = await client();
    try {
      await insertRule(pool, 'a', 'before-start');
      await open.query('BEGIN');
      await insertRule(open, 'a', 'open-at-start');
      const feed = new ChangeFeed(pool);
      await feed.start();
      await open.query('COMMIT');
      await insertRule(pool, 'a', 'after-start');
      const batch = await feed.read();
      assert.deepEqual(ruleIdsOf(batch.changes), ['after-start', 'open-at-start']);
    } finally {
      await open.end();
    }
  });

  test('rolled back writes leave no change', async () => {
    const feed = new ChangeFeed(pool);
    await feed.start();
    const writer = await client();
    try {
      await writer.query('BEGIN');
      await insertRule(writer, 'a', 'rolled-back');
      await writer.query('ROLLBACK');
    } finally {
      await writer.end();
    }
    assert.deepEqual((await feed.read()).changes, []);
  });

  test('old changes are pruned', async () => {
    await insertRule(pool, 'a', 'to-prune');
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM changes');
    assert.ok((rows[0]?.n ?? 0) > 0);
    assert.equal(await pruneChanges(pool, Date.now() - 60_000), 0);
    const pruned = await pruneChanges(pool, Date.now() + 1);
    assert.equal(pruned, rows[0]?.n);
  });
});

describe('signatures shared by the nodes', () => {
  test('a signature used through one node is refused through another', async () => {
    const windowMs = 300_000;
    const one = new SharedSignatures(url, windowMs, silentLogger);
    const two = new SharedSignatures(url, windowMs, silentLogger);
    try {
      const now = Date.now();
      assert.equal(await one.use('sig-1', now, now), true);
      assert.equal(await two.use('sig-1', now, now), false);
      assert.equal(await one.use('sig-1', now, now), false);
      assert.equal(await two.use('sig-2', now, now), true);
      // Forgotten once its timestamp has left the window (it could not be accepted any more).
      assert.equal(await one.prune(now + windowMs - 1), 0);
      assert.equal(await one.prune(now + windowMs + 1), 2);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
