/**
 * A robot bundle's upload (http/bundle-upload.ts): checked as it arrives, so that a bad bundle is
 * refused as soon as its fault arrives (not once the whole upload is in, which at 116 MB under
 * load was cut at 60 s with a 408 instead); a valid upload slower than the whole-request
 * deadline is not cut by it; an invalid bundle whose fault is at its end gets its 400 envelope
 * with the process's memory kept within twice the bundle. Runs on both stores.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import type { RobotImportResult } from '../../electron/service/robot-bundle-types';
import { bundleRule } from '../helpers/bundles';
import { registerTenantWithRobot, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

interface Answer {
  status: number;
  body: { code: string; msg: string | null; data: unknown };
}

/** The bundle's text before its rules, and after them. */
const HEAD =
  '{"format":"kb-studio-robot","version":1,"robot":{"name":"Uploaded","settings":{}},"categories":[],"testCases":[],"rules":[';
const TAIL = ']}';

const ruleText = (i: number) =>
  JSON.stringify(
    bundleRule(`up-${i}`, `upload rule ${i}`, { answer: `answer ${i} `.padEnd(200, 'x') }),
  );

/**
 * Sends `parts` as the body of an import (announcing `length` bytes), stopping as soon as the
 * service answers; resolves with the answer.
 */
