/**
 * What the question log records of answers beyond plain matches, over real HTTP: menu
 * follow-ups (a reply choosing a menu entry), MENU answers, and the published version that
 * answered in review mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRobot, ConsoleRule, TryResult } from '../../electron/service/console-types';
import type {
  Dashboard,
  InboxGroup,
  LoggedQuestion,
  QuestionLogPage,
  RuleAnalytics,
  RuleHits,
} from '../../electron/service/question-log-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('question log: menus and versions', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  let returns: ConsoleRule;
  let refunds: ConsoleRule;
  let menu: ConsoleRule;

  const make = (rule: Record<string, unknown>) => api.ok<ConsoleRule>('POST', `${R}/rules`, rule);
  /** The newest entries, newest first. */
  const latest = async (count: number, query = ''): Promise<LoggedQuestion[]> =>
    (await api.ok<QuestionLogPage>('GET', `${R}/question-log?limit=${count}${query}`)).entries;
  const hitsOf = async (ruleId: string) =>
    (await api.ok<{ rules: RuleHits[] }>('GET', `${R}/rule-hits`)).rules.find(
      (rule) => rule.ruleId === ruleId,
    );

  before(async () => {
    h = await startTestService({ now: () => clock.now });
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    returns = await make({
      ruleName: '退货流程',
      questions: ['怎么退货'],
      answer: '七天内可无理由退货。',
    });
    refunds = await make({
      ruleName: '退款到账时间',
      questions: ['退款多久到账'],
      answer: '退款 1–3 个工作日原路退回。',
    });
    menu = await make({
      ruleName: '售后服务',
      questions: ['我要售后'],
      answer: '请选择您需要的售后服务：',
      menu: [
        { ruleId: returns.ruleId, text: '退货' },
        { ruleId: refunds.ruleId, text: '退款进度' },
      ],
    });
  });
  after(() => h.close());

  test('a MENU answer is logged as its rule answering, with no recommendation', async () => {
    const shown = await robot.ask('我要售后', 'menu-user');
    assert.equal(shown.answerType, 'MENU');
    const [entry] = await latest(1);
    assert.equal(entry?.answerType, 'MENU');
    assert.equal(entry?.module, 'KB');
    assert.equal(entry?.ruleId, menu.ruleId);
    assert.deepEqual(entry?.recommended, [], 'menu entries are no "did you mean" list');
    assert.equal(entry?.menuEntry, null);
    assert.equal((await hitsOf(menu.ruleId))?.hits, 1);
  });

  test('a reply choosing a menu entry is logged with the rule, the entry and who asked', async () => {
    clock.now += 1000;
    const chosen = await robot.ask('2', 'menu-user');
    assert.equal(chosen.answer, '退款 1–3 个工作日原路退回。');
    const [entry] = await latest(1);
    assert.deepEqual(entry, {
      at: clock.now,
      userId: 'menu-user',
      channel: 'API',
      question: '2',
      answerType: 'BESTMATCH',
      module: 'KB',
      score: 1,
      ruleId: refunds.ruleId,
      recommended: [],
      version: null,
      source: 'api',
      chosenFrom: null,
      menuEntry: 2,
    });
    // By text too (the menu stays open).
    clock.now += 1000;
    await robot.ask('退货', 'menu-user');
    const [byText] = await latest(1);
    assert.equal(byText?.ruleId, returns.ruleId);
    assert.equal(byText?.menuEntry, 1);
    // A hit of the rule, counted apart as a menu reply.
    const hits = await hitsOf(refunds.ruleId);
    assert.equal(hits?.hits, 1);
    assert.equal(hits?.fromMenu, 1);
    assert.equal(hits?.lastHit, clock.now - 1000);
    const analytics = await api.ok<RuleAnalytics>('GET', `${R}/analytics`);
    assert.ok(!analytics.neverHit.includes(refunds.ruleId));
    assert.ok(!analytics.neverHit.includes(returns.ruleId));
    assert.deepEqual(analytics.confusable, []);
  });

  test('menu replies count as answered, but are neither top questions nor missed', async () => {
    const board = await api.ok<Dashboard>('GET', `${R}/dashboard?days=1`);
    assert.deepEqual(board.days.at(-1), {
      day: '2026-11-02',
      total: 3,
      answered: 3,
      recommended: 0,
      fallback: 0,
      chat: 0,
      menu: 2,
    });
    assert.deepEqual(
      board.topQuestions.map((q) => q.question),
      ['我要售后'],
    );
    const { groups } = await api.ok<{ groups: InboxGroup[] }>('GET', `${R}/inbox`);
    assert.deepEqual(groups, []);
    // The CSV says which entry was chosen.
    const response = await fetch(`${h.service.url}/console/api${R}/question-log/export.csv`, {
      headers: { authorization: `Bearer ${h.service.consoleToken}` },
    });
    const lines = (await response.text()).trimEnd().split('\r\n');
    assert.match(lines[0] ?? '', /,menuEntry$/);
    assert.match(lines[2] ?? '', /^[^,]+,menu-user,API,api,2,BESTMATCH,KB,1,[^,]+,,,,2$/);
  });

  test('the try pane’s menu replies are logged too, as the try pane’s', async () => {
    await api.ok<TryResult>('POST', `${R}/try`, { question: '我要售后', userId: 'pane' });
    const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: '1', userId: 'pane' });
    assert.equal(tried.chosen?.ruleId, returns.ruleId);
    const [entry] = await latest(1);
    assert.equal(entry?.source, 'try');
    assert.equal(entry?.menuEntry, 1);
    assert.equal(entry?.ruleId, returns.ruleId);
    assert.equal((await hitsOf(returns.ruleId))?.hits, 1, 'the editor’s own tries are no hits');
  });

  test('in review mode every ask logs the published version that answered', async () => {
    await api.ok<ConsoleRobot>('PATCH', R, { settings: { publishMode: 'review' } });
    await robot.ask('怎么退货', 'v-user');
    assert.equal((await latest(1))[0]?.version, 1);
    await api.ok('PATCH', `${R}/rules/${refunds.ruleId}`, { answer: '退款三天内到账。' });
    // The draft's change is not answered yet, and the log says version 1 answered.
    assert.equal((await robot.ask('退款多久到账', 'v-user')).answer, '退款 1–3 个工作日原路退回。');
    assert.equal((await latest(1))[0]?.version, 1);
    await api.ok('POST', `${R}/versions`, { note: 'refunds', author: 'admin' });
    assert.equal((await robot.ask('退款多久到账', 'v-user')).answer, '退款三天内到账。');
    assert.equal((await latest(1))[0]?.version, 2);
    // A menu reply is answered by the published version too, and says so.
    await robot.ask('我要售后', 'v-user');
    const reply = await robot.ask('2', 'v-user');
    assert.equal(reply.answer, '退款三天内到账。');
    const [entry] = await latest(1);
    assert.equal(entry?.menuEntry, 2);
    assert.equal(entry?.version, 2);
    // The try pane: the draft is no version; the published edition is.
    await api.ok('POST', `${R}/try`, { question: '怎么退货' });
    assert.equal((await latest(1))[0]?.version, null);
    await api.ok('POST', `${R}/try`, { question: '怎么退货', edition: 'published' });
    assert.equal((await latest(1))[0]?.version, 2);
    // After a restart the published index is rebuilt from the latest version, and says which.
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    robot = h.client.robot(robot.tenantId, robot.robotId, robot.robotSecret);
    await robot.ask('怎么退货', 'v-user');
    assert.equal((await latest(1))[0]?.version, 2);
    // Back to live mode, the draft answers: no version.
    await api.ok<ConsoleRobot>('PATCH', R, { settings: { publishMode: 'live' } });
    await robot.ask('怎么退货', 'v-user');
    assert.equal((await latest(1))[0]?.version, null);
  });
});

