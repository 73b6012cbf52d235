/**
 * `npm run sign` (build/sign.mjs running dist/sign.js): its usage, a URL it signs answered by a
 * real service, and an unreachable service named by its address.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TEST_ENV, registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const LAUNCHER = join(import.meta.dirname, '..', '..', 'build', 'sign.mjs');

/** Runs the CLI in a child process (asynchronously: the service under test is in this one). */
function sign(
  args: string[],
  env: Record<string, string> = TEST_ENV,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [LAUNCHER, ...args],
      { encoding: 'utf8', env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run sign', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  test('--help prints the usage, --base included, and exits 0', async () => {
    const { code, stdout } = await sign(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^usage: npm run -s sign -- \[options\] METHOD PATH/);
    assert.match(stdout, /--base URL/);
  });

  test('an unknown option is a usage error pointing to --help', async () => {
    const { code, stderr } = await sign(['--nope']);
    assert.equal(code, 2);
    assert.match(stderr, /--help/);
  });

  test('signs an ask (fetching the robot secret from --base) that the service answers', async () => {
    const { robot } = await registerTenantWithRobot(h.client);
    await robot.importRules([ruleInput('营业时间', ['几点开门'], '九点开门。')]);
    const { code, stdout, stderr } = await sign([
      '--base',
      h.service.url,
      '--body',
      '{}',
      'POST',
      `${robot.basePath}/robot/ask`,
    ]);
    assert.equal(code, 0, stderr);
    const [url, curl] = stdout.trim().split('\n');
    assert.match(curl ?? '', /^curl -s -X POST '/);
    const response = await fetch(url ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        userId: 'u',
        question: '几点开门',
        channel: 'API',
        questionType: 'TEXT',
      }),
    });
    const body = (await response.json()) as { data: { answer: string } };
    assert.equal(response.status, 200);
    assert.equal(body.data.answer, '九点开门。');
  });

  test('an unreachable service is named by the address tried', async () => {
    // A port that was free a moment ago: nothing listens there.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    const base = `http://127.0.0.1:${port}`;
    const { code, stderr } = await sign([
      '--base',
      base,
      'GET',
      '/v1/openapi/tenants/1/robots/default/kb/rules',
    ]);
    assert.equal(code, 1);
    assert.ok(stderr.includes(`could not reach the service at ${base} (ECONNREFUSED)`), stderr);
  });
});
