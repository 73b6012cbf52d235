import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DEFAULT_PORT,
  isAddressInUse,
  portTakenMessage,
  resolvePort,
} from '../../../electron/desktop/port';
import { startOnPort } from '../../../electron/desktop/port';
import { DEFAULT_API_PORT } from '../../../electron/service/defaults';
import { startService } from '../../../electron/service/index';
import type { KbService } from '../../../electron/service/index';
import { silentLogger } from '../../../electron/service/logger';

describe('resolvePort', () => {
  test('the default is 8787, the port of `npm run serve`', () => {
    assert.deepEqual(resolvePort({}), { port: 8787, source: 'default' });
    assert.equal(DEFAULT_PORT, DEFAULT_API_PORT);
  });

  test('the preference replaces the default; --port replaces both', () => {
    assert.deepEqual(resolvePort({ preference: 9001 }), { port: 9001, source: 'preferences' });
    assert.deepEqual(resolvePort({ flag: 0, preference: 9001 }), { port: 0, source: 'flag' });
  });

  test('the taken-port dialog names the port and offers a free port or quitting', () => {
    const text = portTakenMessage(8787, '127.0.0.1');
    assert.equal(text.message, 'Port 8787 is already in use.');
    assert.match(text.detail, /127\.0\.0\.1:8787/);
    assert.deepEqual(text.buttons, ['Use a free port this time', 'Quit']);
  });
});

describe('startOnPort with the real service and a real server on the port', () => {
  let work: string;
  let occupier: Server;
  let taken: number;
  const started: KbService[] = [];
  const start = async (port: number) => {
    const service = await startService({
      dataDir: mkdtempSync(join(work, 'data-')),
      port,
      logger: silentLogger,
    });
    started.push(service);
    return service;
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'kbstudio-port-'));
    occupier = createServer();
    await new Promise<void>((done) => occupier.listen(0, '127.0.0.1', done));
    taken = (occupier.address() as { port: number }).port;
  });
  after(async () => {
    for (const service of started) await service.stop();
    occupier.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('a free port is used as asked, without asking anything', async () => {
    const asked: number[] = [];
    const result = await startOnPort(start, 0, async (port) => (asked.push(port), 'quit'));
    assert.ok(result);
    assert.equal(result.fallback, false);
    assert.deepEqual(asked, []);
  });

  test('a taken port: asked once, then a free port for the session', async () => {
    const asked: number[] = [];
    const result = await startOnPort(start, taken, async (port) => {
      asked.push(port);
      return 'other-port';
    });
    assert.deepEqual(asked, [taken]);
    assert.ok(result);
    assert.equal(result.fallback, true);
    assert.notEqual(result.value.port, taken);
    assert.equal((await fetch(`${result.value.url}/`)).status, 200);
  });

  test('a taken port: Quit gives up, and the data directory is released', async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const once = (port: number) => startService({ dataDir, port, logger: silentLogger });
    assert.equal(await startOnPort(once, taken, async () => 'quit'), null);
    const service = await once(0); // the failed start closed its store and lock
    await service.stop();
  });

  test('other failures are not mistaken for a taken port', async () => {
    const failing = async () => {
      throw Object.assign(new Error('no access'), { code: 'EACCES' });
    };
    await assert.rejects(
      startOnPort(failing, 80, async () => 'other-port'),
      /no access/,
    );
    assert.equal(isAddressInUse({ code: 'EADDRINUSE' }), true);
    assert.equal(isAddressInUse(new Error('EADDRINUSE')), false);
  });
});