describe('inbox in review mode', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  after(() => h.close());

  test('a fixed group stays out while the published version still misses it, until the publish', async () => {
    h = await startTestService({ now: () => clock.now });
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    const R = `/tenants/${tenantId}/robots/default`;
    const { succeed } = await robot.importRules([
      ruleInput('delivery', ['How long does delivery take'], 'Two days.'),
    ]);
    const ruleId = succeed[0]?.ruleId ?? '';
    await api.ok<ConsoleRobot>('PATCH', R, { settings: { publishMode: 'review' } });
    const inbox = async () => (await api.ok<{ groups: InboxGroup[] }>('GET', `${R}/inbox`)).groups;

    assert.equal((await robot.ask('when will my parcel arrive', 'a')).module, 'NONE');
    assert.equal((await inbox()).length, 1);
    await api.ok('POST', `${R}/inbox/add-phrasings`, {
      key: 'when will my parcel arrive',
      ruleId,
      questions: ['when will my parcel arrive'],
    });
    assert.deepEqual(await inbox(), []);
    // Version 1 answers until the fix is published: its misses are not news.
    clock.now += 60_000;
    const stillMissed = await robot.ask('when will my parcel arrive', 'b');
    assert.equal(stillMissed.module, 'NONE');
    assert.equal((await latestOf(api, R))?.version, 1);
    assert.deepEqual(await inbox(), [], 'a miss of the version before the fix');

    await api.ok('POST', `${R}/versions`, { note: 'parcel', author: 'admin' });
    clock.now += 60_000;
    const fixed = await robot.ask('when will my parcel arrive', 'c');
    assert.equal(fixed.answer, 'Two days.');
    assert.deepEqual(await inbox(), []);
    // Missed again by a version with the fix (the phrasing removed since): it comes back.
    await api.ok('PATCH', `${R}/rules/${ruleId}`, { questions: ['How long does delivery take'] });
    await api.ok('POST', `${R}/versions`, { note: 'undo', author: 'admin' });
    clock.now += 60_000;
    assert.equal((await robot.ask('when will my parcel arrive', 'd')).module, 'NONE');
    const [back] = await inbox();
    assert.equal(back?.key, 'when will my parcel arrive');
    assert.equal(back?.count, 1);
  });
});

async function latestOf(api: ReturnType<typeof consoleClient>, R: string) {
  return (await api.ok<QuestionLogPage>('GET', `${R}/question-log?limit=1`)).entries[0];
}
