import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { AskResult } from '../../electron/service/api-types';
import type {
  ConsoleCategory,
  ConsoleFailureData,
  ConsoleRobot,
  ConsoleRule,
  ConsoleWorkspace,
  DuplicateQuestion,
  RulePage,
  TryResult,
} from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import {
  TEST_CREDENTIALS,
  registerTenantWithRobot,
  ruleInput,
  startTestService,
} from '../helpers/service';
import type { TestService } from '../helpers/service';

/** True when `ruleId` answered or was recommended. */
function reaches(result: AskResult, ruleId: string, answer: string): boolean {
  return (
    (result.module === 'KB' && result.answerType === 'BESTMATCH' && result.answer === answer) ||
    (result.items ?? []).some((item) => item.ruleId === ruleId)
  );
}

describe('console API (the editor’s routes)', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let tenantId: number;
  let robot: RobotClient;
  let R: string;
  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    R = `/tenants/${tenantId}/robots/default`;
  });
  after(() => h.close());

  test('refuses requests without the right token', async () => {
    for (const token of ['', 'wrong']) {
      const { status, body } = await consoleClient(h.service.url, token).call('GET', '/workspace');
      assert.equal(status, 401);
      assert.equal(body.code, 'bad-console-token');
    }
  });

  test('the editor URL carries the token', () => {
    assert.equal(h.service.editorUrl, `${h.service.url}/?token=${h.service.consoleToken}`);
    assert.ok(h.service.consoleToken.length >= 32);
  });

  test('workspace lists credentials, tenants, administrators and robots', async () => {
    const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
    assert.equal(workspace.baseUrl, h.service.url);
    assert.deepEqual(workspace.customer, TEST_CREDENTIALS);
    const tenant = workspace.tenants.find((t) => t.tenantId === tenantId);
    assert.ok(tenant);
    assert.equal(tenant.users.length, 1);
    assert.deepEqual(Object.keys(tenant.users[0] ?? {}).sort(), ['role', 'userId', 'username']);
    assert.equal(tenant.robots[0]?.robotId, 'default');
    assert.equal(tenant.robots[0]?.robotSecret, robot.robotSecret);
    assert.equal(typeof tenant.robots[0]?.settings.fallbackText, 'string');
  });

  test('register through the console validates like the openapi route and names the field', async () => {
    const { status, body } = await api.call<ConsoleFailureData>('POST', '/tenants', {
      username: 'x',
      password: 'secret123',
      phoneNumber: '13800138000',
      mail: 'a@b.cn',
      company: 'c',
    });
    assert.equal(status, 400);
    assert.equal(body.code, 'invalid-field');
    // What failed, with its values, for the editor to say in its own words (docs/api.md).
    const problem = { field: 'username', keyword: 'minLength', params: { limit: 2 } };
    assert.deepEqual(body.data, { ...problem, problems: [problem] });
  });

  test('create, edit and read a rule with category, dates and active flag', async () => {
    const created = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: '会员积分',
      questions: ['积分怎么用', '积分有效期多久'],
      answer: '积分一年内有效。',
      categoryName: '会员',
    });
    assert.equal(created.active, true);
    assert.equal(created.categoryName, '会员');
    assert.match(created.ruleCategoryId, /^\d+$/, 'rules carry the category’s id');
    assert.equal(created.state, 'active');
    const edited = await api.ok<ConsoleRule>('PATCH', `${R}/rules/${created.ruleId}`, {
      answer: '积分两年内有效。',
      effectBeignDate: '2020-01-01T00:00:00+08:00',
      effectEndDate: '2099-12-31T23:59:59+08:00',
      allowSimGen: true,
    });
    assert.equal(edited.answer, '积分两年内有效。');
    assert.deepEqual(edited.questions, ['积分怎么用', '积分有效期多久']);
    const read = await robot.getRule(created.ruleId);
    assert.equal(read.ruleCategoryId, created.ruleCategoryId, 'the openapi returns the id');
    assert.equal(read.effectBeignDate, '2020-01-01T00:00:00+08:00');
    assert.equal(read.effectEndDate, '2099-12-31T23:59:59+08:00');
    assert.equal(read.allowSimGen, true);
    assert.equal((await robot.ask('积分怎么用')).answer, '积分两年内有效。');
  });

  test('a rule with a limit broken, a taken name or a reversed window is refused with its field', async () => {
    const tooMany = await api.call<ConsoleFailureData>('POST', `${R}/rules`, {
      ruleName: 'too many',
      questions: Array.from({ length: 11 }, (_, i) => `q${i}`),
      answer: 'a',
    });
    assert.equal(tooMany.status, 400);
    const problem = { field: 'questions', keyword: 'maxItems', params: { limit: 10 } };
    assert.deepEqual(tooMany.body.data, { ...problem, problems: [problem] });
    const taken = await api.call<ConsoleFailureData>('POST', `${R}/rules`, {
      ruleName: ' 会员积分 ',
      questions: ['q'],
      answer: 'a',
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'rule-name-taken');
    assert.deepEqual(taken.body.data, { field: 'ruleName', params: { ruleName: '会员积分' } });
    const reversed = await api.call<ConsoleFailureData>('POST', `${R}/rules`, {
      ruleName: 'window',
      questions: ['q'],
      answer: 'a',
      effectBeignDate: '2030-01-01T00:00:00Z',
      effectEndDate: '2029-01-01T00:00:00Z',
    });
    assert.equal(reversed.status, 400);
    assert.deepEqual(reversed.body.data, {
      field: 'effectEndDate',
      keyword: 'date-order',
      params: { other: 'effectBeignDate' },
    });
    const noOffset = await api.call('POST', `${R}/rules`, {
      ruleName: 'w2',
      questions: ['q'],
      answer: 'a',
      effectEndDate: '2030-01-01T00:00:00',
    });
    assert.equal(noOffset.status, 400);
  });

  test('inactive and out-of-window rules are not answered; re-enabling brings them back', async () => {
    const [rule] = (await robot.importRules([ruleInput('快递', ['用什么快递'], '默认顺丰。')]))
      .succeed;
    const ruleId = rule?.ruleId ?? '';
    const reached = async () => reaches(await robot.ask('用什么快递'), ruleId, '默认顺丰。');
    assert.equal(await reached(), true);
    await api.ok('POST', `${R}/rules/set-active`, { ruleIds: [ruleId], active: false });
    assert.equal(await reached(), false);
    assert.equal((await robot.getRule(ruleId)).active, false);
    await api.ok('POST', `${R}/rules/set-active`, { ruleIds: [ruleId], active: true });
    assert.equal(await reached(), true);
    await api.ok('PATCH', `${R}/rules/${ruleId}`, { effectEndDate: '2001-01-01T00:00:00Z' });
    assert.equal(await reached(), false);
    await api.ok('PATCH', `${R}/rules/${ruleId}`, {
      effectEndDate: null,
      effectBeignDate: '2999-01-01T00:00:00Z',
    });
    assert.equal(await reached(), false);
    await api.ok('PATCH', `${R}/rules/${ruleId}`, { effectBeignDate: '2001-01-01T00:00:00Z' });
    assert.equal(await reached(), true);
  });

  test('delete several rules, then restore them in place (undo)', async () => {
    const fresh = (await registerTenantWithRobot(h.client)).robot;
    const FR = `/tenants/${fresh.tenantId}/robots/default`;
    await fresh.importRules(
      ['一', '二', '三', '四'].map((n) => ruleInput(`规则${n}`, [`问题${n}`])),
    );
    const page = await api.ok<RulePage>('GET', `${FR}/rules`);
    const doomed = page.rows.filter((r) => r.ruleName === '规则二' || r.ruleName === '规则三');
    assert.deepEqual(
      await api.ok('POST', `${FR}/rules/delete`, { ruleIds: doomed.map((r) => r.ruleId) }),
      { deleted: 2 },
    );
    assert.equal((await fresh.listRules()).totalCount, 2);
    const second = doomed.find((r) => r.ruleName === '规则二');
    assert.equal(
      reaches(await fresh.ask('问题二'), second?.ruleId ?? '', 'Answer for 规则二'),
      false,
    );
    const ruleIds = doomed.map((r) => r.ruleId);
    const trash = await api.ok<{ rules: { ruleId: string }[] }>('GET', `${FR}/rules/trash`);
    assert.deepEqual(trash.rules.map((r) => r.ruleId).sort(), [...ruleIds].sort());
    assert.deepEqual(await api.ok('POST', `${FR}/rules/restore`, { ruleIds }), {
      restored: 2,
    });
    assert.deepEqual(
      (await fresh.listRules()).list.map((r) => r.ruleName),
      ['规则一', '规则二', '规则三', '规则四'],
    );
    assert.equal((await fresh.ask('问题二')).answer, 'Answer for 规则二');
    assert.deepEqual(
      await api.ok('POST', `${FR}/rules/restore`, { ruleIds }),
      { restored: 0 },
      'an undo done twice puts nothing back twice',
    );
  });

  test('query: text search, active and category filters, sort and paging', async () => {
    const fresh = (await registerTenantWithRobot(h.client)).robot;
    const FR = `/tenants/${fresh.tenantId}/robots/default`;
    const made = await fresh.importRules(
      Array.from({ length: 30 }, (_, i) =>
        ruleInput(`rule ${String(i).padStart(2, '0')}`, [
          i % 3 === 0 ? `包含 关键词 ${i}` : `plain ${i}`,
        ]),
      ),
    );
    const ids = made.succeed.map((r) => r.ruleId);
    await api.ok('POST', `${FR}/rules/set-active`, { ruleIds: ids.slice(0, 5), active: false });
    for (const id of ids.slice(0, 4))
      await api.ok('PATCH', `${FR}/rules/${id}`, { categoryName: '售后' });
    const search = await api.ok<RulePage>('GET', `${FR}/rules?q=${encodeURIComponent('关键词')}`);
    assert.equal(search.total, 10);
    const traditional = await api.ok<RulePage>(
      'GET',
      `${FR}/rules?q=${encodeURIComponent('關鍵詞')}`,
    );
    assert.equal(traditional.total, 10, 'searched as the matcher reads text');
    const wide = await api.ok<RulePage>(
      'GET',
      `${FR}/rules?q=${encodeURIComponent('ＰＬＡＩＮ 1')}`,
    );
    assert.ok(wide.total > 0, 'full-width capitals find plain ones');
    const inactive = await api.ok<RulePage>('GET', `${FR}/rules?active=false`);
    assert.equal(inactive.total, 5);
    const { categories } = await api.ok<{ categories: ConsoleCategory[] }>(
      'GET',
      `${FR}/categories`,
    );
    assert.deepEqual(
      categories.map((c) => [c.name, c.rules]),
      [['售后', 4]],
    );
    const category = await api.ok<RulePage>(
      'GET',
      `${FR}/rules?category=${categories[0]?.categoryId}`,
    );
    assert.equal(category.total, 4);
    const sorted = await api.ok<RulePage>(
      'GET',
      `${FR}/rules?sort=ruleName&dir=desc&limit=3&offset=1`,
    );
    assert.equal(sorted.total, 30);
    assert.deepEqual(
      sorted.rows.map((r) => r.ruleName),
      ['rule 28', 'rule 27', 'rule 26'],
    );
    const punctuation = await api.ok<RulePage>('GET', `${FR}/rules?q=${encodeURIComponent('%')}`);
    assert.equal(punctuation.total, 30, 'punctuation alone filters nothing');
    assert.equal((await api.call('GET', `${FR}/rules?limit=0`)).status, 400);
  });

  test('duplicates: the same phrasing in two rules is reported', async () => {
    const fresh = (await registerTenantWithRobot(h.client)).robot;
    const FR = `/tenants/${fresh.tenantId}/robots/default`;
    const made = await fresh.importRules([
      ruleInput('甲', ['怎么付款？', '别的']),
      ruleInput('乙', ['怎么付款', '另外']),
      ruleInput('丙', ['无关']),
    ]);
    const { duplicates } = await api.ok<{ duplicates: DuplicateQuestion[] }>(
      'GET',
      `${FR}/rules/duplicates`,
    );
    assert.equal(duplicates.length, 1);
    assert.deepEqual(
      duplicates[0]?.ruleIds.sort(),
      made.succeed
        .slice(0, 2)
        .map((r) => r.ruleId)
        .sort(),
    );
  });

  test('try answers exactly what ask answers, with candidates and their phrasings', async () => {
    const question = '积分有效期多久';
    const tried = await api.ok<TryResult>('POST', `${R}/try`, { question });
    assert.deepEqual(tried.result, await robot.ask(question));
    assert.equal(tried.decision, 'bestmatch');
    assert.equal(tried.candidates[0]?.ruleName, '会员积分');
    assert.equal(tried.candidates[0]?.question, '积分有效期多久');
    assert.equal(tried.candidates[0]?.score, 1);
  });

  test('robot settings change the answers; rename; rotating the secret refuses the old one', async () => {
    const changed = await api.ok<ConsoleRobot>('PATCH', R, {
      name: '客服',
      settings: { fallbackText: '请联系人工客服。' },
    });
    assert.equal(changed.name, '客服');
    assert.equal((await robot.ask('完全无关的问题 xyz')).answer, '请联系人工客服。');
    const bad = await api.call<{ field: string }>('PATCH', R, {
      settings: { recommendThreshold: 0.99, bestmatchThreshold: 0.5 },
    });
    assert.equal(bad.status, 400);
    const rotated = await api.ok<ConsoleRobot>('POST', `${R}/rotate-secret`);
    assert.notEqual(rotated.robotSecret, robot.robotSecret);
    const old = await robot.send('GET', '/kb/rules');
    assert.equal(old.status, 401);
    const renewed = h.client.robot(tenantId, 'default', rotated.robotSecret);
    assert.equal((await renewed.listRules()).totalCount > 0, true);
    robot = renewed;
  });

  test('settings, names and secrets survive a restart', async () => {
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
    const saved = workspace.tenants.find((t) => t.tenantId === tenantId)?.robots[0];
    assert.equal(saved?.name, '客服');
    assert.equal(saved?.settings.fallbackText, '请联系人工客服。');
    assert.equal(saved?.robotSecret, robot.robotSecret);
  });

  test('a bad query parameter is named in the answer; paging ones are invalid-paging', async () => {
    const cases: [string, number, string, string][] = [
      ['sort=bogus', 400, 'invalid-field', 'sort'],
      ['dir=sideways', 400, 'invalid-field', 'dir'],
      ['active=maybe', 400, 'invalid-field', 'active'],
      ['limit=x', 400, 'invalid-paging', 'limit'],
      ['offset=-1', 400, 'invalid-paging', 'offset'],
    ];
    for (const [query, status, code, field] of cases) {
      const answer = await api.call<{ field: string }>('GET', `${R}/rules?${query}`);
      assert.equal(answer.status, status, query);
      assert.equal(answer.body.code, code, query);
      assert.equal(answer.body.data.field, field, query);
      assert.match(answer.body.msg ?? '', new RegExp(field), query);
      assert.doesNotMatch(answer.body.msg ?? '', /page and pageSize/, query);
    }
  });

  test('putting back a rule whose name was taken since is a conflict naming the name', async () => {
    const fresh = (await registerTenantWithRobot(h.client)).robot;
    const FR = `/tenants/${fresh.tenantId}/robots/default`;
    const [made] = (await fresh.importRules([ruleInput('已存在', ['已存在的规则'], '答')])).succeed;
    await api.ok('POST', `${FR}/rules/delete`, { ruleIds: [made?.ruleId] });
    await fresh.importRules([ruleInput('已存在', ['新的规则'], '新答')]);
    const again = await api.call<{ field: string }>('POST', `${FR}/rules/restore`, {
      ruleIds: [made?.ruleId],
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'rule-name-taken');
    assert.equal(again.body.data.field, 'ruleName');
  });
});
