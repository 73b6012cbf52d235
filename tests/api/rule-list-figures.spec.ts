/**
 * The rules list sorted by the question log's figures (hits, last hit) and filtered to the
 * rules of the collision check, over real HTTP: order, ties, paging, and the rows' figures.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRule, RobotCollisions, RulePage } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const RULES = [
  ruleInput('alpha', ['How do I reset my password']),
  ruleInput('bravo', ['What are your opening hours']),
  ruleInput('charlie', ['How long does delivery take']),
  ruleInput('delta', ['Can I pay with a credit card']),
  ruleInput('echo', ['Where is my nearest branch']),
  ruleInput('foxtrot', ['How do I close my account']),
];
const QUESTION = Object.fromEntries(RULES.map((rule) => [rule.ruleName, rule.questions[0]]));

type Api = ReturnType<typeof consoleClient>;

const names = (page: RulePage) => page.rows.map((row) => row.ruleName);

describe('rules list by hits and last hit (console API over HTTP)', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: Api;
  let robot: RobotClient;
  let R: string;
  const at: Record<string, number> = {};

  before(async () => {
    h = await startTestService({ now: () => clock.now });
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    assert.equal((await robot.importRules(RULES)).succeed.length, RULES.length);
    // hits: bravo 3, alpha 2, charlie 2, delta 1, echo and foxtrot never.
    // last hit: bravo first, then alpha, delta, charlie.
    for (const [name, times] of [
      ['bravo', 3],
      ['alpha', 2],
      ['delta', 1],
      ['charlie', 2],
    ] as const) {
      for (let i = 0; i < times; i += 1) {
        clock.now += 60_000;
        const answer = await robot.ask(QUESTION[name] ?? '', `user-${name}`);
        assert.equal(answer.answerType, 'BESTMATCH', `${name} answered`);
        at[name] = clock.now;
      }
    }
    // The try pane's questions are the editor's own: they are no hits.
    await api.ok('POST', `${R}/try`, { question: QUESTION.echo });
  });
  after(() => h.close());

  const list = (query: string) => api.ok<RulePage>('GET', `${R}/rules?limit=100&${query}`);

  test('most hits first, ties in creation order; fewest first the other way', async () => {
    const down = await list('sort=hits&dir=desc');
    assert.deepEqual(names(down), ['bravo', 'alpha', 'charlie', 'delta', 'echo', 'foxtrot']);
    const up = await list('sort=hits&dir=asc');
    assert.deepEqual(names(up), ['echo', 'foxtrot', 'delta', 'alpha', 'charlie', 'bravo']);
  });

  test('last hit: the latest first; never-hit rules last (first when ascending)', async () => {
    const down = await list('sort=lastHit&dir=desc');
    assert.deepEqual(names(down), ['charlie', 'delta', 'alpha', 'bravo', 'echo', 'foxtrot']);
    const up = await list('sort=lastHit&dir=asc');
    assert.deepEqual(names(up), ['echo', 'foxtrot', 'bravo', 'alpha', 'delta', 'charlie']);
  });

  test('each row carries its hits and last hit (ISO 8601; null: never hit)', async () => {
    const byName = new Map((await list('sort=created')).rows.map((row) => [row.ruleName, row]));
    const figures = (name: string) => {
      const row = byName.get(name) as ConsoleRule;
      return { hits: row.hits, lastHit: row.lastHit };
    };
    assert.deepEqual(figures('bravo'), { hits: 3, lastHit: new Date(at.bravo ?? 0).toISOString() });
    assert.deepEqual(figures('charlie'), {
      hits: 2,
      lastHit: new Date(at.charlie ?? 0).toISOString(),
    });
    assert.deepEqual(figures('echo'), { hits: 0, lastHit: null });
  });

  test('pages of a sorted, filtered list put together are the whole list', async () => {
    for (const query of ['sort=hits&dir=desc', 'sort=lastHit&dir=asc', 'sort=hits&q=how']) {
      const whole = await list(query);
      const pieces: string[] = [];
      for (let offset = 0; offset < whole.total; offset += 2) {
        const page = await api.ok<RulePage>('GET', `${R}/rules?limit=2&offset=${offset}&${query}`);
        assert.equal(page.total, whole.total);
        pieces.push(...names(page));
      }
      assert.deepEqual(pieces, names(whole), query);
    }
    // The search keeps only the rules asked "how …", still in order of hits.
    assert.deepEqual(names(await list('sort=hits&dir=desc&q=how')), [
      'alpha',
      'charlie',
      'foxtrot',
    ]);
  });

  test('a new hit moves its rule up at once', async () => {
    for (let i = 0; i < 4; i += 1) {
      clock.now += 60_000;
      await robot.ask(QUESTION.foxtrot ?? '', 'user-late');
    }
    const down = await list('sort=hits&dir=desc');
    assert.deepEqual(names(down).slice(0, 2), ['foxtrot', 'bravo']);
    assert.equal(down.rows[0]?.hits, 4);
    assert.equal(names(await list('sort=lastHit&dir=desc'))[0], 'foxtrot');
  });

  test('an unknown sort key is refused and names the field', async () => {
    const refused = await api.call('GET', `${R}/rules?sort=misses`);
    assert.equal(refused.status, 400);
    assert.equal((refused.body as { data: { field?: string } | null }).data?.field, 'sort');
  });
});

describe('rules list with the question log off', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ questionLog: false });
  });
  after(() => h.close());

  test('sorting by hits keeps creation order and rows carry no figures', async () => {
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    await robot.importRules(RULES.slice(0, 3));
    await robot.ask(QUESTION.charlie ?? '');
    const page = await api.ok<RulePage>(
      'GET',
      `/tenants/${tenantId}/robots/default/rules?sort=hits&dir=desc`,
    );
    assert.deepEqual(names(page), ['alpha', 'bravo', 'charlie']);
    assert.equal(page.rows[0]?.hits, undefined);
  });
});

describe('rules list, conflicts filter (console API over HTTP)', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  test('only the rules named by the collision check, with paging', async () => {
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    await robot.importRules([
      ruleInput('退款', ['怎么退款', '退款多久到账', '申请退款', '发票怎么开具'], '原路退回。'),
      ruleInput('营业时间', ['你们几点开门', '营业时间是什么时候'], '九点到六点。'),
      ruleInput('发票', ['怎么开发票', '发票怎么开', '电子发票在哪里下载'], '在订单页开具。'),
      ruleInput('挂失', ['我的银行卡丢了怎么办'], '请致电挂失。'),
      ruleInput('银行卡丢失', ['我的银行卡丢了该怎么办'], '请尽快挂失。'),
    ]);
    const R = `/tenants/${tenantId}/robots/default`;
    // Without a check made yet, the filter runs one.
    const filtered = await api.ok<RulePage>('GET', `${R}/rules?conflicts=true`);
    const report = await api.ok<RobotCollisions>('GET', `${R}/collisions`);
    const named = new Set(report.findings.flatMap((f) => [f.ruleName, f.otherRuleName]));
    assert.ok(named.has('退款') && named.has('发票') && named.has('挂失'), [...named].join());
    assert.ok(!named.has('营业时间'));
    // In creation order, as the unfiltered list.
    const expected = ['退款', '发票', '挂失', '银行卡丢失'].filter((name) => named.has(name));
    assert.deepEqual(names(filtered), expected);
    assert.equal(filtered.total, expected.length);
    const second = await api.ok<RulePage>('GET', `${R}/rules?conflicts=true&limit=1&offset=1`);
    assert.deepEqual(names(second), expected.slice(1, 2));
    assert.equal(second.total, expected.length);
    const withSearch = await api.ok<RulePage>('GET', `${R}/rules?conflicts=true&q=发票`);
    assert.deepEqual(names(withSearch), ['退款', '发票']);
    const all = await api.ok<RulePage>('GET', `${R}/rules?conflicts=false`);
    assert.equal(all.total, 5);
  });
});
