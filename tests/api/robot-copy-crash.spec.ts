/**
 * A robot import killed half-way (SIGKILL of the receiving service while it writes the rules)
 * leaves no half robot among the robots after a restart: it was built hidden, in the trash, and
 * stays there. The built service runs as a child process (dist/headless.js).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { ConsoleTrash } from '../../electron/service/console-types';
import type { RobotBundle } from '../../electron/service/robot-bundle-types';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { bundleOf, bundleRule } from '../helpers/bundles';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';

const RULES = 15_000;

function bigBundle(): RobotBundle {
  const rules = Array.from({ length: RULES }, (_, i) =>
    bundleRule(`killed-${i}`, `规则 ${i}`, {
      questions: [`问题 ${i} 怎么办`, `第 ${i} 个问题`],
      categoryName: i % 2 === 0 ? '类' : null,
    }),
  );
  return bundleOf('killed copy', rules, {
    categories: [{ name: '类' }],
    testCases: [{ question: '问题 1 怎么办', expect: 'rule', ruleId: 'killed-1' }],
  });
}

function tokenOf(service: ChildService): string {
  const token = /editor: \S+\?token=([\w-]+)/.exec(service.output())?.[1];
  assert.ok(token, `no editor token in:\n${service.output()}`);
  return token;
}

async function robotNames(api: ReturnType<typeof consoleClient>, tenantId: number) {
  const workspace = await api.ok<{ tenants: { tenantId: number; robots: { name: string }[] }[] }>(
    'GET',
    '/workspace',
  );
  return workspace.tenants.find((t) => t.tenantId === tenantId)?.robots.map((r) => r.name);
}

describe('a robot import killed half-way', () => {
  let dataDir: string;
  let service: ChildService | undefined;
  before(() => {
    dataDir = makeDataDir('copy-crash');
  });
  after(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('leaves the robot in the trash, never among the robots', async () => {
    service = await spawnService(dataDir);
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const api = consoleClient(service.url, tokenOf(service));
    const namesBefore = await robotNames(api, tenantId);
    const importing = api
      .call('POST', `/tenants/${tenantId}/robots/import`, bigBundle())
      .catch(() => null);
    // The robot is in the trash from its first step to its last: kill it then.
    let building = false;
    const end = Date.now() + 60_000;
    while (!building && Date.now() < end) {
      const trash = await api.ok<ConsoleTrash>('GET', '/trash');
      building = trash.robots.some((robot) => robot.name === 'killed copy');
    }
    assert.ok(building, 'the import was seen building its robot');
    service.child.kill('SIGKILL');
    await service.exited;
    assert.equal(await importing, null, 'the import was never answered');

    service = await spawnService(dataDir);
    const again = consoleClient(service.url, tokenOf(service));
    assert.deepEqual(await robotNames(again, tenantId), namesBefore, 'no half robot among them');
    const trash = await again.ok<ConsoleTrash>('GET', '/trash');
    assert.deepEqual(
      trash.robots.map((robot) => robot.name),
      ['killed copy'],
      'it waits in the trash, to be purged with the rest',
    );
    // And the same import, not killed, goes through.
    const done = await again.ok<{ rules: number }>(
      'POST',
      `/tenants/${tenantId}/robots/import`,
      bigBundle(),
    );
    assert.equal(done.rules, RULES);
  });
});
