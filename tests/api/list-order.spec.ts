/**
 * The list route reads a page by seeking to its first rule (the robot's creation order is kept in
 * memory, see domain/rule-order.ts). These tests hold it against the console's query, which pages
 * with SQL OFFSET, through every write that adds or removes rules, with two robots whose rules
 * interleave in the table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRule, RulePage } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('list pages follow every write (deep pages seek, not OFFSET)', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let a: RobotClient;
  let b: RobotClient;

  const consolePath = (robot: RobotClient) => `/tenants/${robot.tenantId}/robots/${robot.robotId}`;

  /** Every page of the list route, at several page sizes, equals the console's OFFSET pages. */
  async function assertPagesAgree(robot: RobotClient): Promise<number> {
    const all = await api.ok<RulePage>('GET', `${consolePath(robot)}/rules?limit=1000`);
    const expected = all.rows.map((r) => r.ruleId);
    for (const pageSize of [1, 7, 50]) {
      const seen: string[] = [];
      for (let page = 0; ; page++) {
        const { list, totalCount } = await robot.listRules(page, pageSize);
        assert.equal(totalCount, all.total, `totalCount at page ${page} of ${pageSize}`);
        if (list.length === 0) break;
        seen.push(...list.map((r) => r.ruleId));
      }
      assert.deepEqual(seen, expected, `pages of ${pageSize}`);
    }
    const past = await robot.listRules(1000, 20);
    assert.deepEqual(past, { list: [], totalCount: all.total });
    return all.total;
  }

  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    ({ robot: a } = await registerTenantWithRobot(h.client));
    const other = await h.client.createRobot(a.tenantId, 'second');
    b = h.client.robot(a.tenantId, other.robotId, other.robotSecret);
    // Interleaved imports: each robot's rule_seq values have gaps where the other's rules are.
    const batch = (robot: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        ruleInput(`${robot} ${from + i}`, [`${robot} question ${from + i}`]),
      );
    await a.importRules(batch('a', 0, 20));
    await b.importRules(batch('b', 0, 15));
    await a.importRules(batch('a', 20, 20));
    await b.importRules(batch('b', 15, 15));
    await a.importRules(batch('a', 40, 15));
  });
  after(() => h.close());

  test('after imports, for both robots', async () => {
    assert.equal(await assertPagesAgree(a), 55);
    assert.equal(await assertPagesAgree(b), 30);
  });

  test('after deletes at the start, middle and end, and their undo', async () => {
    const rows = (await api.ok<RulePage>('GET', `${consolePath(a)}/rules?limit=1000`)).rows;
    const doomed = [rows[0], rows[21], rows[22], rows[54]] as ConsoleRule[];
    await api.ok('POST', `${consolePath(a)}/rules/delete`, {
      ruleIds: doomed.map((r) => r.ruleId),
    });
    assert.equal(await assertPagesAgree(a), 51);
    assert.equal(await assertPagesAgree(b), 30, 'the other robot is untouched');
    await api.ok('POST', `${consolePath(a)}/rules/restore`, {
      ruleIds: doomed.map((rule) => rule.ruleId),
    });
    assert.equal(await assertPagesAgree(a), 55);
    const again = (await api.ok<RulePage>('GET', `${consolePath(a)}/rules?limit=1000`)).rows;
    assert.deepEqual(
      again.map((r) => r.ruleId),
      rows.map((r) => r.ruleId),
      'undo puts the rules back in their places',
    );
  });

  test('after a bulk delete, a rule made in the editor and another import', async () => {
    const rows = (await api.ok<RulePage>('GET', `${consolePath(a)}/rules?limit=1000`)).rows;
    await api.ok('POST', `${consolePath(a)}/rules/delete`, {
      ruleIds: rows.filter((_, i) => i % 3 === 1).map((r) => r.ruleId),
    });
    assert.equal(await assertPagesAgree(a), 37);
    await api.ok('POST', `${consolePath(a)}/rules`, {
      ruleName: 'made in the editor',
      questions: ['editor question'],
      answer: 'editor answer',
    });
    await a.importRules([ruleInput('imported last', ['last question'])]);
    assert.equal(await assertPagesAgree(a), 39);
    const last = await a.listRules(38, 1);
    assert.equal(last.list[0]?.ruleName, 'imported last');
    assert.equal(await assertPagesAgree(b), 30);
  });

  test('after a restart', async () => {
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    a = h.client.robot(a.tenantId, a.robotId, a.robotSecret);
    b = h.client.robot(b.tenantId, b.robotId, b.robotSecret);
    assert.equal(await assertPagesAgree(a), 39);
    assert.equal(await assertPagesAgree(b), 30);
  });
});
