/**
 * electron/main.ts bundled as `npm run build` bundles it, and run in plain Node against a fake
 * `electron` (helpers/fake-electron.cjs): the real service starts, the window gets the editor's
 * URL with its token and the checklist's settings, quitting stops the service cleanly, and a
 * taken port leads to the dialog. What needs a real Electron is in tests/desktop.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { OpenApiClient } from '../../../electron/client/openapi-client';
import { startService } from '../../../electron/service/index';
import { silentLogger } from '../../../electron/service/logger';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const CREDENTIALS = { customerId: 'cust-desk', adminKey: 'ak-desk', adminSecret: 'secret-desk' };
const ENV = {
  KB_CUSTOMER_ID: CREDENTIALS.customerId,
  KB_ADMIN_KEY: CREDENTIALS.adminKey,
  KB_ADMIN_SECRET: CREDENTIALS.adminSecret,
};

interface FakeEvent {
  type: string;
  [key: string]: unknown;
}

interface Shell {
  events: FakeEvent[];
  /** Resolves with the first event of `type` (already seen or to come). */
  waitFor(type: string): Promise<FakeEvent>;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  stderr(): string;
}

let work: string;
let mainBundle: string;

function launch(args: string[], env: Record<string, string> = {}): Shell {
  const child = spawn(
    process.execPath,
    ['-r', join(HERE, 'helpers/register-fake-electron.cjs'), mainBundle, ...args],
    {
      env: { ...process.env, ...ENV, NODE_PATH: join(ROOT, 'node_modules'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const events: FakeEvent[] = [];
  const waiters: { type: string; resolve: (event: FakeEvent) => void }[] = [];
  let buffered = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.startsWith('FAKE '))) {
      const event = JSON.parse(line.slice(5)) as FakeEvent;
      events.push(event);
      for (const waiter of waiters.filter((w) => w.type === event.type)) waiter.resolve(event);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    events,
    exited,
    stderr: () => errors,
    kill: (signal) => child.kill(signal),
    waitFor: (type) =>
      Promise.race([
        new Promise<FakeEvent>((done) => {
          const seen = events.find((event) => event.type === type);
          if (seen) done(seen);
          else waiters.push({ type, resolve: done });
        }),
        exited.then((code) => {
          throw new Error(`the shell exited (${code}) before "${type}": ${errors}`);
        }),
      ]),
  };
}

function listen(port = 0): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listen();
  const address = server.address();
  await new Promise((done) => server.close(done));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

const dir = (name: string) => mkdtempSync(join(work, `${name}-`));

describe('electron/main.ts wiring (fake electron)', { timeout: 60_000 }, () => {
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'kbstudio-shell-'));
    mainBundle = join(work, 'main.cjs');
    // The options of build/build.mjs for the shell.
    await build({
      entryPoints: [join(ROOT, 'electron/main.ts')],
      outfile: mainBundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      external: ['electron'],
      define: { 'import.meta.url': '__kbImportMetaUrl' },
      banner: { js: "const __kbImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
      logLevel: 'error',
    });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('starts the service, opens the editor with its token, and stops cleanly on quit', async () => {
    const [dataDir, userData, port] = [dir('data'), dir('user'), await freePort()];
    const shell = launch(['--data', dataDir, `--port=${port}`, '--user-data-dir', userData]);
    const { url } = (await shell.waitFor('loadURL')) as FakeEvent & { url: string };
    assert.match(url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[\\w-]{20,}$`));
    const page = await fetch(url);
    assert.equal(page.status, 200);

    const { options } = (await shell.waitFor('window')) as FakeEvent & {
      options: { webPreferences: Record<string, unknown> };
    };
    assert.equal(options.webPreferences.sandbox, true);
    assert.equal(options.webPreferences.contextIsolation, true);
    assert.equal(options.webPreferences.nodeIntegration, false);
    assert.match(String(options.webPreferences.preload), /preload\.cjs$/);
    const handled = shell.events.filter((e) => e.type === 'handle').map((e) => e.channel);
    assert.deepEqual(handled.sort(), ['file:open-excel', 'file:save']);
    for (const hook of ['csp', 'permissionRequestHandler', 'permissionCheckHandler'])
      assert.ok(
        shell.events.some((e) => e.type === hook),
        `${hook} is set`,
      );
    const userDataSet = shell.events.find((e) => e.type === 'setPath' && e.name === 'userData');
    assert.equal(userDataSet?.path, userData);

    // The API answers local applications, signed with the credentials of the environment.
    const client = new OpenApiClient({ baseUrl: `http://127.0.0.1:${port}`, ...CREDENTIALS });
    const { tenantId } = await client.registerTenant({
      username: 'desk_admin',
      password: 'secret123',
      phoneNumber: '13800138000',
      mail: 'desk@example.com',
      company: 'Desk',
    });

    shell.kill('SIGTERM');
    assert.equal(await shell.exited, 0, shell.stderr());
    assert.deepEqual(
      shell.events.filter((e) => e.type === 'before-quit').map((e) => e.prevented),
      [true],
    );
    // Stopped cleanly: the data directory is free again and holds the tenant.
    const again = await startService({ dataDir, port: 0, logger: silentLogger, env: ENV });
    try {
      const reopened = new OpenApiClient({ baseUrl: again.url, ...CREDENTIALS });
      assert.equal((await reopened.listRobots(tenantId)).length, 1);
    } finally {
      await again.stop();
    }
  });

  test('a taken port: the dialog offers a free port for the session', async () => {
    const occupier = await listen();
    try {
      const taken = (occupier.address() as { port: number }).port;
      const shell = launch(['--data', dir('data'), '--port', String(taken)], {
        FAKE_APP_DATA: dir('app-data'),
        FAKE_DIALOG_RESPONSE: '0',
      });
      const { options } = (await shell.waitFor('messageBox')) as FakeEvent & {
        options: { message: string; buttons: string[] };
      };
      assert.equal(options.message, `Port ${taken} is already in use.`);
      const { url } = (await shell.waitFor('loadURL')) as FakeEvent & { url: string };
      const port = Number(new URL(url).port);
      assert.notEqual(port, taken);
      assert.equal((await fetch(url)).status, 200);
      shell.kill('SIGTERM');
      assert.equal(await shell.exited, 0);
    } finally {
      occupier.close();
    }
  });

  test('a taken port: choosing Quit exits without opening a window', async () => {
    const occupier = await listen();
    try {
      const taken = (occupier.address() as { port: number }).port;
      const appData = dir('app-data');
      const shell = launch(['--data', dir('data'), '--port', String(taken)], {
        FAKE_APP_DATA: appData,
        FAKE_DIALOG_RESPONSE: '1',
      });
      assert.equal(await shell.exited, 0);
      assert.ok(!shell.events.some((e) => e.type === 'window'));
      // Without --user-data-dir, userData is "<appData>/KB Studio" in development as packaged.
      const userDataSet = shell.events.find((e) => e.type === 'setPath' && e.name === 'userData');
      assert.equal(userDataSet?.path, join(appData, 'KB Studio'));
    } finally {
      occupier.close();
    }
  });

  test('a bad command line is reported and exits non-zero', async () => {
    const shell = launch(['--port', 'eighty'], { FAKE_APP_DATA: dir('app-data') });
    assert.equal(await shell.exited, 1);
    const box = shell.events.find((e) => e.type === 'errorBox');
    assert.match(String(box?.content), /--port must be 0 to 65535, not eighty/);
  });
});
