/**
 * A robot in review mode keeps a second index, of its latest version: it is saved in `kb.index`
 * at a clean stop with the version it answers for, and opened at the next start instead of being
 * rebuilt from the version's revisions.
 */
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { startService } from '../../electron/service/index';
import type { KbService } from '../../electron/service/index';
import type { Logger } from '../../electron/service/logger';
import { consoleClient } from '../helpers/console-client';
import {
  TEST_CREDENTIALS,
  TEST_ENV,
  makeDataDir,
  registerTenantWithRobot,
  ruleInput,
} from '../helpers/service';

describe('the published index is saved and opened again', () => {
  const dataDir = makeDataDir('published-index');
  let lines: string[] = [];
  const logger: Logger = {
    info: (message) => lines.push(message),
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message) => lines.push(`error: ${message}`),
  };
  let service: KbService;
  let robot: RobotClient;
  let R = '';
  const start = async () => {
    lines = [];
    service = await startService({ dataDir, logger, env: TEST_ENV, port: 0 });
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    if (robot) robot = client.robot(robot.tenantId, robot.robotId, robot.robotSecret);
    return client;
  };
  const api = () => consoleClient(service.url, service.consoleToken);

  before(async () => {
    const client = await start();
    ({ robot } = await registerTenantWithRobot(client));
    R = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
    await robot.importRules([
      ruleInput('退货', ['怎么退货', '如何退货'], '七天无理由退货。'),
      ruleInput('运费', ['运费多少', '包邮吗'], '满99元包邮。'),
    ]);
    await api().ok('PATCH', R, { settings: { publishMode: 'review' } });
    const rows = await api().ok<{ rows: { ruleId: string; ruleName: string }[] }>(
      'GET',
      `${R}/rules`,
    );
    const freight = rows.rows.find((row) => row.ruleName === '运费')?.ruleId;
    // A draft edit not published: the openapi keeps answering the version.
    await api().ok('PATCH', `${R}/rules/${freight}`, { answer: '满88元包邮。' });
  });
  after(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a clean stop saves it; the next start opens it and answers the version, not the draft', async () => {
    assert.equal((await robot.ask('运费多少')).answer, '满99元包邮。');
    await service.stop();
    assert.ok(existsSync(join(dataDir, 'kb.index')));
    await start();
    assert.ok(
      lines.some((line) => /opened the saved published index of 1 robot/.test(line)),
      lines.join('\n'),
    );
    assert.ok(!lines.some((line) => /rebuilding|built/.test(line)), lines.join('\n'));
    assert.equal((await robot.ask('运费多少')).answer, '满99元包邮。');
    assert.equal((await robot.ask('如何退货')).answer, '七天无理由退货。');
  });

  test('after a publish, the saved index is of the new version', async () => {
    await api().ok('POST', `${R}/versions`, { note: 'freight', author: 'admin' });
    assert.equal((await robot.ask('运费多少')).answer, '满88元包邮。');
    await service.stop();
    await start();
    assert.ok(lines.some((line) => /opened the saved published index of 1 robot/.test(line)));
    assert.equal((await robot.ask('运费多少')).answer, '满88元包邮。');
  });

  test('a saved index of another version is not used: the index is built from the version', async () => {
    await service.stop();
    // The file is of the database's state; a version published by another start after it was
    // read is simulated by publishing with the file set aside and putting it back.
    const { renameSync } = await import('node:fs');
    const path = join(dataDir, 'kb.index');
    renameSync(path, `${path}.kept`);
    await start();
    const rows = await api().ok<{ rows: { ruleId: string; ruleName: string }[] }>(
      'GET',
      `${R}/rules`,
    );
    const refund = rows.rows.find((row) => row.ruleName === '退货')?.ruleId;
    await api().ok('PATCH', `${R}/rules/${refund}`, { answer: '三十天无理由退货。' });
    await api().ok('POST', `${R}/versions`, { note: 'refund', author: 'admin' });
    await service.stop();
    renameSync(`${path}.kept`, path);
    await start();
    assert.ok(!lines.some((line) => /opened the saved published index/.test(line)));
    assert.equal((await robot.ask('如何退货')).answer, '三十天无理由退货。');
  });

  test('a robot in review mode put in the trash and restored answers its version again', async () => {
    const rows = await api().ok<{ rows: { ruleId: string; ruleName: string }[] }>(
      'GET',
      `${R}/rules`,
    );
    const freight = rows.rows.find((row) => row.ruleName === '运费')?.ruleId;
    await api().ok('PATCH', `${R}/rules/${freight}`, { answer: '全场包邮。' });
    const published = (await robot.ask('运费多少')).answer;
    assert.notEqual(published, '全场包邮。');
    await api().ok('DELETE', R);
    await api().ok('POST', `${R}/restore`);
    assert.equal((await robot.ask('运费多少')).answer, published);
  });
});
