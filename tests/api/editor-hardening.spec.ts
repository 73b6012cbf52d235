/**
 * Defence in depth for the editor served over HTTP: its pages and the console API answer only to
 * the service's own host names (DNS rebinding), its pages carry a CSP, X-Frame-Options and
 * Referrer-Policy, and no source map is built or served. The openapi routes stay open to any
 * Host.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeDataDir, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET to the service with the `Host` header a browser would send for `host`. */
function get(port: number, path: string, host: string, token?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A built editor of three files, one of them a source map. */
function fakeEditor(): string {
  const dir = makeDataDir('editor');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>KB Studio</title>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1);');
  writeFileSync(join(dir, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["secret.ts"]}');
  return dir;
}

describe('the editor over HTTP', () => {
  let h: TestService;
  let editorDir: string;
  let port: number;
  before(async () => {
    editorDir = fakeEditor();
    h = await startTestService({ editorDir });
    port = h.service.port;
  });
  after(async () => {
    await h.close();
    rmSync(editorDir, { recursive: true, force: true });
  });

  test('editor and console answer only to the service own host names', async () => {
    const token = h.service.consoleToken;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'LOCALHOST',
      `[::1]:${port}`,
      'localhost.',
    ]) {
      assert.equal((await get(port, '/', host)).status, 200, host);
      assert.equal((await get(port, '/console/api/workspace', host, token)).status, 200, host);
    }
    for (const host of [
      `evil.example:${port}`,
      'evil.example',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      `[::2]:${port}`,
    ]) {
      for (const path of ['/', '/index.html', '/assets/index-abc.js', '/console/api/workspace']) {
        const answer = await get(port, path, host, token);
        assert.equal(answer.status, 403, `${host} ${path}`);
        const body = JSON.parse(answer.body) as { code: string; msg: string; data: null };
        assert.equal(body.code, 'host-not-allowed');
        assert.match(body.msg, /own addresses/);
        assert.equal(body.data, null);
      }
    }
  });

  test('a team server answers to the public names it is given, and to no other', async () => {
    const team = await startTestService({ editorDir, publicHosts: ['kb.example.com'] });
    try {
      const teamPort = team.service.port;
      const teamToken = team.service.consoleToken;
      for (const host of ['kb.example.com', 'KB.example.com.:443', `127.0.0.1:${teamPort}`]) {
        assert.equal((await get(teamPort, '/', host)).status, 200, host);
        const console = await get(teamPort, '/console/api/workspace', host, teamToken);
        assert.equal(console.status, 200, host);
      }
      const other = await get(teamPort, '/console/api/workspace', 'evil.example', teamToken);
      assert.equal(other.status, 403);
      assert.match(other.body, /--public-host/);
      // Without the option, the same name is refused.
      assert.equal((await get(port, '/', 'kb.example.com')).status, 403);
    } finally {
      await team.close();
    }
  });

  test('the openapi routes stay open to any Host', async () => {
    const answer = await get(port, '/v1/openapi/tenants/1/robots', 'evil.example');
    assert.equal(answer.status, 401);
    assert.equal((JSON.parse(answer.body) as { code: string }).code, 'missing-auth-param');
  });

  test('editor pages carry a CSP, X-Frame-Options, Referrer-Policy and nosniff', async () => {
    for (const path of ['/', '/index.html', '/assets/index-abc.js']) {
      const { headers } = await get(port, path, `127.0.0.1:${port}`);
      const csp = String(headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
      ]) {
        assert.ok(csp.includes(directive), `${path}: ${directive} in ${csp}`);
      }
      // The field checks are compiled at build time (build/field-validators.ts): no eval.
      assert.ok(!csp.includes('unsafe-eval'), `${path}: no 'unsafe-eval' in ${csp}`);
      assert.ok(!/script-src[^;]*unsafe-inline/.test(csp), 'no inline script');
      assert.equal(headers['x-frame-options'], 'DENY', path);
      assert.equal(headers['referrer-policy'], 'no-referrer', path);
      assert.equal(headers['x-content-type-options'], 'nosniff', path);
    }
  });

  test('source maps are not served', async () => {
    const map = await get(port, '/assets/index-abc.js.map', `127.0.0.1:${port}`);
    assert.equal(map.status, 404);
    assert.ok(!map.body.includes('secret.ts'));
  });

  test('the build has no source maps to serve', () => {
    const built = join(import.meta.dirname, '..', '..', 'dist', 'renderer');
    // test:api builds first; a bare run of this file without a build checks nothing here.
    if (!existsSync(built)) return;
    const files = readdirSync(built, { recursive: true, encoding: 'utf8' });
    assert.deepEqual(
      files.filter((name) => name.endsWith('.map')),
      [],
    );
    for (const name of files.filter((file) => /\.(js|css)$/.test(file))) {
      assert.ok(!readFileSync(join(built, name), 'utf8').includes('sourceMappingURL'), name);
    }
  });

  test('without a build, the notice page is guarded the same way', async () => {
    const bare = await startTestService({ editorDir: null });
    try {
      const page = await get(bare.service.port, '/', 'localhost');
      assert.equal(page.status, 200);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.equal((await get(bare.service.port, '/', 'evil.example')).status, 403);
    } finally {
      await bare.close();
    }
  });
});
