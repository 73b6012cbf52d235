/**
 * What the framework and Node's HTTP parser refuse leaves in the contract's envelope with its own
 * status, never a 500, and is logged as one line without a stack (issue 12, point 5): invalid
 * Content-Types on every body route (a seeded fuzz loop), a path that is not valid
 * percent-encoding, an over-long path parameter, headers too large, a request that is not HTTP.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { Logger } from '../../electron/service/logger';
import { prng } from '../helpers/prng';
import { registerTenantWithRobot, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

interface Answer {
  status: number;
  body: { code?: unknown; msg?: unknown; data?: unknown };
}

/** One request with exactly these headers (node:http sends header values as latin1 bytes). */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload = '',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
        } catch {
          reject(new Error(`not JSON (${res.statusCode}): ${text.slice(0, 200)}`));
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Raw bytes on a socket; the answer's status line and body. */
function sendRaw(port: number, bytes: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, body: JSON.parse(body) });
      } catch {
        reject(new Error(`not JSON (${status}): ${text.slice(0, 300)}`));
      }
    });
    socket.end(bytes);
  });
}

function assertEnvelope(answer: Answer, what: string): void {
  assert.ok(answer.status < 500, `${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  assert.equal(typeof answer.body.code, 'string', what);
  assert.ok('data' in answer.body, what);
  // A success (a valid body whatever its label) is the envelope too.
  if (answer.body.code === '0') return;
  assert.equal(typeof answer.body.msg, 'string', what);
  assert.equal(answer.body.data, null, what);
}

const PIECES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=x',
  ';',
  '',
  ' ',
  'a/b/c',
  'ÿ',
  '/',
  'application/',
  '/json',
  '*/*',
  'application/json;',
  'application/json; charset=',
  'charset=utf-8',
  '"',
  '=',
  ',',
  '\t',
  'application/json; charset="utf-8',
  'x'.repeat(300),
  'é',
  '\u00a0',
];

function fuzzedContentType(next: () => number): string {
  const parts = 1 + Math.floor(next() * 3);
  let value = '';
  for (let i = 0; i < parts; i++) value += PIECES[Math.floor(next() * PIECES.length)];
  // Header values cannot hold line breaks or NUL; every other byte is fair.
  if (next() < 0.3) value += String.fromCharCode(0x20 + Math.floor(next() * 0xdf));
  return value.trim() === '' && next() < 0.5 ? '' : value;
}

describe('framework refusals in the envelope', () => {
  let h: TestService;
  let robot: RobotClient;
  const lines: { level: string; message: string; cause: unknown }[] = [];
  const logger: Logger = {
    info: (message) => lines.push({ level: 'info', message, cause: undefined }),
    warn: (message) => lines.push({ level: 'warn', message, cause: undefined }),
    error: (message, cause) => lines.push({ level: 'error', message, cause }),
  };
  before(async () => {
    h = await startTestService({ logger });
    ({ robot } = await registerTenantWithRobot(h.client));
  });
  after(() => h.close());

  const bodyRoutes = (): [string, string, 1 | 2][] => [
    ['POST', '/v1/openapi/register/init', 1],
    ['POST', `/v1/openapi/tenants/${robot.tenantId}/users`, 1],
    ['PUT', `/v1/openapi/tenants/${robot.tenantId}/users/nobody`, 1],
    ['POST', `/v1/openapi/tenants/${robot.tenantId}/robots`, 1],
    ['POST', `${robot.basePath}/kb/rules/full/batch`, 2],
    ['POST', `${robot.basePath}/robot/ask`, 2],
    ['POST', `/console/api/tenants/${robot.tenantId}/robots/default/try`, 1],
  ];

  const signedPath = (path: string, method: 1 | 2) => {
    const url = h.client.signedUrl(path, { signMethod: method, robotSecret: robot.robotSecret });
    return url.slice(url.indexOf('/v1/'));
  };

  for (const contentType of [';', '', 'a/b/c', 'ÿ']) {
    test(`Content-Type ${JSON.stringify(contentType)} on every body route: never a 500`, async () => {
      for (const [method, path, signMethod] of bodyRoutes()) {
        for (const target of [
          path,
          path.startsWith('/v1/') ? signedPath(path, signMethod) : path,
        ]) {
          const answer = await send(
            h.service.url,
            method,
            target,
            { 'content-type': contentType },
            '{}',
          );
          assertEnvelope(answer, `${method} ${path} ${JSON.stringify(contentType)}`);
        }
      }
    });
  }

  test('an invalid media type is a 415 bad-content-type, before authentication', async () => {
    const answer = await send(
      h.service.url,
      'POST',
      '/v1/openapi/register/init',
      {
        'content-type': 'a/b/c',
      },
      '{}',
    );
    assert.equal(answer.status, 415);
    assert.equal(answer.body.code, 'bad-content-type');
    assert.match(String(answer.body.msg), /send Content-Type: application\/json/);
  });

  test('fuzzed Content-Types (seeded) on every body route: never a 5xx, always the envelope', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20_251_122);
    const next = prng(seed);
    const payloads = ['{}', '', 'a=1&b=2', '{"userId":"u"', '[]', 'null', '\u0000'];
    for (let i = 0; i < 300; i++) {
      const routes = bodyRoutes();
      const [method, path, signMethod] = routes[Math.floor(next() * routes.length)] ?? routes[0]!;
      const signed = next() < 0.5 && path.startsWith('/v1/');
      const contentType = fuzzedContentType(next);
      const payload = payloads[Math.floor(next() * payloads.length)] ?? '';
      const target = signed ? signedPath(path, signMethod) : path;
      const answer = await send(
        h.service.url,
        method,
        target,
        { 'content-type': contentType },
        payload,
      );
      assertEnvelope(
        answer,
        `seed ${seed} #${i}: ${method} ${path} ${JSON.stringify(contentType)}`,
      );
    }
  });

  test('a path that is not valid percent-encoding is a 400 malformed-url', async () => {
    for (const path of [
      '/%',
      '/v1/openapi/tenants/%zz/robots',
      `/v1/openapi/tenants/1/robots/%FF/robot/ask`,
    ]) {
      const answer = await send(h.service.url, 'GET', path, {});
      assert.equal(answer.status, 400, path);
      assert.equal(answer.body.code, 'malformed-url', path);
      assertEnvelope(answer, path);
    }
  });

  test("a refused URL is logged without its query string's values (the editor token travels in one)", async () => {
    const secret = 'per-launch-secret-4f1c';
    const answer = await send(h.service.url, 'GET', `/%zz?token=${secret}&x=2`, {});
    assert.equal(answer.body.code, 'malformed-url');
    const line = lines.find((l) => l.message.includes('GET /%zz?'));
    assert.ok(line, 'a line for the refused URL');
    assert.match(line.message, /\/%zz\?token=…&x=…/);
    assert.ok(!lines.some((l) => l.message.includes(secret)), line.message);
  });

  test('a path parameter over 100 characters is a 414 path-param-too-long', async () => {
    const answer = await send(
      h.service.url,
      'GET',
      `/v1/openapi/tenants/1/robots/${'r'.repeat(101)}/kb/rules`,
      {},
    );
    assert.equal(answer.status, 414);
    assert.equal(answer.body.code, 'path-param-too-long');
  });

  test('headers over the limit are a 431 headers-too-large', async () => {
    const answer = await sendRaw(
      h.service.port,
      `GET /v1/openapi/register/init HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(answer.status, 431);
    assert.deepEqual(Object.keys(answer.body as object).sort(), ['code', 'data', 'msg']);
    assert.equal((answer.body as { code: string }).code, 'headers-too-large');
  });

  test('bytes that are not HTTP are a 400 malformed-request', async () => {
    const answer = await sendRaw(h.service.port, 'HELLO THERE\r\n\r\n');
    assert.equal(answer.status, 400);
    assert.equal((answer.body as { code: string }).code, 'malformed-request');
  });

  test('refusals are logged as one line each, without a stack; nothing as a fault', async () => {
    assert.equal(
      lines.filter((l) => l.level === 'error').length,
      0,
      JSON.stringify(lines.filter((l) => l.level === 'error')),
    );
    const refusals = lines.filter((l) => l.level === 'warn' && l.message.startsWith('refused'));
    const codes = new Set(refusals.map((l) => /: \d{3} ([a-z-]+)/.exec(l.message)?.[1]));
    for (const code of [
      'bad-content-type',
      'malformed-url',
      'path-param-too-long',
      'headers-too-large',
      'malformed-request',
    ]) {
      assert.ok(codes.has(code), `a line for ${code}`);
    }
    for (const line of refusals) {
      assert.equal(line.cause, undefined);
      assert.ok(!line.message.includes('\n'), line.message);
    }
  });
});