function upload(
  h: TestService,
  tenantId: number,
  parts: AsyncIterable<string>,
  length: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const url = new URL(`${h.service.url}/console/api/tenants/${tenantId}/robots/import`);
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.service.consoleToken}`,
        'content-type': 'application/json',
        'content-length': String(length),
      },
    });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
        } catch (error) {
          reject(new Error(`${res.statusCode}: ${text} (${String(error)})`));
        }
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for await (const part of parts) {
        if (answered || req.destroyed) return;
        if (!req.write(part)) await new Promise((drained) => req.once('drain', drained));
      }
      if (!answered) req.end();
    })();
  });
}

/** The rules `from` to `to` (excluded), each followed by a comma, a few at a time. */
async function* rulesText(from: number, to: number): AsyncGenerator<string> {
  for (let at = from; at < to; at += 50) {
    let text = '';
    for (let i = at; i < Math.min(to, at + 50); i++) text += `${ruleText(i)},`;
    yield text;
  }
}

const bytes = (text: string) => Buffer.byteLength(text);

setFlagsFromString('--expose-gc');
/** A full collection, so that what is measured after is what is kept, not garbage. */
const gc = runInNewContext('gc') as () => void;
/** The JavaScript heap and the buffers outside it. */
const held = () => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/**
 * `rules` rules and a last one repeating the id of the 8th, made and sent by a child process as
 * they are made (so that the memory this process grows by is the service's alone); its answer.
 */
async function uploadFromChild(h: TestService, tenantId: number, rules: number) {
  const script = `
    const http = require('node:http');
    const [url, token, count, head, tail] = process.argv.slice(1);
    const rule = (i, id) => JSON.stringify({ ruleId: id ?? 'up-' + i, ruleName: 'upload rule ' + i,
      questions: ['upload rule ' + i + '?'], answer: ('answer ' + i + ' ').padEnd(200, 'x'),
      categoryName: null, active: true, allowSimGen: null, effectBeignDate: null,
      effectEndDate: null, matchPolicy: 'similarity', negativeKeywords: [], menu: null });
    const n = Number(count);
    const part = (i) => i < n ? rule(i) + ',' : rule(i, 'up-7') + tail;
    let length = Buffer.byteLength(head);
    for (let i = 0; i <= n; i++) length += Buffer.byteLength(part(i));
    const req = http.request(url, { method: 'POST', headers: { authorization: 'Bearer ' + token,
      'content-type': 'application/json', 'content-length': length } });
    req.on('response', (res) => { let text = ''; res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => { process.stdout.write(JSON.stringify({ length, status: res.statusCode, body: JSON.parse(text) })); process.exit(0); }); });
    req.on('error', () => {});
    (async () => { req.write(head);
      for (let i = 0; i <= n; i++) if (!req.write(part(i))) await new Promise((r) => req.once('drain', r));
      req.end(); })();`;
  const child = spawn(
    process.execPath,
    [
      '-e',
      script,
      `${h.service.url}/console/api/tenants/${tenantId}/robots/import`,
      h.service.consoleToken,
      String(rules),
      HEAD,
      TAIL,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  await once(child, 'close');
  return JSON.parse(out) as { length: number; status: number; body: Answer['body'] };
}

describe('a robot bundle upload', () => {
  let h: TestService;
  let tenantId: number;
  before(async () => {
    h = await startTestService({
      connectionLimits: { headersTimeoutMs: 1000, requestTimeoutMs: 1500 },
      // No snapshot in the background: its worker's 70-100 MB (decision 195) would be counted
      // in the memory test's peak.
      snapshotIdleMs: 3_600_000,
    });
    tenantId = (await registerTenantWithRobot(h.client)).tenantId;
  });
  after(async () => {
    await h.close();
  });

  test('a bad rule is refused as soon as it arrives, the rest of the upload never sent', async () => {
    const bad = JSON.stringify({ ...JSON.parse(ruleText(100)), answer: 42 });
    // The upload announces 50 MB and stalls after its bad rule: only a check of what arrives
    // can answer (before, the check began once the whole body was in: a 408 here).
    let stalled = () => undefined as void;
    const stall = new Promise<void>((resolve) => (stalled = resolve));
    const parts = (async function* () {
      yield HEAD;
      yield* rulesText(0, 100);
      yield `${bad},`;
      await stall;
    })();
    const answer = await upload(h, tenantId, parts, 50 * 1024 * 1024);
    stalled();
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'invalid-field');
    assert.match(JSON.stringify(answer.body.data), /rules\[100\]\.answer/);
    // Nothing was made (robot-copy.spec.ts checks that for every fault).
  });

  test('a valid upload slower than the whole-request deadline is read to its end and imported', async () => {
    const first = HEAD + [...Array(200).keys()].map(ruleText).join(',');
    const second = `,${[...Array(200).keys()].map((i) => ruleText(200 + i)).join(',')}${TAIL}`;
    const parts = (async function* () {
      yield first;
      // Longer than the deadline (1.5 s, checked every 250 ms): a route with the deadline is
      // cut meanwhile (slow-clients.spec.ts); this one is not.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      yield second;
    })();
    const answer = await upload(h, tenantId, parts, bytes(first) + bytes(second));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal((answer.body.data as RobotImportResult).rules, 400);
  });

  test('an invalid bundle whose fault is at its end gets its 400, the memory kept within twice the bundle', async () => {
    const rules = 40_000;
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    const peaks: string[] = [];
    // The peak counts garbage not yet collected (2.0-2.4x here on a quiet machine, the check
    // alone 0.5-1.3x): under CI's load a late collection once reached 4.1x. So the lower peak of
    // up to two uploads is bounded; a service holding the body whole fails both.
    for (let attempt = 1; attempt <= 2; attempt++) {
      gc();
      const heldBefore = held();
      const before = process.memoryUsage.rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
      let sent: { length: number; status: number; body: Answer['body'] };
      try {
        sent = await uploadFromChild(h, tenantId, rules);
      } finally {
        clearInterval(sampler);
      }
      assert.equal(sent.status, 400, JSON.stringify(sent.body));
      assert.equal(sent.body.code, 'invalid-field');
      assert.match(JSON.stringify(sent.body.data), new RegExp(`rules\\[${rules}\\]\\.ruleId`));
      // What is kept after: no copy of the bundle (its temporary file is removed, its chunks let go).
      gc();
      const kept = held() - heldBefore;
      const figures = `RSS peak +${mb(peak - before)}, heap kept +${mb(kept)}, bundle ${mb(sent.length)}`;
      assert.ok(kept <= sent.length / 2, figures);
      peaks.push(figures);
      if (peak - before <= 3 * sent.length) return;
    }
    assert.fail(`the RSS peak passed 3x the bundle in both uploads: ${peaks.join('; ')}`);
  });
});
