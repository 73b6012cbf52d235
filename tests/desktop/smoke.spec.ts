/**
 * Desktop smoke test: the packaged shell's entry (dist/main.cjs, as `npm start` runs it) opens
 * the editor with its token, keeps the page isolated, serves the API to another local program,
 * and stops cleanly on quit (the data directory is free again and holds what was written).
 * Skipped, with the reason printed, where Electron's binary is missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import type { ElectronApplication } from '@playwright/test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { CONTENT_SECURITY_POLICY } from '../../electron/desktop/security';
import { startService } from '../../electron/service/index';
import { silentLogger } from '../../electron/service/logger';
import { findElectronBinary } from './electron-binary';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CREDENTIALS = { customerId: 'cust-smoke', adminKey: 'ak-smoke', adminSecret: 'secret-smoke' };
const ENV = {
  KB_CUSTOMER_ID: CREDENTIALS.customerId,
  KB_ADMIN_KEY: CREDENTIALS.adminKey,
  KB_ADMIN_SECRET: CREDENTIALS.adminSecret,
};

const binary = findElectronBinary();
if ('reason' in binary) console.log(`desktop smoke test skipped: ${binary.reason}`);

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

test.describe('desktop app', () => {
  test.skip('reason' in binary, 'reason' in binary ? binary.reason : '');

  let work: string;
  let app: ElectronApplication | undefined;
  test.beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'kbstudio-desktop-'));
  });
  test.afterEach(async () => {
    await app?.close().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  });

  test('opens the editor, answers the API from outside, quits cleanly', async () => {
    const dataDir = join(work, 'data');
    const port = await freePort();
    app = await electron.launch({
      ...('path' in binary ? { executablePath: binary.path } : {}),
      args: [
        join(ROOT, 'dist/main.cjs'),
        `--data=${dataDir}`,
        `--port=${port}`,
        `--user-data-dir=${join(work, 'user-data')}`,
      ],
      env: { ...process.env, ...ENV },
    });

    const editor = await app.firstWindow();
    await expect(editor).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=`));
    await expect(editor).toHaveTitle(/KB Studio/);
    // Isolated and sandboxed: the page sees the bridge and nothing of Node or Electron.
    const page = await editor.evaluate(async () => {
      const w = globalThis as unknown as Record<string, unknown>;
      const bridge = w.kbDesktop as Record<string, unknown> | undefined;
      // The CSP is added by the shell to the editor's responses, so the page sees it too.
      const response = await fetch(String((w.location as { href: string }).href));
      return {
        bridge: bridge ? Object.keys(bridge).sort() : null,
        version: bridge?.version,
        node: typeof w.require !== 'undefined' || typeof w.process !== 'undefined',
        csp: response.headers.get('content-security-policy'),
      };
    });
    expect(page).toEqual({
      bridge: ['onMenu', 'openExcelFile', 'platform', 'saveFile', 'version'],
      version: expect.stringMatching(/\d+\.\d+\.\d+/),
      node: false,
      csp: CONTENT_SECURITY_POLICY,
    });

    // Another local program: register a tenant, import a rule, ask.
    const client = new OpenApiClient({ baseUrl: `http://127.0.0.1:${port}`, ...CREDENTIALS });
    const { tenantId } = await client.registerTenant({
      username: 'smoke_admin',
      password: 'secret123',
      phoneNumber: '13800138000',
      mail: 'smoke@example.com',
      company: '冒烟测试公司',
    });
    const [robot] = await client.listRobots(tenantId);
    if (!robot) throw new Error('registration made no robot');
    const robotClient = client.robot(tenantId, robot.robotId, robot.robotSecret);
    const imported = await robotClient.importRules([
      {
        ruleName: '退货',
        questions: ['怎么退货', '我想退货'],
        answerContentType: 'TEXT',
        answer: '七天内可无理由退货。',
      },
    ]);
    expect(imported.failInfo).toEqual([]);
    const answer = await robotClient.ask('我想退货');
    expect(answer).toMatchObject({ answerType: 'BESTMATCH', answer: '七天内可无理由退货。' });

    await app.close();
    app = undefined;
    // Stopped cleanly: the data directory is released and the rule is on disk.
    const again = await startService({ dataDir, port: 0, logger: silentLogger, env: ENV });
    try {
      const reopened = new OpenApiClient({ baseUrl: again.url, ...CREDENTIALS });
      const rules = await reopened.robot(tenantId, robot.robotId, robot.robotSecret).listRules();
      expect(rules.totalCount).toBe(1);
    } finally {
      await again.stop();
    }
  });
});
