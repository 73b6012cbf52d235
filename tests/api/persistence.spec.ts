import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { runServiceExpectingFailure, spawnService } from '../helpers/child-service';
import {
  TEST_CREDENTIALS,
  makeDataDir,
  registerTenantWithRobot,
  ruleInput,
  startTestService,
  tenantRequest,
} from '../helpers/service';
import type { TestService } from '../helpers/service';
import { onPostgres } from '../helpers/test-store';

describe('a restart keeps everything', () => {
  let h: TestService;
  let tenantId: number;
  let robot: RobotClient;
  before(async () => {
    h = await startTestService();
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
  });
  after(() => h.close());

  test('tenants, administrators, robots, rules and answers survive a restart', async () => {
    const user = await h.client.addUser(tenantId, {
      username: '运营',
      password: 'secret123',
      role: 'ADMIN',
    });
    const second = await h.client.createRobot(tenantId, '售后机器人');
    const imported = await robot.importRules([
      ruleInput('发票', ['怎么开发票', '发票怎么开'], '在订单页申请。'),
    ]);
    const replayable = h.client.signedUrl(`/v1/openapi/tenants/${tenantId}/robots`, {
      signMethod: 1,
    });
    assert.equal((await fetch(replayable)).status, 200);

    await h.restart();

    const robots = await h.client.listRobots(tenantId);
    assert.deepEqual(
      robots.map((r) => [r.robotId, r.name]),
      [
        ['default', 'Default robot'],
        [second.robotId, '售后机器人'],
      ],
    );
    assert.equal(robots[0]?.robotSecret, robot.robotSecret);
    const again = h.client.robot(tenantId, 'default', robot.robotSecret);
    const ruleId = imported.succeed[0]?.ruleId ?? '';
    assert.equal((await again.getRule(ruleId)).answer, '在订单页申请。');
    assert.equal((await again.ask('发票怎么开')).answer, '在订单页申请。');
    const taken = await h.client.send('POST', `/v1/openapi/tenants/${tenantId}/users`, {
      signMethod: 1,
      body: { username: '运营', password: 'secret123', role: 'ADMIN' },
    });
    assert.equal(taken.status, 409, 'the administrator survived');
    assert.equal(
      (await h.client.updateUser(tenantId, user.userId, { role: 'ADMIN' })).userId,
      user.userId,
    );
    const replay = await fetch(replayable.replace(/^http:\/\/[^/]+/, h.service.url));
    assert.equal(replay.status, 401, 'a nonce used before a clean restart stays used');
    assert.equal(((await replay.json()) as { code: string }).code, 'replayed-nonce');
  });
});

describe('the headless service (npm run serve)', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = makeDataDir('serve');
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test('prints its address, stops on SIGTERM with a snapshot, and releases the data directory', async () => {
    const dataDir = dir();
    const service = await spawnService(dataDir);
    assert.match(service.output(), /^listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    await client.registerTenant(tenantRequest());
    assert.ok(existsSync(join(dataDir, 'kbstudio.lock')));
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    const files = readdirSync(dataDir);
    assert.ok(!files.includes('kbstudio.lock'), 'the lock is released');
    // A team server's node keeps no knowledge-base data in its directory.
    assert.equal(files.includes('kb.sqlite'), !onPostgres, 'a snapshot is written (embedded)');
    assert.deepEqual(
      files.filter((f) => f.startsWith('journal-')),
      [],
      'the snapshot covers the journal',
    );
  });

  test('SIGINT stops it cleanly too', async () => {
    const service = await spawnService(dir());
    service.child.kill('SIGINT');
    assert.equal(await service.exited, 0);
  });

  test('a second process on the same data directory fails with a clear message', async () => {
    const dataDir = dir();
    const first = await spawnService(dataDir);
    try {
      const second = await runServiceExpectingFailure(dataDir);
      assert.equal(second.code, 1);
      assert.match(second.output, /already in use by another KB Studio process \(pid \d+\)/);
      const client = new OpenApiClient({ baseUrl: first.url, ...TEST_CREDENTIALS });
      assert.ok(
        (await client.registerTenant(tenantRequest())).tenantId > 0,
        'the first keeps working',
      );
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  test('credentials are generated on first start, kept private, and reused', async () => {
    const dataDir = dir();
    const env = { KB_CUSTOMER_ID: '', KB_ADMIN_KEY: '', KB_ADMIN_SECRET: '' };
    const first = await spawnService(dataDir, { env });
    first.child.kill('SIGTERM');
    await first.exited;
    const path = join(dataDir, 'credentials.json');
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(stored), ['customerId', 'adminkey', 'adminsecret']);
    assert.ok((stored.adminkey ?? '').length >= 20 && (stored.adminsecret ?? '').length >= 40);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const second = await spawnService(dataDir, { env });
    try {
      const client = new OpenApiClient({
        baseUrl: second.url,
        customerId: stored.customerId ?? '',
        adminKey: stored.adminkey ?? '',
        adminSecret: stored.adminsecret ?? '',
      });
      assert.ok((await client.registerTenant(tenantRequest())).tenantId > 0);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  test('only some of the KB_* variables set is a clear error', async () => {
    const result = await runServiceExpectingFailure(dir(), {
      env: { KB_CUSTOMER_ID: 'c', KB_ADMIN_KEY: '', KB_ADMIN_SECRET: '' },
    });
    assert.equal(result.code, 1);
    assert.match(result.output, /Set all of KB_CUSTOMER_ID, KB_ADMIN_KEY, KB_ADMIN_SECRET or none/);
  });

  test('after an unclean stop, requests signed before the restart are refused', async () => {
    const dataDir = dir();
    const first = await spawnService(dataDir);
    const client = new OpenApiClient({ baseUrl: first.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const path = `/v1/openapi/tenants/${tenantId}/robots`;
    const used = client.signedUrl(path, { signMethod: 1 });
    assert.equal((await fetch(used)).status, 200);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await spawnService(dataDir);
    try {
      const replay = await fetch(used.replace(first.url, second.url));
      assert.equal(replay.status, 401);
      assert.equal(((await replay.json()) as { code: string }).code, 'stale-timestamp');
      const fresh = new OpenApiClient({ baseUrl: second.url, ...TEST_CREDENTIALS });
      assert.equal((await fresh.listRobots(tenantId)).length, 1, 'fresh requests work');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
