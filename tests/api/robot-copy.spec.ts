/**
 * Copying a robot between two real services over HTTP (the desktop's embedded service and a team
 * server are both `startService`): everything a bundle carries arrives, and comes back; ids
 * taken in the receiver are replaced consistently; a bad bundle is refused, naming its fault, and
 * leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { copyRobot, exportRobotBundle, ConsoleCallError } from '../../electron/client/robot-copy';
import type { ConsoleEndpoint } from '../../electron/client/robot-copy';
import type {
  ConsoleFailureData,
  ConsoleRobot,
  ConsoleRule,
  ConsoleTrash,
} from '../../electron/service/console-types';
import type { RobotBundle, RobotImportResult } from '../../electron/service/robot-bundle-types';
import { bundleOf, bundleRule } from '../helpers/bundles';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

/** A bundle with its rule ids replaced by rule names, to compare copies whose ids differ. */
function byNames(bundle: RobotBundle) {
  const names = new Map(bundle.rules.map((rule) => [rule.ruleId, rule.ruleName]));
  const name = (id: string | null) => (id === null ? null : (names.get(id) ?? `?${id}`));
  return {
    robot: bundle.robot,
    categories: bundle.categories,
    rules: bundle.rules.map(({ ruleId: _id, ...rule }) => ({
      ...rule,
      menu: rule.menu?.map((entry) => ({ ...entry, ruleId: name(entry.ruleId) })) ?? null,
    })),
    testCases: bundle.testCases.map((c) => ({ ...c, ruleId: name(c.ruleId) })),
  };
}

/** What two exports of the same content share (the time, and what the source left out, differ). */
const content = ({ exportedAt: _t, omitted: _o, ...bundle }: RobotBundle) => bundle;

