/**
 * The saved matching index (`kb.index`): written on a clean stop, opened at the next start only
 * when it was taken at the database's seq, and otherwise (crash with later writes, damage) ignored
 * and rebuilt from the database.
 */
import assert from 'node:assert/strict';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RulePage, TryResult } from '../../electron/service/console-types';
import { startService } from '../../electron/service/index';
import type { KbService } from '../../electron/service/index';
import type { Logger } from '../../electron/service/logger';
import { spawnService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import {
  TEST_CREDENTIALS,
  TEST_ENV,
  makeDataDir,
  registerTenantWithRobot,
  ruleInput,
} from '../helpers/service';
import { EMBEDDED_FILES_ONLY } from '../helpers/test-store';

const INDEX_FILE = 'kb.index';

function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(message),
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message) => lines.push(`error: ${message}`),
  };
}

const RULES = [
  ruleInput('退货', ['我想退货', '怎么退货', '七天无理由退货吗'], '七天内可无理由退货。'),
  ruleInput('发票', ['怎么开发票', '发票怎么开', '能开专票吗'], '在订单页申请发票。'),
  ruleInput('物流', ['快递到哪了', '物流怎么查', '什么时候发货'], '在订单详情查看物流。'),
  ruleInput('password', ['how do I reset my password', 'forgot password'], 'Use the reset link.'),
  ruleInput('refund', ['when will I get my refund', 'refund status'], 'Refunds take 5 days.'),
  ruleInput('card', ['my card is blocked', 'unblock card'], 'Call the bank to unblock.'),
];
const QUESTIONS = [
  '我想退货',
  '退货怎么弄',
  '发票',
  '快递什么时候到',
  'how can I reset the password',
  'refund',
  'card blocked',
  '完全无关的问题',
];

describe('the saved matching index', { skip: EMBEDDED_FILES_ONLY }, () => {
  const dataDir = makeDataDir('index');
  const logger = capturingLogger();
  let service: KbService;
  let robot: RobotClient;
  const start = async () => {
    logger.lines.length = 0;
    service = await startService({ dataDir, port: 0, logger, env: TEST_ENV });
    robot = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS }).robot(
      robot.tenantId,
      robot.robotId,
      robot.robotSecret,
    );
  };
  /** Everything the index decides: each answer, and the candidates with their scores. */
  const decisions = async () => {
    const api = consoleClient(service.url, service.consoleToken);
    const path = `/tenants/${robot.tenantId}/robots/${robot.robotId}/try`;
    const out = [];
    for (const question of QUESTIONS) {
      const tried = await api.ok<TryResult>('POST', path, { question });
      out.push({ answer: await robot.ask(question), tried });
    }
    return out;
  };

  before(async () => {
    service = await startService({ dataDir, port: 0, logger, env: TEST_ENV });
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    ({ robot } = await registerTenantWithRobot(client));
    await robot.importRules(RULES);
    // Some history beyond imports: an edit and a delete undone.
    const api = consoleClient(service.url, service.consoleToken);
    const R = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
    const rows = (await api.ok<RulePage>('GET', `${R}/rules`)).rows;
    await api.ok('PATCH', `${R}/rules/${rows[1]?.ruleId}`, { questions: ['开发票', '要发票'] });
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [rows[2]?.ruleId] });
    await api.ok('POST', `${R}/rules/restore`, { ruleIds: [rows[2]?.ruleId] });
  });
  after(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** When the file was written: a rename keeps it, a new save changes it. */
  let savedAt = 0;

  test('a clean stop saves it; the next start opens it and answers the same', async () => {
    const before = await decisions();
    await service.stop();
    assert.ok(existsSync(join(dataDir, INDEX_FILE)), 'saved on stop');
    savedAt = statSync(join(dataDir, INDEX_FILE)).mtimeMs;
    await start();
    assert.ok(
      logger.lines.some((line) => /opened the saved matching index of 1 robot/.test(line)),
      logger.lines.join('\n'),
    );
    assert.ok(!existsSync(join(dataDir, INDEX_FILE)), 'set aside once read');
    assert.deepEqual(await decisions(), before);
  });

  test('a stop with nothing written since the start puts back the file it opened', async () => {
    const path = join(dataDir, INDEX_FILE);
    await service.stop();
    assert.equal(statSync(path).mtimeMs, savedAt, 'the same file, not a new save');
    const opened = readFileSync(path);
    await start();
    assert.ok(logger.lines.some((line) => /opened the saved matching index/.test(line)));
    await robot.importRules([ruleInput('新规则', ['新的问题'], '新的答案')]);
    await service.stop();
    assert.notEqual(statSync(path).mtimeMs, savedAt, 'saved anew after a write');
    assert.notDeepEqual(readFileSync(path), opened);
    await start();
    assert.ok(logger.lines.some((line) => /opened the saved matching index/.test(line)));
    assert.equal((await robot.ask('新的问题')).answer, '新的答案');
  });

  test('a damaged file is ignored with a log line, and the index rebuilt', async () => {
    const before = await decisions();
    await service.stop();
    const path = join(dataDir, INDEX_FILE);
    // Flip one byte in the middle of the engine's bytes: only the checksum can notice.
    const fd = openSync(path, 'r+');
    const at = Math.floor(statSync(path).size / 2);
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, at);
    byte[0] = (byte[0] ?? 0) ^ 0x5a;
    writeSync(fd, byte, 0, 1, at);
    closeSync(fd);
    await start();
    assert.ok(
      logger.lines.some((line) => /warn: ignoring the saved matching index: .*damaged/.test(line)),
      logger.lines.join('\n'),
    );
    assert.ok(!logger.lines.some((line) => /opened the saved/.test(line)));
    assert.deepEqual(await decisions(), before);
  });

  test('a file cut short is ignored too', async () => {
    await service.stop();
    const path = join(dataDir, INDEX_FILE);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 3)));
    await start();
    assert.ok(logger.lines.some((line) => /ignoring the saved matching index/.test(line)));
    assert.equal((await robot.ask('我想退货')).answer, '七天内可无理由退货。');
  });
});

