/**
 * Rule ids are unique across a service's store (every tenant's rules): restoring a deleted rule
 * whose id a bundle import has taken meanwhile is a 409 `rule-exists` in the envelope, and an
 * import by an administrator signed in to one tenant gives every rule a new id, so that it tells
 * nothing of the other tenants' rules. On both stores.
 *
 * Checked to fail without the fix: the restore answered 500 `internal-error`; the signed-in
 * import kept a free id and replaced a taken one (`ruleIdsChanged` 1 of 2).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ConsoleRule, RulePage, SignInResult } from '../../electron/service/console-types';
import type { RobotBundle, RobotImportResult } from '../../electron/service/robot-bundle-types';
import { bundleOf, bundleRule } from '../helpers/bundles';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, startTestService, tenantRequest } from '../helpers/service';
import type { TestService } from '../helpers/service';

const R = (tenantId: number) => `/tenants/${tenantId}/robots/default`;

describe('restoring a rule whose id was taken meanwhile', () => {
  let h: TestService;
  let tenantId: number;
  before(async () => {
    h = await startTestService();
    ({ tenantId } = await registerTenantWithRobot(h.client));
  });
  after(() => h.close());

  test('is refused 409 rule-exists in the envelope, the rule left in the trash', async () => {
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const made = await api.ok<ConsoleRule>('POST', `${R(tenantId)}/rules`, {
      ruleName: '退货',
      questions: ['怎么退货'],
      answer: '在订单页申请退货。',
    });
    const other = await api.ok<ConsoleRule>('POST', `${R(tenantId)}/rules`, {
      ruleName: '发票',
      questions: ['怎么开发票'],
      answer: '在订单页申请发票。',
    });
    const both = [made.ruleId, other.ruleId];
    await api.ok('POST', `${R(tenantId)}/rules/delete`, { ruleIds: both });
    // A bundle imported meanwhile keeps the deleted rule's id: no live rule holds it.
    const copy = await api.ok<RobotImportResult>(
      'POST',
      `/tenants/${tenantId}/robots/import`,
      bundleOf('副本', [bundleRule(made.ruleId, '退货副本')]),
    );
    assert.equal(copy.ruleIdsChanged, 0);

    const refused = await api.call('POST', `${R(tenantId)}/rules/restore`, { ruleIds: both });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'rule-exists');
    assert.match(refused.body.msg ?? '', /id of a rule to put back/);
    const trash = await api.ok<{ rules: { ruleId: string }[] }>(
      'GET',
      `${R(tenantId)}/rules/trash`,
    );
    assert.deepEqual(
      trash.rules.map((rule) => rule.ruleId).sort(),
      [...both].sort(),
      'all or nothing: both are still in the trash',
    );
    // The other one alone comes back.
    const back = await api.ok<{ restored: number }>('POST', `${R(tenantId)}/rules/restore`, {
      ruleIds: [other.ruleId],
    });
    assert.equal(back.restored, 1);
  });
});

describe('importing a bundle, signed in to one tenant', () => {
  let h: TestService;
  let mine: number;
  let theirs: number;
  let theirRuleId: string;
  before(async () => {
    h = await startTestService({ signIn: true });
    mine = (
      await h.client.registerTenant(tenantRequest({ username: 'alice', password: 'alice-pw1' }))
    ).tenantId;
    theirs = (
      await h.client.registerTenant(tenantRequest({ username: 'bob', password: 'bob-pw12' }))
    ).tenantId;
    const bob = await editorOf(h, 'bob', 'bob-pw12');
    theirRuleId = (
      await bob.ok<ConsoleRule>('POST', `${R(theirs)}/rules`, {
        ruleName: '秘密规则',
        questions: ['只有鲍勃知道'],
        answer: '鲍勃的答案',
      })
    ).ruleId;
  });
  after(() => h.close());

  async function editorOf(service: TestService, username: string, password: string) {
    const response = await fetch(`${service.service.url}/console/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await response.json()) as { data: SignInResult | null };
    assert.equal(response.status, 200, JSON.stringify(body));
    const data = body.data as Extract<SignInResult, { status: 'signed-in' }>;
    return consoleClient(service.service.url, data.token);
  }

  test("answers the same whether another tenant holds a bundle's rule id or not", async () => {
    const alice = await editorOf(h, 'alice', 'alice-pw1');
    const bundle = (ruleId: string): RobotBundle =>
      bundleOf('探测', [
        bundleRule(ruleId, '探测规则', { menu: [{ ruleId, text: '自己' }] }),
        bundleRule('probe-free-id', '空闲'),
      ]);
    const taken = await alice.ok<RobotImportResult>(
      'POST',
      `/tenants/${mine}/robots/import`,
      bundle(theirRuleId),
    );
    const free = await alice.ok<RobotImportResult>(
      'POST',
      `/tenants/${mine}/robots/import`,
      bundle('never-used-anywhere'),
    );
    assert.equal(taken.ruleIdsChanged, 2, 'every rule gets a new id');
    assert.equal(free.ruleIdsChanged, 2, 'every rule gets a new id');
    for (const made of [taken, free]) {
      const rules = await alice.ok<RulePage>(
        'GET',
        `/tenants/${mine}/robots/${made.robot.robotId}/rules`,
      );
      const ids = rules.rows.map((rule) => rule.ruleId);
      assert.equal(ids.length, 2);
      for (const id of ids) {
        assert.ok(![theirRuleId, 'never-used-anywhere', 'probe-free-id'].includes(id), id);
      }
      const probe = rules.rows.find((rule) => rule.ruleName === '探测规则');
      assert.deepEqual(
        probe?.menu?.map((entry) => entry.ruleId),
        [probe?.ruleId],
        'the menu follows the new id',
      );
    }
  });
});
