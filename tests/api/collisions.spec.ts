/**
 * The collision check over the console API: the editor learns which phrasings the robot answers
 * with another rule and which rules are the same question twice, named as it shows them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotCollisions } from '../../electron/service/console-types';
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
    const misplaced = report.conflicts.find((c) => c.question === '发票怎么开具');
    assert.ok(misplaced, JSON.stringify(report.conflicts));
    assert.equal(misplaced.ruleName, '退款');
    assert.equal(misplaced.otherRuleName, '发票');
    assert.ok(misplaced.otherScore > misplaced.ownScore);
    assert.ok(!report.conflicts.some((c) => c.ruleName === '营业时间'));
    const twins = report.duplicates.find((d) => d.ruleNames.includes('挂失'));
    assert.ok(twins, JSON.stringify(report.duplicates));
    assert.deepEqual([...twins.ruleNames].sort(), ['挂失', '银行卡丢失'].sort());
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
      conflicts: [],
      duplicates: [],
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
    assert.ok(first.duplicates.some((d) => d.ruleNames.includes('挂失')));

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
    const opening = afterEdit.conflicts.some((c) =>
      [c.ruleName, c.otherRuleName].includes('几点开门'),
    );
    const twins = afterEdit.duplicates.some((d) => d.ruleNames.includes('几点开门'));
    assert.ok(opening || twins, JSON.stringify(afterEdit));
    clock = start + 180_000;
    assert.equal((await api.ok<RobotCollisions>('GET', path)).reused, true);

    // No write, but a rule's effective window ends: the eligible rules changed, checked again.
    clock = start + 2 * 3_600_000;
    const afterWindow = await api.ok<RobotCollisions>('GET', path);
    assert.equal(afterWindow.reused, false);
    assert.equal(afterWindow.checkedAt, new Date(clock).toISOString());
  });
});