describe('copying a robot between two services', () => {
  let a: TestService;
  let b: TestService;
  let A: ConsoleEndpoint;
  let B: ConsoleEndpoint;
  let tenantA: number;
  let tenantB: number;
  let source: ConsoleRobot;
  let original: RobotBundle;
  let toB: RobotImportResult;

  before(async () => {
    [a, b] = await Promise.all([startTestService(), startTestService()]);
    A = { baseUrl: a.service.url, token: a.service.consoleToken };
    B = { baseUrl: b.service.url, token: b.service.consoleToken };
    tenantA = (await registerTenantWithRobot(a.client)).tenantId;
    tenantB = (await registerTenantWithRobot(b.client)).tenantId;

    const api = consoleClient(A.baseUrl, A.token);
    source = await api.ok<ConsoleRobot>('POST', `/tenants/${tenantA}/robots`, {
      name: '售后客服',
      language: 'zh',
    });
    const R = `/tenants/${tenantA}/robots/${source.robotId}`;
    await api.ok('PATCH', R, {
      settings: {
        synonyms: [
          ['退货', '退换'],
          ['快递', '物流', '运单'],
        ],
        fallbackText: '这个问题我还不会，请转人工。',
        bestmatchThreshold: 0.8,
        persona: '小售',
      },
    });
    await api.ok('POST', `${R}/categories`, { name: '售后' });
    await api.ok('POST', `${R}/categories`, { name: '空类别' });
    const make = (rule: Record<string, unknown>) => api.ok<ConsoleRule>('POST', `${R}/rules`, rule);
    const returns = await make({
      ruleName: '退货流程',
      questions: ['怎么退货', '退货流程是什么'],
      answer: '在订单页点“申请退货”。',
      categoryName: '售后',
      negativeKeywords: ['换货'],
    });
    const shipping = await make({
      ruleName: '查物流',
      questions: ['快递到哪了'],
      answer: '在订单详情里看物流。',
      categoryName: '物流',
      matchPolicy: 'contains',
      allowSimGen: true,
    });
    const gone = await make({ ruleName: '旧规则', questions: ['旧问题'], answer: '旧答案' });
    await make({
      ruleName: '双十一活动',
      questions: ['双十一有什么活动'],
      answer: '全场满减。',
      active: false,
      effectBeignDate: '2026-11-01T00:00:00+08:00',
      effectEndDate: '2026-11-12T00:00:00+08:00',
      matchPolicy: 'exact',
    });
    const menu = await make({
      ruleName: '售后菜单',
      questions: ['售后服务'],
      answer: '请选择：',
      categoryName: '售后',
      menu: [
        { ruleId: returns.ruleId, text: '退货' },
        { ruleId: shipping.ruleId, text: '物流' },
        { ruleId: gone.ruleId, text: '旧的' },
      ],
    });
    await api.ok('POST', `${R}/test-cases`, {
      cases: [
        { question: '我要退货', expect: 'rule', ruleId: returns.ruleId },
        { question: '售后', expect: 'recommend', ruleId: menu.ruleId },
        { question: '今天天气', expect: 'fallback', ruleId: null },
        { question: '旧问题', expect: 'rule', ruleId: gone.ruleId },
      ],
    });
    // A deleted rule is not copied, nor what leads to it.
    await api.ok('POST', `${R}/rules/delete`, { ruleIds: [gone.ruleId] });
    original = await exportRobotBundle(A, tenantA, source.robotId);
    toB = await copyRobot({
      from: { ...A, tenantId: tenantA, robotId: source.robotId },
      to: { ...B, tenantId: tenantB },
    });
  });
  after(() => Promise.all([a.close(), b.close()]));

  test('the bundle holds the robot as the editor made it', () => {
    assert.equal(original.format, 'kb-studio-robot');
    assert.equal(original.robot.name, '售后客服');
    assert.deepEqual(original.robot.settings.synonyms, [
      ['退货', '退换'],
      ['快递', '物流', '运单'],
    ]);
    assert.equal(original.robot.settings.language, 'zh');
    assert.deepEqual(
      original.categories.map((c) => c.name).sort(),
      ['售后', '物流', '空类别'].sort(),
    );
    assert.deepEqual(
      original.rules.map((r) => r.ruleName),
      ['退货流程', '查物流', '双十一活动', '售后菜单'],
      'in creation order, the deleted rule left out',
    );
    const menu = original.rules[3];
    assert.deepEqual(
      menu?.menu?.map((e) => e.text),
      ['退货', '物流'],
    );
    assert.equal(original.testCases.length, 3);
    assert.deepEqual(original.omitted, { menuEntries: 1, testCases: 1 });
  });

  test('the copy on B is the robot of A: same content, same rule ids, its own id and secret', async () => {
    assert.equal(toB.rules, 4);
    assert.equal(toB.categories, 3);
    assert.equal(toB.testCases, 3);
    assert.equal(toB.ruleIdsChanged, 0, 'B holds none of these ids');
    assert.notEqual(toB.robot.robotSecret, source.robotSecret);
    assert.equal(toB.robot.ruleCount, 4);
    assert.equal(toB.robot.settings.fallbackText, '这个问题我还不会，请转人工。');
    const copied = await exportRobotBundle(B, tenantB, toB.robot.robotId);
    assert.deepEqual(content(copied), content(original));
  });

  test('the copy answers on B: rules, synonyms, menus, policies, fallback', async () => {
    const robot = b.client.robot(tenantB, toB.robot.robotId, toB.robot.robotSecret);
    const ask = (question: string) => robot.ask(question, 'u1');
    const returns = await ask('怎么退换');
    assert.equal(returns.answer, '在订单页点“申请退货”。', 'synonym 退换 → 退货');
    const menu = await ask('售后服务');
    assert.equal(menu.answerType, 'MENU');
    assert.deepEqual(
      menu.items?.map((item) => item.question),
      ['退货', '物流'],
    );
    assert.equal((await ask('请问快递到哪了呀')).answer, '在订单详情里看物流。', 'contains');
    const none = await ask('火星上有没有水');
    assert.equal(none.module, 'NONE');
    assert.equal(none.answer, '这个问题我还不会，请转人工。');
  });

  test('copied back to A it is a second robot there, every rule id replaced consistently', async () => {
    const back = await copyRobot({
      from: { ...B, tenantId: tenantB, robotId: toB.robot.robotId },
      to: { ...A, tenantId: tenantA },
    });
    assert.equal(back.rules, 4);
    assert.equal(back.ruleIdsChanged, 4, 'A still holds the original rules');
    assert.notEqual(back.robot.robotId, source.robotId);
    const again = await exportRobotBundle(A, tenantA, back.robot.robotId);
    const originalIds = new Set(original.rules.map((r) => r.ruleId));
    for (const rule of again.rules) assert.ok(!originalIds.has(rule.ruleId));
    assert.deepEqual(byNames(again), byNames(original));
    const menu = again.rules.find((r) => r.ruleName === '售后菜单');
    const newIds = new Set(again.rules.map((r) => r.ruleId));
    for (const entry of menu?.menu ?? [])
      assert.ok(newIds.has(entry.ruleId), 'menus lead to the copy');
    for (const c of again.testCases) assert.ok(c.ruleId === null || newIds.has(c.ruleId));
    // The original robot on A is untouched.
    assert.deepEqual(
      content(await exportRobotBundle(A, tenantA, source.robotId)),
      content(original),
    );
  });

  test('a bundle whose ids are partly taken keeps the free ones and replaces the others', async () => {
    const mixed: RobotBundle = {
      ...original,
      robot: { name: '部分冲突', settings: {} },
      rules: [
        { ...(original.rules[0] as RobotBundle['rules'][0]), ruleId: 'fresh-id-1' },
        original.rules[3] as RobotBundle['rules'][0],
      ],
      testCases: [],
    };
    // The menu of rule 2 leads to rules 1 (kept under its new id) and to one not in the bundle.
    const menuRule = mixed.rules[1] as RobotBundle['rules'][0];
    mixed.rules[1] = {
      ...menuRule,
      menu: [{ ruleId: 'fresh-id-1', text: '退货' }],
    };
    const api = consoleClient(B.baseUrl, B.token);
    const made = await api.ok<RobotImportResult>(
      'POST',
      `/tenants/${tenantB}/robots/import`,
      mixed,
    );
    assert.equal(made.ruleIdsChanged, 1);
    const stored = await exportRobotBundle(B, tenantB, made.robot.robotId);
    assert.equal(stored.rules[0]?.ruleId, 'fresh-id-1');
    assert.notEqual(stored.rules[1]?.ruleId, menuRule.ruleId);
    assert.deepEqual(stored.rules[1]?.menu, [{ ruleId: 'fresh-id-1', text: '退货' }]);
  });

  test('a robot in review mode arrives live: its versions stay behind', async () => {
    const reviewed = {
      ...original,
      robot: {
        ...original.robot,
        settings: { ...original.robot.settings, publishMode: 'review' as const },
      },
    };
    const api = consoleClient(B.baseUrl, B.token);
    const made = await api.ok<RobotImportResult>(
      'POST',
      `/tenants/${tenantB}/robots/import`,
      reviewed,
    );
    assert.equal(made.robot.settings.publishMode, 'live');
    const robot = b.client.robot(tenantB, made.robot.robotId, made.robot.robotSecret);
    assert.equal((await robot.ask('怎么退货', 'u2')).answer, '在订单页点“申请退货”。');
    const stored = await exportRobotBundle(B, tenantB, made.robot.robotId);
    assert.equal(stored.robot.settings.publishMode, undefined);
    assert.deepEqual(stored.robot.settings.synonyms, original.robot.settings.synonyms);
  });

  describe('a bad bundle is refused, naming its fault, and nothing is made', () => {
    let api: ReturnType<typeof consoleClient>;
    let robotsBefore: number;
    before(async () => {
      api = consoleClient(B.baseUrl, B.token);
      robotsBefore = await robotCount();
    });
    const robotCount = async () => {
      const workspace = await api.ok<{ tenants: { tenantId: number; robots: unknown[] }[] }>(
        'GET',
        '/workspace',
      );
      return workspace.tenants.find((t) => t.tenantId === tenantB)?.robots.length ?? -1;
    };
    const rule = (i: number) => original.rules[i] as RobotBundle['rules'][0];
    const cases: [string, () => unknown, number, string, string | null, RegExp][] = [
      ['not a bundle', () => ({ hello: 1 }), 400, 'missing-field', 'format', /format is required/],
      [
        'another format version',
        () => ({ ...original, version: 2 }),
        400,
        'invalid-field',
        'version',
        /version must be 1/,
      ],
      [
        'a rule without phrasings',
        () => ({ ...original, rules: [{ ...rule(0), questions: [] }] }),
        400,
        'invalid-field',
        'rules[0].questions',
        /at least 1/,
      ],
      [
        'an unknown setting',
        () => ({ ...original, robot: { name: 'x', settings: { colour: 'red' } } }),
        400,
        'invalid-field',
        'robot.settings',
        /unknown key "colour"/,
      ],
      [
        'a menu entry leading out of the bundle',
        () => ({
          ...original,
          rules: [rule(0), { ...rule(3), menu: [{ ruleId: 'nowhere', text: '无' }] }],
          testCases: [],
        }),
        400,
        'invalid-field',
        'rules[1].menu[0].ruleId',
        /leads to nowhere, which is not a rule of the bundle\. Nothing was imported\./,
      ],
      [
        'a rule name twice',
        () => ({ ...original, rules: [rule(0), { ...rule(1), ruleName: rule(0).ruleName }] }),
        400,
        'invalid-field',
        'rules[1].ruleName',
        /twice/,
      ],
      [
        'a category not in the bundle',
        () => ({ ...original, categories: [] }),
        400,
        'invalid-field',
        'rules[0].categoryName',
        /not one of the bundle's categories/,
      ],
      [
        'a test case of a rule not in the bundle',
        () => ({
          ...original,
          testCases: [{ question: 'q', expect: 'rule', ruleId: 'nowhere' }],
        }),
        400,
        'invalid-field',
        'testCases[0].ruleId',
        /not a rule of the bundle/,
      ],
      [
        'an end before its beginning',
        () => ({
          ...original,
          rules: [{ ...rule(2), effectEndDate: '2026-10-01T00:00:00+08:00' }],
          testCases: [],
        }),
        400,
        'invalid-field',
        'rules[0].effectEndDate',
        /must not be before/,
      ],
    ];
    for (const [what, body, status, code, field, message] of cases) {
      test(what, async () => {
        const answer = await api.call<ConsoleFailureData | null>(
          'POST',
          `/tenants/${tenantB}/robots/import`,
          body(),
        );
        assert.equal(answer.status, status, JSON.stringify(answer.body));
        assert.equal(answer.body.code, code);
        assert.match(answer.body.msg ?? '', message);
        assert.equal(answer.body.data?.field ?? null, field);
        assert.equal(await robotCount(), robotsBefore, 'no robot made');
        const trash = await api.ok<ConsoleTrash>('GET', '/trash');
        assert.equal(trash.robots.length, 0, 'nor a hidden one');
      });
    }

    test('an unknown tenant is a 404 and the token is needed', async () => {
      const missing = await api.call('POST', '/tenants/999/robots/import', original);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'tenant-not-found');
      await assert.rejects(
        copyRobot({
          from: { ...A, tenantId: tenantA, robotId: source.robotId },
          to: { ...B, token: 'wrong', tenantId: tenantB },
        }),
        (error: unknown) =>
          error instanceof ConsoleCallError &&
          error.status === 401 &&
          error.code === 'bad-console-token',
      );
      assert.equal(await robotCount(), robotsBefore);
    });
  });
});

