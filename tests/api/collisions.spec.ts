/**
 * The collision check over the console API: the editor learns which phrasings the robot answers
 * with another rule (checked by asking) and which rules are the same question twice, named as it
 * shows them, by cause. What the report says about asking, asking the ask API bears out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CollisionFinding, RobotCollisions } from '../../electron/service/console-types';
import { PLANTED, shopKnowledgeBase } from '../fixtures/shop-kb';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('collision check (console API)', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
  });
  after(() => h.close());

  test('a misplaced phrasing and two near-duplicate rules are reported with their names', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    await robot.importRules([
      ruleInput('退款', ['怎么退款', '退款多久到账', '申请退款', '发票怎么开具'], '原路退回。'),
      ruleInput('发票', ['怎么开发票', '发票怎么开', '电子发票在哪里下载'], '在订单页开具。'),
      ruleInput('营业时间', ['你们几点开门', '营业时间是什么时候'], '九点到六点。'),
      ruleInput('挂失', ['我的银行卡丢了怎么办'], '请致电挂失。'),
      ruleInput('银行卡丢失', ['我的银行卡丢了该怎么办'], '请尽快挂失。'),
    ]);
    const report = await api.ok<RobotCollisions>(
      'GET',
      `/tenants/${tenantId}/robots/default/collisions`,
    );
    assert.equal(report.complete, true);
    assert.ok(report.probed >= 12, `probed ${report.probed}`);
    // Asked as written, 发票怎么开具 gets 退款 (its own rule): a risk, not a claim it gets 发票.
    assert.equal((await robot.ask('发票怎么开具')).answer, '原路退回。');
    const misplaced = report.findings.find((f) => f.question === '发票怎么开具');
    assert.ok(misplaced, JSON.stringify(report.findings));
    assert.ok(['reads-like-other', 'near-duplicate'].includes(misplaced.cause), misplaced.cause);
    assert.equal(misplaced.ruleName, '退款');
    assert.equal(misplaced.otherRuleName, '发票');
    assert.equal(misplaced.asked, undefined);
    assert.ok(!report.findings.some((f) => f.cause === 'asked-elsewhere'));
    assert.ok(
      !report.findings.some((f) => [f.ruleName, f.otherRuleName].includes('营业时间')),
      JSON.stringify(report.findings),
    );
    const twins = report.findings.find(
      (f) => f.cause === 'near-duplicate' && [f.ruleName, f.otherRuleName].includes('挂失'),
    );
    assert.ok(twins, JSON.stringify(report.findings));
    assert.deepEqual([twins.ruleName, twins.otherRuleName].sort(), ['挂失', '银行卡丢失'].sort());
  });

  test('a robot without rules has nothing to report; an unknown robot is a 404', async () => {
    const { tenantId } = await registerTenantWithRobot(h.client);
    const empty = await api.ok<RobotCollisions>(
      'GET',
      `/tenants/${tenantId}/robots/default/collisions`,
    );
    const { checkedAt, ...rest } = empty;
    assert.deepEqual(rest, {
      probed: 0,
      complete: true,
      findings: [],
      reused: false,
    });
    assert.ok(!Number.isNaN(Date.parse(checkedAt)), checkedAt);
    const missing = await api.call('GET', `/tenants/${tenantId}/robots/nope/collisions`);
    assert.equal(missing.status, 404);
  });
});

describe('collision check: the last report is reused while the rules are unchanged', () => {
  const start = Date.UTC(2026, 10, 24, 9, 0, 0);
  let clock = start;
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  before(async () => {
    h = await startTestService({ now: () => clock });
    api = consoleClient(h.service.url, h.service.consoleToken);
  });
  after(() => h.close());

  test('a second request is answered from the last check; an edit or a rule leaving its window checks again', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    const path = `/tenants/${tenantId}/robots/default/collisions`;
    await robot.importRules([
      ruleInput('退款', ['怎么退款', '退款多久到账', '申请退款'], '原路退回。'),
      ruleInput('营业时间', ['你们几点开门', '营业时间是什么时候'], '九点到六点。'),
      ruleInput('挂失', ['我的银行卡丢了怎么办'], '请致电挂失。'),
    ]);
    // Answered for the first hour only (the editor sets the window; the openapi import does not).
    await api.ok('POST', `/tenants/${tenantId}/robots/default/rules`, {
      ruleName: '银行卡丢失',
      questions: ['我的银行卡丢了该怎么办'],
      answer: '请尽快挂失。',
      effectEndDate: new Date(start + 3_600_000).toISOString(),
    });
    const first = await api.ok<RobotCollisions>('GET', path);
    assert.equal(first.reused, false);
    assert.equal(first.checkedAt, new Date(start).toISOString());
    assert.ok(first.findings.some((f) => [f.ruleName, f.otherRuleName].includes('挂失')));

    // A minute later, nothing written: the same report, stamped with the first check's time
    // (a new check would carry the service's clock of now).
    clock = start + 60_000;
    const second = await api.ok<RobotCollisions>('GET', path);
    assert.equal(second.reused, true);
    assert.equal(second.checkedAt, first.checkedAt);
    assert.deepEqual({ ...second, reused: false }, first);

    // A write to the robot's rules: checked again, and the new near-duplicate is found.
    clock = start + 120_000;
    await robot.importRules([ruleInput('几点开门', ['你们几点开门呢'], '九点。')]);
    const afterEdit = await api.ok<RobotCollisions>('GET', path);
    assert.equal(afterEdit.reused, false);
    assert.equal(afterEdit.checkedAt, new Date(clock).toISOString());
    assert.ok(
      afterEdit.findings.some((f) => [f.ruleName, f.otherRuleName].includes('几点开门')),
      JSON.stringify(afterEdit),
    );
    clock = start + 180_000;
    assert.equal((await api.ok<RobotCollisions>('GET', path)).reused, true);

    // No write, but a rule's effective window ends: the eligible rules changed, checked again.
    clock = start + 2 * 3_600_000;
    const afterWindow = await api.ok<RobotCollisions>('GET', path);
    assert.equal(afterWindow.reused, false);
    assert.equal(afterWindow.checkedAt, new Date(clock).toISOString());
  });
});

describe('collision check: a templated shop knowledge base (console and ask API)', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
  });
  after(() => h.close());

  test('rules told apart by the product word are not in conflict; every claim is what asking gives', async () => {
    const { tenantId, robot } = await registerTenantWithRobot(h.client);
    const R = `/tenants/${tenantId}/robots/default`;
    const { rules } = shopKnowledgeBase();
    // Each rule's answer names it: the ask API's answer tells which rule answered.
    const answerOf = (ruleName: string) => `${ruleName}：请见说明。`;
    const plain = rules.filter((rule) => rule.negativeKeywords === undefined);
    for (let i = 0; i < plain.length; i += 100) {
      await robot.importRules(
        plain
          .slice(i, i + 100)
          .map((r) => ruleInput(r.ruleName, r.questions, answerOf(r.ruleName))),
      );
    }
    for (const rule of rules.filter((r) => r.negativeKeywords !== undefined)) {
      await api.ok('POST', `${R}/rules`, {
        ruleName: rule.ruleName,
        questions: rule.questions,
        answer: answerOf(rule.ruleName),
        negativeKeywords: rule.negativeKeywords,
      });
    }
    const report = await api.ok<RobotCollisions>('GET', `${R}/collisions`);
    assert.equal(report.complete, true);

    // At most 10% of the rules flagged (the grid's conflicts filter), none for its product word.
    const flagged = new Set(report.findings.flatMap((f) => [f.ruleName, f.otherRuleName]));
    assert.ok(flagged.size <= rules.length / 10, `${flagged.size}: ${[...flagged].join(' ')}`);
    const category = new Map(rules.map((r) => [r.ruleName, r.category]));
    // A templated rule's name is its category and its topic (服装 + 退货政策).
    const topic = (name: string) => {
      const prefix = category.get(name) ?? '';
      return name.startsWith(prefix) ? name.slice(prefix.length) : name;
    };
    for (const f of report.findings) {
      if (f.cause === 'slot-unnamed') continue;
      assert.ok(
        topic(f.ruleName) !== topic(f.otherRuleName) || f.ruleName === f.otherRuleName,
        `rules of one template in conflict: ${JSON.stringify(f)}`,
      );
    }

    // Every statement about asking, asked.
    const answered = async (question: string): Promise<string | null> => {
      const result = await robot.ask(question);
      return result.answerType === 'BESTMATCH' && result.module === 'KB' ? result.answer : null;
    };
    const nameOf = (f: CollisionFinding, ruleId: string | null | undefined) =>
      ruleId === f.ruleId ? f.ruleName : ruleId === f.otherRuleId ? f.otherRuleName : '';
    let claims = 0;
    for (const f of report.findings) {
      if (f.cause === 'near-duplicate') continue;
      claims += 1;
      const said = JSON.stringify(f);
      if (f.cause === 'asked-elsewhere') {
        assert.equal(await answered(f.question), answerOf(f.otherRuleName), said);
      } else if (f.cause === 'asked-unanswered') {
        assert.notEqual(await answered(f.question), answerOf(f.ruleName), said);
      } else if (f.cause === 'slot-unnamed') {
        assert.ok(f.asked, said);
        assert.equal(await answered(f.asked.question), answerOf(nameOf(f, f.asked.ruleId)), said);
      } else {
        assert.equal(await answered(f.question), answerOf(f.ruleName), said);
      }
    }
    assert.ok(claims > 0, 'the planted conflicts make claims');

    // The planted conflicts are found.
    const between = (a: string, b: string) =>
      report.findings.filter(
        (f) => [f.ruleName, f.otherRuleName].sort().join() === [a, b].sort().join(),
      );
    const [contact, human] = PLANTED.sharedPhrasing;
    assert.ok(between(contact, human).some((f) => f.cause === 'asked-unanswered'));
    const [address, delivery] = PLANTED.duplicate;
    assert.ok(between(address, delivery).length > 0, 'the rule written twice');
    const excluded = report.findings.find(
      (f) => f.question === PLANTED.excludedByOwnKeyword.question,
    );
    assert.equal(excluded?.keyword, '分期');
  });
});
