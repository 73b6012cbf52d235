/**
 * `npm run serve -- --database URL` (the built headless service, a real PostgreSQL from
 * tests/helpers/postgres.ts): what one process acknowledged is there for the next one started on
 * the same database, even after a SIGKILL, whatever its data directory; `KB_DATABASE_URL` does
 * the same; an unreachable database is a clear start failure; a node serves its first signed
 * requests without node-postgres's warnings.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { runServiceExpectingFailure, spawnService } from '../helpers/child-service';
import { freshDatabase } from '../helpers/postgres';
import { TEST_CREDENTIALS, makeDataDir, ruleInput, tenantRequest } from '../helpers/service';

const clientOf = (baseUrl: string) => new OpenApiClient({ baseUrl, ...TEST_CREDENTIALS });

test('a node started on the same database finds what a killed one acknowledged', async () => {
  const database = await freshDatabase('serve');
  const first = makeDataDir('serve-a');
  const second = makeDataDir('serve-b');
  try {
    const a = await spawnService(first, { args: ['--database', database] });
    const client = clientOf(a.url);
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [robot] = await client.listRobots(tenantId);
    assert.ok(robot);
    const rules = client.robot(tenantId, robot.robotId, robot.robotSecret);
    await rules.importRules([ruleInput('Delivery', ['How long does delivery take'])]);
    a.child.kill('SIGKILL');
    await a.exited;
    assert.ok(!existsSync(join(first, 'kb.sqlite')), 'no embedded database beside it');

    const b = await spawnService(second, { env: { KB_DATABASE_URL: database } });
    try {
      const again = clientOf(b.url).robot(tenantId, robot.robotId, robot.robotSecret);
      const answer = await again.ask('How long does delivery take', 'u1');
      assert.equal(answer.answerType, 'BESTMATCH');
      b.child.kill('SIGTERM');
      assert.equal(await b.exited, 0);
      assert.deepEqual(
        readdirSync(second).filter((name) => name.endsWith('.index') || name.startsWith('kb.')),
        [],
        'a clean stop saves no matching index on a team server',
      );
    } finally {
      b.child.kill('SIGKILL');
    }
  } finally {
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  }
});

test('an unreachable database is a clear start failure', async () => {
  const dir = makeDataDir('serve-down');
  try {
    const { code, output } = await runServiceExpectingFailure(dir, {
      args: ['--database', 'postgres://kb@127.0.0.1:1/none'],
    });
    assert.equal(code, 1);
    assert.match(output, /kb-studio: .*ECONNREFUSED/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a node serves its first signed requests without node-postgres warnings', async () => {
  const database = await freshDatabase('serve-quiet');
  const dir = makeDataDir('serve-quiet');
  try {
    const node = await spawnService(dir, { args: ['--database', database] });
    try {
      // Every signed request records its signature on the signatures' own connections, whose
      // session setting once was a statement overlapping the first insert on each connection.
      const client = clientOf(node.url);
      const { tenantId } = await client.registerTenant(tenantRequest());
      await Promise.all(Array.from({ length: 6 }, () => client.listRobots(tenantId)));
      node.child.kill('SIGTERM');
      assert.equal(await node.exited, 0);
      assert.doesNotMatch(node.output(), /already executing a query|DeprecationWarning/);
    } finally {
      node.child.kill('SIGKILL');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
