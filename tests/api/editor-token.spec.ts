/**
 * The editor's token (auth/editor-token.ts): kept in the data directory (mode 0600), so the
 * editor's address keeps working across restarts, replaced on demand (`POST
 * /console/api/editor-token`), and still refused from other hosts and other origins. On both
 * stores: the token file is the node's own, whatever the store.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EditorTokenResult } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const TOKEN_FILE = 'editor-token';

/** A console call as a browser page on `origin` (reached as `host`) would send it. */
function consoleCall(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path: `/console/api${path}`, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the editor token', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  test('the same address works after a restart; the token is kept with mode 0600', async () => {
    const token = h.service.consoleToken;
    assert.match(token, /^[\w-]{43,}$/);
    const path = join(h.dataDir, TOKEN_FILE);
    assert.equal(readFileSync(path, 'utf8').trim(), token);
    if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);

    await h.restart();
    assert.equal(h.service.consoleToken, token, 'the same token after a restart');
    assert.equal(h.service.editorUrl, `${h.service.url}/?token=${token}`);
    const answer = await consoleClient(h.service.url, token).call('GET', '/workspace');
    assert.equal(answer.status, 200, 'a tab opened before the restart keeps working');
  });

  test('still refused from other hosts and other origins', async () => {
    const { port } = h.service;
    const token = h.service.consoleToken;
    const auth = { authorization: `Bearer ${token}` };
    const own = await consoleCall(port, 'GET', '/workspace', {
      host: `127.0.0.1:${port}`,
      ...auth,
    });
    assert.equal(own.status, 200);
    // DNS rebinding: the right token under another host name.
    const rebound = await consoleCall(port, 'GET', '/workspace', { host: 'evil.example', ...auth });
    assert.equal(rebound.status, 403);
    // Another origin's page: no CORS for the console, so a browser neither sends the token
    // (its preflight is refused) nor lets the page read an answer.
    const origin = 'https://evil.example';
    const preflight = await consoleCall(port, 'OPTIONS', '/workspace', {
      host: `127.0.0.1:${port}`,
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    });
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    assert.equal(preflight.headers['access-control-allow-headers'], undefined);
    const read = await consoleCall(port, 'GET', '/workspace', {
      host: `127.0.0.1:${port}`,
      origin,
      ...auth,
    });
    assert.equal(read.headers['access-control-allow-origin'], undefined);
  });

  test('replaced on demand: the old one refused at once and after a restart', async () => {
    const old = h.service.consoleToken;
    const rotated = await consoleClient(h.service.url, old).ok<EditorTokenResult>(
      'POST',
      '/editor-token',
    );
    assert.notEqual(rotated.token, old);
    assert.match(rotated.token, /^[\w-]{43,}$/);
    assert.equal(h.service.consoleToken, rotated.token);
    const refused = await consoleClient(h.service.url, old).call('GET', '/workspace');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'bad-console-token');
    assert.equal(
      (await consoleClient(h.service.url, rotated.token).call('GET', '/workspace')).status,
      200,
    );

    await h.restart();
    assert.equal(h.service.consoleToken, rotated.token, 'the new token is kept');
    assert.equal((await consoleClient(h.service.url, old).call('GET', '/workspace')).status, 401);
    // Only with the token in force.
    const anonymous = await consoleClient(h.service.url, 'nope').call('POST', '/editor-token');
    assert.equal(anonymous.status, 401);
    assert.equal(h.service.consoleToken, rotated.token);
  });

  test('a token file that holds no token is replaced at start', async () => {
    const path = join(h.dataDir, TOKEN_FILE);
    const before = h.service.consoleToken;
    await h.service.stop();
    writeFileSync(path, 'not a token\n', { mode: 0o644 });
    await h.restart(); // its stop is the one above, already done
    const token = h.service.consoleToken;
    assert.notEqual(token, before);
    assert.equal(readFileSync(path, 'utf8').trim(), token);
    if (process.platform !== 'win32') assert.equal(statSync(path).mode & 0o777, 0o600);
  });
});

describe('a team server', () => {
  test('keeps no editor token and has no route to replace one', async () => {
    const team = await startTestService({ signIn: true });
    try {
      const answer = await consoleClient(team.service.url, team.service.consoleToken).call(
        'POST',
        '/editor-token',
      );
      assert.notEqual(answer.status, 200);
      assert.throws(() => statSync(join(team.dataDir, TOKEN_FILE)), /ENOENT/);
    } finally {
      await team.close();
    }
  });
});
