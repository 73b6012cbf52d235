/**
 * Small talk (module CHAT) over real HTTP: answered when no rule matches better, never over a
 * rule that matches; per robot on or off, persona name and own answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRobot, TryResult } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('small talk', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;

  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    await robot.importRules([
      ruleInput('Reset password', ['How do I reset my password?', 'I forgot my password']),
      ruleInput('退货', ['怎么退货', '我想退货'], '七天内可无理由退货。'),
      // A rule of the knowledge base that is itself a greeting: it must win over small talk.
      ruleInput('Store greeting', ['good morning'], 'Good morning from the Example Store!'),
    ]);
  });
  after(() => h.close());

  test('small talk is answered with module CHAT, in the language it was asked in', async () => {
    const en = await robot.ask('Thank you so much!');
    assert.equal(en.module, 'CHAT');
    assert.equal(en.answerType, 'BESTMATCH');
    assert.equal(en.answerContentType, 'TEXT');
    assert.equal(en.items, null);
    assert.ok(en.score >= 0.9 && en.score <= 1);
    assert.match(en.answer, /welcome/i);
    const zh = await robot.ask('你是谁');
    assert.equal(zh.module, 'CHAT');
    assert.match(zh.answer, /我是/);
    const insult = await robot.ask('you are stupid');
    assert.equal(insult.module, 'CHAT');
    assert.match(insult.answer, /sorry/i, 'insults are answered politely');
  });

  test('never over a rule that matches, and never on knowledge-base questions', async () => {
    const greeting = await robot.ask('Good morning');
    assert.equal(greeting.module, 'KB');
    assert.equal(greeting.answer, 'Good morning from the Example Store!');
    const kb = await robot.ask('hi, I forgot my password');
    assert.equal(kb.module, 'KB');
    const zh = await robot.ask('你好，我想退货');
    assert.equal(zh.module, 'KB');
    assert.notEqual((await robot.ask('do you sell laptops')).module, 'CHAT');
  });

  test('the try pane names the small-talk intent', async () => {
    const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: 'hello' });
    assert.equal(tried.result.module, 'CHAT');
    assert.deepEqual(tried.smallTalk, { intent: 'greeting.en', question: 'hello' });
  });

  test('persona name and own answers are robot settings', async () => {
    const patched = await api.ok<ConsoleRobot>('PATCH', R, {
      settings: {
        persona: 'Kiki',
        chitChatAnswers: { 'thanks.zh': '不用谢，{persona}随时为您服务！' },
      },
    });
    assert.equal(patched.settings.persona, 'Kiki');
    assert.match((await robot.ask('who are you')).answer, /Kiki/);
    assert.equal((await robot.ask('谢谢')).answer, '不用谢，Kiki随时为您服务！');
    const bad = await api.call<{ field: string }>('PATCH', R, {
      settings: { chitChatAnswers: { greeting: 'no language' } },
    });
    assert.equal(bad.status, 400);
  });

  test('switched off, small talk gets the fallback; back on, small talk again', async () => {
    await api.ok('PATCH', R, { settings: { chitChat: false } });
    const off = await robot.ask('hello');
    assert.equal(off.module, 'NONE');
    await api.ok('PATCH', R, { settings: { chitChat: null } });
    assert.equal((await robot.ask('hello')).module, 'CHAT', 'on by default');
  });
});
