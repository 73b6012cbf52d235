/**
 * What a load balancer and a monitoring system ask a node (docs/team-server.md, "Health checks
 * and metrics"): `/healthz` and `/readyz` unauthenticated, `/metrics` in the Prometheus text
 * format, off on the embedded store unless asked for, loopback-only unless opened, with labels
 * that name no tenant or robot.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';
import { onPostgres } from '../helpers/test-store';

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** The value of one series in a Prometheus text page (undefined: not there). */
function seriesValue(page: string, series: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health and readiness', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  test('/healthz and /readyz answer without any credentials', async () => {
    const alive = await get(`${h.service.url}/healthz`);
    assert.equal(alive.status, 200);
    assert.deepEqual(JSON.parse(alive.text), { status: 'ok' });
    const ready = await get(`${h.service.url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(JSON.parse(ready.text), { status: 'ready' });
  });

  test('the metrics are off on the embedded store unless asked for (loopback on a team server)', async () => {
    const metrics = await get(`${h.service.url}/metrics`);
    assert.equal(metrics.status, onPostgres ? 200 : 404);
  });
});

describe('metrics, loopback only', () => {
  let h: TestService;
  let robot: RobotClient;
  let tenantId: number;
  before(async () => {
    h = await startTestService({ metrics: 'loopback' });
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    await robot.send('POST', '/kb/rules/full/batch', {
      body: [ruleInput('reset', ['how do I reset my password'])],
    });
  });
  after(() => h.close());

  test('asks are counted by outcome and timed, imports too, with no tenant in any label', async () => {
    const before = await get(`${h.service.url}/metrics`);
    assert.equal(before.status, 200);
    assert.match(before.type, /^text\/plain; version=0\.0\.4/);
    const matched = (page: string) => seriesValue(page, 'kb_asks_total{outcome="bestmatch"}') ?? 0;
    const unmatched = (page: string) => seriesValue(page, 'kb_asks_total{outcome="fallback"}') ?? 0;
    await robot.ask('how do I reset my password');
    await robot.ask('how do I reset my password');
    await robot.ask('zzqx wvvk plof');
    const page = (await get(`${h.service.url}/metrics`)).text;
    assert.equal(matched(page) - matched(before.text), 2);
    assert.equal(unmatched(page) - unmatched(before.text), 1);
    assert.ok((seriesValue(page, 'kb_ask_duration_seconds_count') ?? 0) >= 3);
    assert.ok(
      (seriesValue(page, 'kb_imports_total{kind="rules-batch",status="2xx"}') ?? 0) >= 1,
      'the batch import is counted',
    );
    assert.equal(seriesValue(page, 'kb_question_log_write_failures'), 0);
    assert.ok((seriesValue(page, 'kb_http_connections') ?? -1) >= 0);
    if (onPostgres) {
      assert.ok((seriesValue(page, 'kb_db_pool_connections{state="max"}') ?? 0) > 0);
      assert.notEqual(seriesValue(page, 'kb_change_feed_lag_seconds'), undefined);
    }
    // Routes by their pattern: the series stay bounded however many tenants and robots.
    assert.match(page, /route="\/v1\/openapi\/tenants\/:tenantId\//);
    for (const label of page.matchAll(/\{([^}]*)\}/g)) {
      assert.equal(label[1]?.includes(`/tenants/${tenantId}/`), false, label[0]);
    }
  });

  test('a request forwarded by a proxy is refused, as is one from another machine', async () => {
    const forwarded = await get(`${h.service.url}/metrics`, { 'X-Forwarded-For': '203.0.113.9' });
    assert.equal(forwarded.status, 403);
    assert.equal(JSON.parse(forwarded.text).code, 'loopback-only');
    // The health routes stay open to it.
    const ready = await get(`${h.service.url}/readyz`, { 'X-Forwarded-For': '203.0.113.9' });
    assert.equal(ready.status, 200);
  });
});

describe('metrics, open to any client', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ metrics: 'on' });
  });
  after(() => h.close());

  test('a forwarded request reads them', async () => {
    const page = await get(`${h.service.url}/metrics`, { 'X-Forwarded-For': '203.0.113.9' });
    assert.equal(page.status, 200);
    assert.match(page.text, /^# HELP kb_asks_total /m);
  });
});

describe('metrics off', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ metrics: 'off' });
  });
  after(() => h.close());

  test('/metrics is no route, and the health routes stay', async () => {
    const metrics = await get(`${h.service.url}/metrics`);
    assert.equal(metrics.status, 404);
    assert.equal(JSON.parse(metrics.text).code, 'route-not-found');
    assert.equal((await get(`${h.service.url}/healthz`)).status, 200);
  });
});
