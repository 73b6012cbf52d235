/**
 * Menus (MENU answers and their follow-ups by number and by text, per user), match policies
 * (exact, contains, negative keywords) and allowSimGen, over real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { MenuItem } from '../../electron/service/api-types';
import type { ConsoleRule, TryResult } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('menus and match policies', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  const make = (rule: Record<string, unknown>) => api.ok<ConsoleRule>('POST', `${R}/rules`, rule);

  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
  });
  after(() => h.close());

  describe('menus', () => {
    let returns: ConsoleRule;
    let refunds: ConsoleRule;
    let shipping: ConsoleRule;
    let menu: ConsoleRule;
    before(async () => {
      returns = await make({
        ruleName: '退货流程',
        questions: ['怎么退货', '退货流程是什么'],
        answer: '在订单页点“申请退货”，七天内可无理由退货。',
      });
      refunds = await make({
        ruleName: '退款到账时间',
        questions: ['退款多久到账', '退款什么时候到'],
        answer: '退款 1–3 个工作日原路退回。',
      });
      shipping = await make({
        ruleName: 'Shipping times',
        questions: ['How long does shipping take?'],
        answer: 'Orders arrive in 3–5 business days.',
      });
      menu = await make({
        ruleName: '售后服务',
        questions: ['售后服务', '我要售后', '售后有哪些服务'],
        answer: '请选择您需要的售后服务：',
        menu: [
          { ruleId: returns.ruleId, text: '退货' },
          { ruleId: refunds.ruleId, text: '退款进度' },
          { ruleId: shipping.ruleId, text: 'Shipping' },
        ],
      });
    });

    test('asking the rule answers MENU with the introduction and numbered entries', async () => {
      const result = await robot.ask('我要售后', 'menu-user-1');
      assert.equal(result.answerType, 'MENU');
      assert.equal(result.answerContentType, 'TEXT');
      assert.equal(result.module, 'KB');
      assert.equal(result.answer, '请选择您需要的售后服务：');
      assert.equal(result.score, 1);
      assert.deepEqual(result.items as MenuItem[], [
        { number: 1, ruleId: returns.ruleId, question: '退货', score: 1 },
        { number: 2, ruleId: refunds.ruleId, question: '退款进度', score: 1 },
        { number: 3, ruleId: shipping.ruleId, question: 'Shipping', score: 1 },
      ]);
      assert.deepEqual(Object.keys(result.items?.[0] ?? {}), [
        'number',
        'ruleId',
        'question',
        'score',
      ]);
    });

    test('the next question may be the entry number, in any common form, or its text', async () => {
      await robot.ask('售后服务', 'menu-user-2');
      const byNumber = await robot.ask('2', 'menu-user-2');
      assert.equal(byNumber.answerType, 'BESTMATCH');
      assert.equal(byNumber.module, 'KB');
      assert.equal(byNumber.score, 1);
      assert.equal(byNumber.answer, refunds.answer);
      // The menu stays open: another entry may be chosen next.
      assert.equal((await robot.ask('第一个', 'menu-user-2')).answer, returns.answer);
      assert.equal((await robot.ask('３', 'menu-user-2')).answer, shipping.answer);
      assert.equal((await robot.ask('退款进度', 'menu-user-2')).answer, refunds.answer);
      assert.equal((await robot.ask('SHIPPING!', 'menu-user-2')).answer, shipping.answer);
    });

    test('a question that chooses nothing is asked as usual and closes the menu', async () => {
      await robot.ask('售后服务', 'menu-user-3');
      const other = await robot.ask('How long does shipping take?', 'menu-user-3');
      assert.equal(other.answer, shipping.answer);
      const after = await robot.ask('1', 'menu-user-3');
      assert.notEqual(after.answer, returns.answer, 'the menu was closed by the other question');
      const outOfRange = await (async () => {
        await robot.ask('售后服务', 'menu-user-3');
        return robot.ask('7', 'menu-user-3');
      })();
      assert.notEqual(outOfRange.answerType, 'MENU');
      assert.notEqual(outOfRange.answer, returns.answer);
    });

    test('follow-ups belong to the user who was shown the menu', async () => {
      await robot.ask('售后服务', 'menu-user-4');
      const stranger = await robot.ask('2', 'someone-else');
      assert.notEqual(stranger.answer, refunds.answer);
      assert.equal((await robot.ask('2', 'menu-user-4')).answer, refunds.answer);
    });

    test('an entry whose rule is switched off is left out and cannot be chosen', async () => {
      await api.ok('PATCH', `${R}/rules/${shipping.ruleId}`, { active: false });
      try {
        const result = await robot.ask('售后服务', 'menu-user-5');
        assert.deepEqual(
          (result.items ?? []).map((item) => item.ruleId),
          [returns.ruleId, refunds.ruleId],
        );
        assert.notEqual((await robot.ask('Shipping', 'menu-user-5')).answer, shipping.answer);
      } finally {
        await api.ok('PATCH', `${R}/rules/${shipping.ruleId}`, { active: true });
      }
    });

    test('an entry must lead to a rule of the robot', async () => {
      const { status, body } = await api.call<{ field: string }>('POST', `${R}/rules`, {
        ruleName: 'broken menu',
        questions: ['broken menu'],
        answer: 'Choose:',
        menu: [{ ruleId: 'no-such-rule', text: 'x' }],
      });
      assert.equal(status, 400);
      assert.equal(body.code, 'invalid-field');
      assert.deepEqual(body.data, { field: 'menu[0].ruleId' });
    });

    test('the try pane is a conversation of its own, and says which entry was chosen', async () => {
      const first = await api.ok<TryResult>('POST', `${R}/try`, {
        question: '售后服务',
        userId: 'try-1',
      });
      assert.equal(first.result.answerType, 'MENU');
      const second = await api.ok<TryResult>('POST', `${R}/try`, {
        question: '1',
        userId: 'try-1',
      });
      assert.equal(second.result.answer, returns.answer);
      assert.deepEqual(second.chosen, { ruleId: returns.ruleId, number: 1 });
      const apiUser = await robot.ask('1', 'try-1');
      assert.notEqual(apiUser.answer, returns.answer, 'the API and the try pane do not share');
    });

    test('menus are kept across a restart, and a plain answer can be made a menu again', async () => {
      await h.restart();
      robot = h.client.robot(robot.tenantId, robot.robotId, robot.robotSecret);
      api = consoleClient(h.service.url, h.service.consoleToken);
      assert.equal((await robot.ask('售后服务', 'menu-user-6')).answerType, 'MENU');
      await api.ok('PATCH', `${R}/rules/${menu.ruleId}`, { menu: null });
      const plain = await robot.ask('售后服务', 'menu-user-6');
      assert.equal(plain.answerType, 'BESTMATCH');
      assert.equal(plain.items, null);
      const read = await api.ok<ConsoleRule>('GET', `${R}/rules/${menu.ruleId}`);
      assert.equal(read.menu, null);
    });
  });

  describe('match policies', () => {
    test('exact: answered only by a phrasing equal to the question once normalised', async () => {
      const rule = await make({
        ruleName: 'Opening hours exact',
        questions: ['opening hours'],
        answer: 'We are open 9:00–18:00.',
        matchPolicy: 'exact',
      });
      assert.equal(rule.matchPolicy, 'exact');
      const equal = await robot.ask('Opening  HOURS?');
      assert.equal(equal.answer, 'We are open 9:00–18:00.');
      assert.equal(equal.score, 1);
      const near = await robot.ask('what are your opening hours on sunday');
      assert.notEqual(near.answer, 'We are open 9:00–18:00.');
      assert.ok(!(near.items ?? []).some((item) => item.ruleId === rule.ruleId));
    });

    test('contains: answered when the question holds a phrasing anywhere', async () => {
      const rule = await make({
        ruleName: '人工客服',
        questions: ['转人工', 'human agent'],
        answer: '正在为您转接人工客服。',
        matchPolicy: 'contains',
      });
      const zh = await robot.ask('你们这个机器人太笨了我要转人工谢谢');
      assert.equal(zh.answerType, 'BESTMATCH');
      assert.equal(zh.answer, '正在为您转接人工客服。');
      assert.equal(zh.score, 0.99);
      assert.equal((await robot.ask('Can I talk to a Human Agent please')).answer, rule.answer);
      // On word boundaries in spaced scripts.
      assert.notEqual((await robot.ask('inhuman agents everywhere')).answer, rule.answer);
      const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: '我要转人工' });
      assert.equal(tried.candidates[0]?.policy, 'contains');
      assert.equal(tried.candidates[0]?.keyword, '转人工');
    });

    test('negative keywords keep a rule from answering, and the try pane says why', async () => {
      const rule = await make({
        ruleName: 'Cancel order',
        questions: ['How do I cancel my order?', 'cancel order'],
        answer: 'Open the order and tap Cancel.',
        negativeKeywords: ['subscription'],
      });
      assert.deepEqual(rule.negativeKeywords, ['subscription']);
      assert.equal((await robot.ask('How do I cancel my order?')).answer, rule.answer);
      const refused = await robot.ask('How do I cancel my order subscription?');
      assert.notEqual(refused.answer, rule.answer);
      assert.ok(!(refused.items ?? []).some((item) => item.ruleId === rule.ruleId));
      const tried = await api.ok<TryResult>('POST', `${R}/try`, {
        question: 'cancel order subscription',
      });
      assert.deepEqual(tried.excluded, [
        { ruleId: rule.ruleId, ruleName: 'Cancel order', keyword: 'subscription' },
      ]);
    });

    test('a policy is changed back to similarity and kept across a restart', async () => {
      const rule = await make({
        ruleName: 'Gift wrap',
        questions: ['gift wrap'],
        answer: 'Gift wrapping costs 2 euros.',
        matchPolicy: 'exact',
      });
      assert.notEqual((await robot.ask('do you offer gift wrap for orders')).answer, rule.answer);
      await h.restart();
      robot = h.client.robot(robot.tenantId, robot.robotId, robot.robotSecret);
      api = consoleClient(h.service.url, h.service.consoleToken);
      assert.equal((await robot.ask('gift wrap')).answer, rule.answer);
      assert.notEqual((await robot.ask('do you offer gift wrap for orders')).answer, rule.answer);
      await api.ok('PATCH', `${R}/rules/${rule.ruleId}`, { matchPolicy: 'similarity' });
      const read = await api.ok<ConsoleRule>('GET', `${R}/rules/${rule.ruleId}`);
      assert.equal(read.matchPolicy, 'similarity');
      const loose = await robot.ask('gift wrap please');
      assert.ok(
        loose.answer === rule.answer || (loose.items ?? []).some((i) => i.ruleId === rule.ruleId),
      );
    });

    test('a wrong policy is refused naming the field', async () => {
      const { status, body } = await api.call<{ field: string }>('POST', `${R}/rules`, {
        ruleName: 'bad policy',
        questions: ['bad policy'],
        answer: 'x',
        matchPolicy: 'regex',
      });
      assert.equal(status, 400);
      const problem = {
        field: 'matchPolicy',
        keyword: 'enum',
        params: { allowedValues: ['similarity', 'exact', 'contains'] },
      };
      assert.deepEqual(body.data, { ...problem, problems: [problem] });
    });
  });

  test('allowSimGen is read back by the single-rule read as set', async () => {
    const rule = await make({
      ruleName: 'Sim gen flag',
      questions: ['sim gen flag'],
      answer: 'x',
      allowSimGen: true,
    });
    assert.equal((await robot.getRule(rule.ruleId)).allowSimGen, true);
    await api.ok('PATCH', `${R}/rules/${rule.ruleId}`, { allowSimGen: false });
    assert.equal((await robot.getRule(rule.ruleId)).allowSimGen, false);
    await api.ok('PATCH', `${R}/rules/${rule.ruleId}`, { allowSimGen: null });
    assert.equal((await robot.getRule(rule.ruleId)).allowSimGen, null);
  });
});

describe('similar phrasings (allowSimGen)', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let R: string;
  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    R = `/tenants/${registered.tenantId}/robots/default`;
  });
  after(() => h.close());

  test('proposed only for a rule that allows it, new to the robot, and nothing is added', async () => {
    const other = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: '退货怎么办',
      questions: ['退货怎么办'],
      answer: '见退货政策。',
    });
    const rule = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: '退货流程',
      questions: ['怎么退货', '退款多久到账？'],
      answer: '七天无理由退货。',
    });
    const refused = await api.call<{ field: string }>('POST', `${R}/rules/${rule.ruleId}/similar`);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.data, {
      field: 'allowSimGen',
      keyword: 'const',
      params: { allowedValue: true },
    });
    await api.ok('PATCH', `${R}/rules/${rule.ruleId}`, { allowSimGen: true });
    const { proposals } = await api.ok<{ proposals: string[] }>(
      'POST',
      `${R}/rules/${rule.ruleId}/similar`,
    );
    for (const expected of ['如何退货', '请问怎么退货', '怎麼退貨', '退款多长时间到账？']) {
      assert.ok(proposals.includes(expected), `${expected} in ${proposals.join(' / ')}`);
    }
    assert.ok(!proposals.includes('退货怎么办'), 'a phrasing of another rule is not proposed');
    assert.ok(!proposals.includes('怎么退货'), 'nor one the rule has');
    const read = await api.ok<ConsoleRule>('GET', `${R}/rules/${rule.ruleId}`);
    assert.deepEqual(read.questions, ['怎么退货', '退款多久到账？'], 'nothing added');
    assert.ok(other.ruleId);
  });
});
