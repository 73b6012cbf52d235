/**
 * What a content editor manages beside rules: each robot's language and default texts, its list
 * of categories, rules' effective states, and deleting robots, tenants and administrators
 * without losing anything by one click.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type {
  ConsoleCategory,
  ConsoleRobot,
  ConsoleRule,
  ConsoleTrash,
  ConsoleWorkspace,
  RulePage,
  TryResult,
} from '../../electron/service/console-types';
import { DEFAULT_ROBOT_NAMES, hasDefaultName } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import {
  registerTenantWithRobot,
  ruleInput,
  startTestService,
  tenantRequest,
} from '../helpers/service';
import type { TestService } from '../helpers/service';

const DAY = 24 * 60 * 60 * 1000;

describe('robot language, categories, states and deletions (console API)', () => {
  let clock = Date.now();
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  const robotOf = async (tenantId: number, robotId = 'default'): Promise<ConsoleRobot> => {
    const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
    const robot = workspace.tenants
      .find((t) => t.tenantId === tenantId)
      ?.robots.find((r) => r.robotId === robotId);
    if (!robot) throw new Error(`no robot ${tenantId}/${robotId} in the workspace`);
    return robot;
  };
  before(async () => {
    h = await startTestService({ now: () => clock });
    api = consoleClient(h.service.url, h.service.consoleToken);
  });
  after(() => h.close());

  test('a robot answers in the language of its rules unless its texts or language were set', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    assert.equal((await robotOf(tenantId)).settings.language, 'en', 'no rules yet');
    await robot.importRules([
      ruleInput('退货', ['怎么退货'], '七天内可退。'),
      ruleInput('发票', ['怎么开发票'], '联系客服。'),
    ]);
    const zh = await robotOf(tenantId);
    assert.equal(zh.settings.language, 'zh');
    const missed = await robot.ask('量子色动力学的渐近自由是什么');
    assert.equal(missed.module, 'NONE');
    assert.equal(missed.answer, zh.settings.fallbackText);
    assert.match(missed.answer, /\p{Script=Han}/u, 'a Chinese robot answers in Chinese');
    const R = `/tenants/${tenantId}/robots/default`;
    await api.ok('PATCH', R, { settings: { language: 'en' } });
    const en = await robotOf(tenantId);
    assert.equal(en.settings.language, 'en');
    assert.equal(
      (await robot.ask('量子色动力学的渐近自由是什么')).answer,
      en.settings.fallbackText,
    );
    assert.doesNotMatch(en.settings.fallbackText, /\p{Script=Han}/u);
    await api.ok('PATCH', R, { settings: { fallbackText: '请拨打人工热线。', language: 'zh' } });
    assert.equal((await robot.ask('量子色动力学的渐近自由是什么')).answer, '请拨打人工热线。');
    const reset = await api.ok<ConsoleRobot>('PATCH', R, {
      settings: { fallbackText: null, language: null },
    });
    assert.equal(reset.settings.language, 'zh', 'back to the language of its rules');
    assert.equal(reset.settings.fallbackText, reset.defaults.fallbackText, 'back to the default');
    assert.equal(zh.settings.fallbackText, reset.defaults.fallbackText);
    const made = await api.ok<ConsoleRobot>('POST', `/tenants/${tenantId}/robots`, {
      name: '中文机器人',
      language: 'zh',
    });
    assert.equal(made.settings.language, 'zh', 'made from the Chinese editor: Chinese defaults');
    assert.match(made.settings.recommendText, /\p{Script=Han}/u);
    const registered = await api.ok<{ tenantId: number }>('POST', '/tenants', {
      ...tenantRequest(),
      language: 'zh',
    });
    assert.equal((await robotOf(registered.tenantId)).settings.language, 'zh');
    assert.equal((await robotOf(registered.tenantId)).name, '默认机器人', 'named in Chinese too');
  });

  test('the first robot keeps the name registration gave it, which the editor says in its language, until renamed', async () => {
    // Over the openapi, which takes no language: the English default, marked as nobody's choice.
    const { tenantId } = await registerTenantWithRobot(h.client);
    const first = await robotOf(tenantId);
    assert.equal(first.name, DEFAULT_ROBOT_NAMES.en);
    assert.ok(hasDefaultName(first), 'shown in the language of the editor');
    // From the Chinese editor: the Chinese default, marked as well.
    const zh = await api.ok<{ tenantId: number }>('POST', '/tenants', {
      ...tenantRequest(),
      language: 'zh',
    });
    const zhFirst = await robotOf(zh.tenantId);
    assert.equal(zhFirst.name, DEFAULT_ROBOT_NAMES.zh);
    assert.ok(hasDefaultName(zhFirst));
    // A name an administrator gives is theirs, shown as given; so is the default name on another robot.
    const R = `/tenants/${tenantId}/robots/default`;
    const renamed = await api.ok<ConsoleRobot>('PATCH', R, { name: '售后机器人' });
    assert.equal(renamed.name, '售后机器人');
    assert.ok(!hasDefaultName(renamed));
    const other = await api.ok<ConsoleRobot>('POST', `/tenants/${tenantId}/robots`, {
      name: DEFAULT_ROBOT_NAMES.en,
    });
    assert.ok(!hasDefaultName(other), 'a robot created with that name was named by someone');
  });

  test('categories: created, renamed, merged and deleted, with counts; rules keep their ids', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    const R = `/tenants/${tenantId}/robots/default`;
    const made = (
      await robot.importRules([
        ruleInput('甲', ['问甲']),
        ruleInput('乙', ['问乙']),
        ruleInput('丙', ['问丙']),
      ])
    ).succeed.map((r) => r.ruleId);
    const sales = await api.ok<ConsoleCategory>('POST', `${R}/categories`, { name: '售前' });
    assert.deepEqual([sales.name, sales.rules], ['售前', 0]);
    const taken = await api.call<{ field: string }>('POST', `${R}/categories`, { name: ' 售前 ' });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'category-name-taken');
    await api.ok('POST', `${R}/rules/set-category`, {
      ruleIds: made.slice(0, 2),
      categoryId: sales.categoryId,
    });
    await api.ok('POST', `${R}/rules/set-category`, { ruleIds: [made[2]], category: '售后' });
    const list = async () =>
      (await api.ok<{ categories: ConsoleCategory[] }>('GET', `${R}/categories`)).categories;
    assert.deepEqual(
      (await list()).map((c) => [c.name, c.rules]),
      [
        ['售前', 2],
        ['售后', 1],
      ],
    );
    const after = (await list()).find((c) => c.name === '售后') as ConsoleCategory;
    assert.equal((await robot.getRule(made[2] ?? '')).ruleCategoryId, after.categoryId);
    const unknown = await api.call('POST', `${R}/rules/set-category`, {
      ruleIds: made,
      categoryId: '999999',
    });
    assert.equal(unknown.status, 400);
    await api.ok('PATCH', `${R}/categories/${sales.categoryId}`, { name: '咨询' });
    const rule = await api.ok<ConsoleRule>('GET', `${R}/rules/${made[0]}`);
    assert.equal(rule.categoryName, '咨询', 'a rename reaches every rule in it');
    assert.deepEqual(
      await api.ok('POST', `${R}/categories/merge`, {
        from: [after.categoryId],
        into: sales.categoryId,
      }),
      { moved: 1 },
    );
    assert.deepEqual(
      (await list()).map((c) => [c.name, c.rules]),
      [['咨询', 3]],
    );
    assert.deepEqual(await api.ok('DELETE', `${R}/categories/${sales.categoryId}`), {
      uncategorized: 3,
    });
    assert.deepEqual(await list(), []);
    assert.equal((await robot.getRule(made[0] ?? '')).ruleCategoryId, '');
    assert.equal((await api.call('DELETE', `${R}/categories/${sales.categoryId}`)).status, 404);
  });

  test('rules show their effective state; the list filters by it; try asks as of a date', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    const R = `/tenants/${tenantId}/robots/default`;
    const [now, off, later, over] = (
      await robot.importRules([
        ruleInput('现在', ['现在有效吗']),
        ruleInput('停用', ['停用了吗']),
        ruleInput('以后', ['以后才有效吗']),
        ruleInput('过期', ['已经过期了吗']),
      ])
    ).succeed.map((r) => r.ruleId);
    const inAWeek = new Date(clock + 7 * DAY).toISOString();
    const aWeekAgo = new Date(clock - 7 * DAY).toISOString();
    await api.ok('POST', `${R}/rules/set-active`, { ruleIds: [off], active: false });
    await api.ok('PATCH', `${R}/rules/${later}`, { effectBeignDate: inAWeek });
    await api.ok('PATCH', `${R}/rules/${over}`, { effectEndDate: aWeekAgo });
    const states = (await api.ok<RulePage>('GET', `${R}/rules`)).rows.map((r) => [
      r.ruleName,
      r.state,
    ]);
    assert.deepEqual(states, [
      ['现在', 'active'],
      ['停用', 'inactive'],
      ['以后', 'scheduled'],
      ['过期', 'expired'],
    ]);
    for (const [state, ids] of [
      ['active', [now]],
      ['inactive', [off]],
      ['scheduled', [later]],
      ['expired', [over]],
    ] as const) {
      const page = await api.ok<RulePage>('GET', `${R}/rules?state=${state}`);
      assert.deepEqual(
        page.rows.map((r) => r.ruleId),
        ids,
        state,
      );
    }
    const today = await api.ok<TryResult>('POST', `${R}/try`, { question: '以后才有效吗' });
    assert.notEqual(today.result.answer, 'Answer for 以后');
    const nextMonth = await api.ok<TryResult>('POST', `${R}/try`, {
      question: '以后才有效吗',
      asOf: new Date(clock + 30 * DAY).toISOString(),
    });
    assert.equal(nextMonth.result.answer, 'Answer for 以后', 'in its window then');
  });

  test('a deleted robot answers 404 and leaves the workspace; restored, it answers again', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    await robot.importRules([ruleInput('营业时间', ['几点开门'], '九点。')]);
    const R = `/tenants/${tenantId}/robots/default`;
    const { purgeAfter } = await api.ok<{ purgeAfter: string }>('DELETE', R);
    assert.equal(Date.parse(purgeAfter), clock + 30 * DAY);
    const refused = await robot.send('POST', '/robot/ask', {
      body: { userId: 'u', question: '几点开门', channel: 'API', questionType: 'TEXT' },
    });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.code, 'robot-not-found');
    const trash = await api.ok<ConsoleTrash>('GET', '/trash');
    assert.ok(trash.robots.some((r) => r.tenantId === tenantId && r.robotId === 'default'));
    await api.ok('POST', `${R}/restore`);
    assert.equal((await robot.ask('几点开门')).answer, '九点。');
    assert.equal((await robotOf(tenantId)).ruleCount, 1);
  });

  test('a deleted tenant and administrator come back from the trash; after 30 days they are gone', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    const T = `/tenants/${tenantId}`;
    const user = await api.ok<{ userId: string }>('POST', `${T}/users`, {
      username: 'editor_1',
      password: 'secret123',
      role: 'ADMIN',
    });
    await api.ok('DELETE', `${T}/users/${user.userId}`);
    await api.ok('POST', `${T}/users`, {
      username: 'editor_1',
      password: 'secret123',
      role: 'ADMIN',
    });
    const clash = await api.call('POST', `${T}/users/${user.userId}/restore`);
    assert.equal(clash.status, 409, 'the username was taken since');
    await api.ok('DELETE', T);
    assert.equal((await robot.send('GET', '/kb/rules')).status, 404);
    const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
    assert.equal(
      workspace.tenants.some((t) => t.tenantId === tenantId),
      false,
    );
    assert.ok(
      (await api.ok<ConsoleTrash>('GET', '/trash')).tenants.some((t) => t.tenantId === tenantId),
    );
    await api.ok('POST', `${T}/restore`);
    assert.equal((await robot.send('GET', '/kb/rules')).status, 200);
    await api.ok('DELETE', T);
    clock += 31 * DAY;
    await h.restart(); // a start purges what was deleted over 30 days ago
    api = consoleClient(h.service.url, h.service.consoleToken);
    const trash = await api.ok<ConsoleTrash>('GET', '/trash');
    assert.equal(
      trash.tenants.some((t) => t.tenantId === tenantId),
      false,
      'purged',
    );
    assert.equal((await api.call('POST', `${T}/restore`)).status, 404);
  });
});