describe('robot bundles: sizes and races', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let tenantId: number;
  const many = (rules: number, prefix: string, answer = 'a'): RobotBundle =>
    bundleOf(
      'big',
      Array.from({ length: rules }, (_, i) =>
        bundleRule(`${prefix}-${i}`, `rule ${i}`, { answer }),
      ),
    );
  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    tenantId = (await registerTenantWithRobot(h.client)).tenantId;
  });
  after(() => h.close());

  test('a bundle over the 10 MiB of other routes is taken; one over its own limit is not', async () => {
    const big = many(6000, 'big', 'x'.repeat(2000));
    const text = JSON.stringify(big);
    assert.ok(Buffer.byteLength(text) > 10 * 1024 * 1024);
    const made = await api.ok<RobotImportResult>('POST', `/tenants/${tenantId}/robots/import`, big);
    assert.equal(made.rules, 6000);
    // Announced larger than the limit: refused before a byte of it is read.
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${h.service.url}/console/api/tenants/${tenantId}/robots/import`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${h.service.consoleToken}`,
            'content-type': 'application/json',
            'content-length': String(129 * 1024 * 1024),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{');
    });
    assert.equal(answer.status, 413);
    const envelope = JSON.parse(answer.body) as { code: string; msg: string };
    assert.equal(envelope.code, 'body-too-large');
    assert.match(envelope.msg, /a robot bundle: 128 MiB/);
  });

  test('a long bundle invalid near its end changes nothing; the same bundle made valid imports whole', async () => {
    // 1,500 rules (about 1 MB: read in many chunks, written in several batches).
    const bundle = bundleOf(
      'long',
      Array.from({ length: 1500 }, (_, i) =>
        bundleRule(`long-${i}`, `long rule ${i}`, {
          answer: `answer ${i} ${'x'.repeat(500)}`,
          categoryName: i % 2 === 0 ? 'even' : null,
          menu: i === 10 ? [{ ruleId: 'long-1499', text: 'the last one' }] : null,
        }),
      ),
      {
        categories: [{ name: 'even' }],
        testCases: [{ question: 'q', expect: 'rule', ruleId: 'long-1498' }],
      },
    );
    const post = async (text: string) => {
      const response = await fetch(
        `${h.service.url}/console/api/tenants/${tenantId}/robots/import`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${h.service.consoleToken}`,
            'content-type': 'application/json',
          },
          body: text,
        },
      );
      return {
        status: response.status,
        body: (await response.json()) as {
          code: string;
          msg: string;
          data: (RobotImportResult & { field?: string }) | null;
        },
      };
    };
    const robots = async () =>
      (
        await api.ok<{ tenants: { tenantId: number; robots: ConsoleRobot[] }[] }>(
          'GET',
          '/workspace',
        )
      ).tenants.find((t) => t.tenantId === tenantId)?.robots.length;
    const before = await robots();
    const last = bundle.rules[1499] as RobotBundle['rules'][0];
    const invalid: [string, string, string, string | null][] = [
      [
        'the last rule',
        JSON.stringify({
          ...bundle,
          rules: [...bundle.rules.slice(0, -1), { ...last, active: 'yes' }],
        }),
        'invalid-field',
        'rules[1499].active',
      ],
      [
        'a menu entry of the last rule leading out',
        JSON.stringify({
          ...bundle,
          rules: [
            ...bundle.rules.slice(0, -1),
            { ...last, menu: [{ ruleId: 'nowhere', text: 'x' }] },
          ],
        }),
        'invalid-field',
        'rules[1499].menu[0].ruleId',
      ],
      [
        'categories after the rules, one missing',
        JSON.stringify({ ...bundle, categories: undefined }).replace(/}$/, ',"categories":[]}'),
        'invalid-field',
        'rules[0].categoryName',
      ],
      ['the JSON cut short', JSON.stringify(bundle).slice(0, -40), 'malformed-json', null],
    ];
    for (const [what, text, code, field] of invalid) {
      const answer = await post(text);
      assert.equal(answer.status, 400, what);
      assert.equal(answer.body.code, code, `${what}: ${answer.body.msg}`);
      assert.equal(answer.body.data?.field ?? null, field, what);
      assert.equal(await robots(), before, `${what}: no robot made`);
      const trash = await api.ok<ConsoleTrash>('GET', '/trash');
      assert.equal(trash.robots.length, 0, `${what}: nor a hidden one`);
    }
    // Categories after the rules are read as well as before them.
    const made = await post(
      JSON.stringify({ ...bundle, categories: undefined }).replace(
        /}$/,
        ',"categories":[{"name":"even"}]}',
      ),
    );
    assert.equal(made.status, 200, made.body.msg);
    const result = made.body.data as RobotImportResult;
    assert.deepEqual(
      { rules: result.rules, testCases: result.testCases, categories: result.categories },
      { rules: 1500, testCases: 1, categories: 1 },
    );
    // No id was taken by the refused imports: every one of the bundle's ids is kept.
    assert.equal(result.ruleIdsChanged, 0);
    const copy = await exportRobotBundle(
      { baseUrl: h.service.url, token: h.service.consoleToken },
      tenantId,
      result.robot.robotId,
    );
    assert.deepEqual(
      copy.rules.map((r) => [r.ruleId, r.categoryName, r.menu]),
      bundle.rules.map((r) => [r.ruleId, r.categoryName, r.menu]),
    );
    assert.deepEqual(copy.testCases, bundle.testCases);
    const answered = await h.client
      .robot(tenantId, result.robot.robotId, result.robot.robotSecret)
      .ask('long rule 777?', 'u1');
    assert.equal(answered.answerType, 'BESTMATCH', 'the index holds the rules written in batches');
    assert.match(answered.answer, /^answer 777 x/);
  });

  test('imports racing for the same new rule ids: each makes a whole robot or nothing, an id kept by one only', async () => {
    const bundle = many(300, 'race');
    const robotsBefore = (
      await api.ok<{ tenants: { tenantId: number; robots: unknown[] }[] }>('GET', '/workspace')
    ).tenants.find((t) => t.tenantId === tenantId)?.robots.length;
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        api.call<RobotImportResult>('POST', `/tenants/${tenantId}/robots/import`, bundle),
      ),
    );
    const made = answers.filter((a) => a.body.code === '0');
    for (const answer of answers) {
      if (answer.body.code === '0') continue;
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'rule-exists');
      assert.match(answer.body.msg ?? '', /Nothing was imported/);
    }
    assert.ok(made.length >= 1);
    const kept = made.reduce((sum, a) => sum + (a.body.data.rules - a.body.data.ruleIdsChanged), 0);
    assert.equal(kept, 300, 'each id of the bundle kept by exactly one copy');
    const robots = (
      await api.ok<{ tenants: { tenantId: number; robots: ConsoleRobot[] }[] }>('GET', '/workspace')
    ).tenants.find((t) => t.tenantId === tenantId)?.robots;
    assert.equal(robots?.length, (robotsBefore ?? 0) + made.length, 'a robot per success only');
    for (const robot of robots?.filter((r) => r.name === 'big' && r.ruleCount === 300) ?? []) {
      const stored = await exportRobotBundle(
        { baseUrl: h.service.url, token: h.service.consoleToken },
        tenantId,
        robot.robotId,
      );
      assert.equal(stored.rules.length, 300);
    }
    const trash = await api.ok<ConsoleTrash>('GET', '/trash');
    assert.equal(trash.robots.length, 0, 'no half robot left in the trash');
  });
});

describe('a copy is indexed when first asked', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ metrics: 'on' });
  });
  after(() => h.close());

  const indexesLoaded = async () => {
    const text = await (await fetch(`${h.service.url}/metrics`)).text();
    return Number(/^kb_robot_indexes_loaded (\d+)$/m.exec(text)?.[1]);
  };

  test('the import builds no matching index; the first ask reads the copy with the writes since', async () => {
    const { tenantId } = await registerTenantWithRobot(h.client);
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const loaded = await indexesLoaded();
    const bundle = bundleOf('lazy', [
      bundleRule('lazy-1', 'opening hours', { questions: ['when do you open'], answer: 'at nine' }),
      bundleRule('lazy-2', 'returns', {
        questions: ['how do I return an item'],
        answer: '30 days',
      }),
    ]);
    bundle.robot.settings = { synonyms: [['parcel', 'package']] };
    const made = await api.ok<RobotImportResult>(
      'POST',
      `/tenants/${tenantId}/robots/import`,
      bundle,
    );
    // Built during the import it was about twice the bundle in memory, for a robot nobody asked.
    assert.equal(await indexesLoaded(), loaded, 'no index built by the import');
    const R = `/tenants/${tenantId}/robots/${made.robot.robotId}`;
    await api.ok('POST', `${R}/rules`, {
      ruleName: 'shipping',
      questions: ['where is my parcel'],
      answer: 'on its way',
    });
    const robot = h.client.robot(tenantId, made.robot.robotId, made.robot.robotSecret);
    assert.equal((await robot.ask('when do you open', 'u1')).answer, 'at nine');
    assert.equal((await robot.ask('where is my package', 'u1')).answer, 'on its way');
    assert.equal(await indexesLoaded(), loaded + 1);
  });

  test('a copy never asked before a restart answers after it', async () => {
    const { tenantId } = await registerTenantWithRobot(h.client);
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const bundle = bundleOf('unasked', [
      bundleRule('unasked-1', 'opening hours', { questions: ['when do you open'], answer: 'at 8' }),
    ]);
    const made = await api.ok<RobotImportResult>(
      'POST',
      `/tenants/${tenantId}/robots/import`,
      bundle,
    );
    // The indexes saved at the stop must not take the copy's unbuilt index for an empty one.
    await h.restart();
    const robot = h.client.robot(tenantId, made.robot.robotId, made.robot.robotSecret);
    assert.equal((await robot.ask('when do you open', 'u1')).answer, 'at 8');
  });
});
