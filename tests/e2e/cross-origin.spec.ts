/**
 * A web page on another origin calls the API as the hosted platform's browser clients do
 * (issue 13): signing in the page with js-md5, XMLHttpRequest with a JSON body (so Chromium sends
 * a CORS preflight first) and a fixed nonce. The page is served by a second HTTP server on
 * another port; the console API stays out of its reach.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';

const MD5 = readFileSync(
  join(import.meta.dirname, '..', '..', 'node_modules', 'js-md5', 'build', 'md5.min.js'),
  'utf8',
);

/** A page in the style of the platform's published browser client. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>shop</title><script src="/md5.js"></script></head>
<body><p>A shop's help page.</p>
<script>
function signedUrl(cfg, uri, nonce) {
  var timestamp = String(Date.now());
  var text = 'adminkey:' + cfg.adminkey + ',adminsecret:' + cfg.adminsecret +
    ',customerId:' + cfg.customerId + ',nonce:' + nonce + ',robotsecret:' + cfg.robotsecret +
    ',timestamp:' + timestamp + ',uri:' + uri;
  return cfg.base + uri + '?adminkey=' + encodeURIComponent(cfg.adminkey) +
    '&customerId=' + encodeURIComponent(cfg.customerId) + '&nonce=' + nonce +
    '&timestamp=' + timestamp + '&sign=' + md5(text);
}
function call(method, url, headers, body) {
  return new Promise(function (resolve) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (var name in headers) xhr.setRequestHeader(name, headers[name]);
    xhr.onload = function () { resolve({ status: xhr.status, text: xhr.responseText }); };
    xhr.onerror = function () { resolve({ status: 0, text: 'blocked' }); };
    xhr.send(body);
  });
}
window.askJson = function (cfg, question, nonce) {
  var uri = '/v1/openapi/tenants/' + cfg.tenantId + '/robots/' + cfg.robotId + '/robot/ask';
  return call('POST', signedUrl(cfg, uri, nonce), { 'Content-Type': 'application/json' },
    JSON.stringify({ userId: 'web-1', question: question, channel: 'API', questionType: 'TEXT' }));
};
window.askForm = function (cfg, question, nonce) {
  var uri = '/v1/openapi/tenants/' + cfg.tenantId + '/robots/' + cfg.robotId + '/robot/ask';
  return call('POST', signedUrl(cfg, uri, nonce),
    { 'Content-Type': 'application/x-www-form-urlencoded' },
    'userId=web-2&question=' + encodeURIComponent(question) + '&channel=API&questionType=TEXT');
};
window.consoleWorkspace = function (base, token) {
  return call('GET', base + '/console/api/workspace', { Authorization: 'Bearer ' + token }, null);
};
</script></body></html>`;

interface PageAnswer {
  status: number;
  text: string;
}

test.describe('a page on another origin', () => {
  let shop: Server;
  let shopUrl = '';
  test.beforeEach(async () => {
    shop = createServer((req, res) => {
      const js = req.url === '/md5.js';
      res.writeHead(200, {
        'content-type': js ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
      });
      res.end(js ? MD5 : PAGE);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/`;
  });
  test.afterEach(async () => {
    await new Promise((resolve) => shop.close(resolve));
  });

  test('asks with a preflighted JSON XMLHttpRequest and a fixed nonce, and with a form', async ({
    page,
    service,
  }) => {
    const robot = await registerTenant(service);
    await importRules(service, robot, [
      {
        ruleName: 'Returns',
        questions: ['How do I return an item?'],
        answerContentType: 'TEXT',
        answer: 'Within 7 days, from your orders page.',
      },
    ]);
    const cfg = {
      base: service.baseUrl,
      adminkey: E2E_CREDENTIALS.adminKey,
      adminsecret: E2E_CREDENTIALS.adminSecret,
      customerId: E2E_CREDENTIALS.customerId,
      tenantId: robot.tenantId,
      robotId: robot.robotId,
      robotsecret: robot.robotSecret,
    };
    // Chromium reports CORS preflights to the DevTools protocol as requests of their own.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const preflights = new Map<string, { url: string; status?: number; origin?: string }>();
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.method === 'OPTIONS')
        preflights.set(event.requestId, { url: event.request.url });
    });
    cdp.on('Network.responseReceived', (event) => {
      const seen = preflights.get(event.requestId);
      if (seen) {
        seen.status = event.response.status;
        seen.origin = event.response.headers['access-control-allow-origin'];
      }
    });
    await page.goto(shopUrl);
    expect(new URL(page.url()).origin).not.toBe(new URL(service.baseUrl).origin);

    for (let i = 0; i < 2; i++) {
      const answer = await page.evaluate<PageAnswer, [typeof cfg, string, string]>(
        ([config, question, nonce]) =>
          (globalThis as unknown as { askJson: (...a: unknown[]) => Promise<PageAnswer> }).askJson(
            config,
            question,
            nonce,
          ),
        [cfg, 'How do I return an item?', '123456'],
      );
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({
        code: '0',
        data: { answerType: 'BESTMATCH', answer: 'Within 7 days, from your orders page.' },
      });
      await page.waitForTimeout(2); // a fresh millisecond: the nonce stays, the timestamp moves
    }

    const form = await page.evaluate<PageAnswer, [typeof cfg, string, string]>(
      ([config, question, nonce]) =>
        (globalThis as unknown as { askForm: (...a: unknown[]) => Promise<PageAnswer> }).askForm(
          config,
          question,
          nonce,
        ),
      [cfg, 'How do I return an item?', '123456'],
    );
    expect(form.status, form.text).toBe(200);
    expect(JSON.parse(form.text)).toMatchObject({ code: '0', data: { module: 'KB' } });

    // The console API is same-origin only: the browser withholds its answer from this page.
    const consoleAnswer = await page.evaluate<PageAnswer, [string, string]>(
      ([base, token]) =>
        (
          globalThis as unknown as { consoleWorkspace: (...a: unknown[]) => Promise<PageAnswer> }
        ).consoleWorkspace(base, token),
      [service.baseUrl, service.token],
    );
    expect(consoleAnswer).toEqual({ status: 0, text: 'blocked' });
    // The JSON asks went through a preflight (a cross-origin POST of application/json is never
    // "simple"), answered 204 for any origin.
    const answered = [...preflights.values()].filter((p) => p.url.includes('/robot/ask'));
    expect(answered.length, JSON.stringify([...preflights.values()])).toBeGreaterThan(0);
    for (const preflight of answered) expect(preflight).toMatchObject({ status: 204, origin: '*' });
  });
});