describe(
  'after a crash, writes made since the saved index are in the rebuilt one',
  { skip: EMBEDDED_FILES_ONLY },
  () => {
    const dataDir = makeDataDir('index-crash');
    const aside = makeDataDir('index-aside');
    after(() => {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(aside, { recursive: true, force: true });
    });

    test('a stale saved index (older seq) is not used', { timeout: 60_000 }, async () => {
      // 1. Rules, then a clean stop: the index is saved at this seq.
      const first = await spawnService(dataDir);
      const client = new OpenApiClient({ baseUrl: first.url, ...TEST_CREDENTIALS });
      const { robot } = await registerTenantWithRobot(client);
      const old = await robot.importRules([
        ruleInput('old one', ['where is the old one'], 'old one answer'),
        ruleInput('old two', ['where is the old two'], 'old two answer'),
      ]);
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
      copyFileSync(join(dataDir, INDEX_FILE), join(aside, INDEX_FILE));

      // 2. Started from the saved index; more writes (journaled), then killed.
      const second = await spawnService(dataDir);
      assert.match(second.output(), /opened the saved matching index of 1 robot/);
      const token = /\?token=(\S+)/.exec(second.output())?.[1] ?? '';
      const robot2 = new OpenApiClient({ baseUrl: second.url, ...TEST_CREDENTIALS }).robot(
        robot.tenantId,
        robot.robotId,
        robot.robotSecret,
      );
      await robot2.importRules([
        ruleInput('new one', ['what about the new one'], 'new one answer'),
      ]);
      await consoleClient(second.url, token).ok(
        'POST',
        `/tenants/${robot.tenantId}/robots/${robot.robotId}/rules/delete`,
        { ruleIds: [old.succeed[0]?.ruleId] },
      );
      second.child.kill('SIGKILL');
      await second.exited;

      // 3. The index saved in step 1 is put back (as if it had never been retired): its seq is
      // older than the database's after replaying the journal, so it must not be used.
      copyFileSync(join(aside, INDEX_FILE), join(dataDir, INDEX_FILE));
      const third = await spawnService(dataDir);
      try {
        assert.match(
          third.output(),
          /the saved matching index is of seq \d+, the database of seq \d+/,
        );
        assert.doesNotMatch(third.output(), /opened the saved matching index/);
        const robot3 = new OpenApiClient({ baseUrl: third.url, ...TEST_CREDENTIALS }).robot(
          robot.tenantId,
          robot.robotId,
          robot.robotSecret,
        );
        assert.equal((await robot3.ask('what about the new one')).answer, 'new one answer');
        const gone = await robot3.ask('where is the old one');
        assert.notEqual(gone.answer, 'old one answer', 'a deleted rule is not answered');
        assert.ok(!(gone.items ?? []).some((item) => item.ruleId === old.succeed[0]?.ruleId));
        assert.equal((await robot3.ask('where is the old two')).answer, 'old two answer');
      } finally {
        third.child.kill('SIGTERM');
        await third.exited;
      }
    });
  },
);
