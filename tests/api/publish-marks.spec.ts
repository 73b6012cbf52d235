/**
 * A publish compares only the rules written since the latest version (marked by triggers,
 * docs/publishing.md): every way a rule can be written must reach the next publish. After each
 * publish, the full comparison of the draft with the published version must find nothing left.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RulesDiff, VersionRecord } from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('every rule write reaches the next publish', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  const ids: Record<string, string> = {};

  /** Publishes, then checks that the draft and the new version are the same, fully compared. */
  const publishAll = async (note: string): Promise<VersionRecord> => {
    const { version } = await api.ok<{ version: VersionRecord }>('POST', `${R}/versions`, {
      note,
      author: 'admin',
    });
    const left = await api.ok<RulesDiff>('GET', `${R}/versions/diff?from=published&to=draft`);
    assert.deepEqual(left, { added: [], removed: [], changed: [] }, `${note}: left unpublished`);
    return version;
  };

  before(async () => {
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    let tenantId: number;
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    R = `/tenants/${tenantId}/robots/default`;
    const { succeed } = await robot.importRules([
      ruleInput('one', ['first question'], 'first answer'),
      ruleInput('two', ['second question'], 'second answer'),
      ruleInput('three', ['third question'], 'third answer'),
    ]);
    for (const rule of succeed) ids[rule.ruleName] = rule.ruleId;
    await api.ok('PATCH', R, { settings: { publishMode: 'review' } });
  });
  after(() => h.close());

  const writes: [string, () => Promise<unknown>, Partial<VersionRecord>][] = [
    [
      'an openapi batch import',
      () => robot.importRules([ruleInput('four', ['fourth question'], 'fourth answer')]),
      { added: 1, changed: 0, removed: 0, rules: 4 },
    ],
    [
      'an edit in the editor',
      () => api.ok('PATCH', `${R}/rules/${ids.one}`, { answer: 'first answer, edited' }),
      { added: 0, changed: 1, removed: 0, rules: 4 },
    ],
    [
      'a rule switched off',
      () => api.ok('POST', `${R}/rules/set-active`, { ruleIds: [ids.two], active: false }),
      { added: 0, changed: 1, removed: 0, rules: 4 },
    ],
    [
      'a category set in bulk',
      () =>
        api.ok('POST', `${R}/rules/set-category`, {
          ruleIds: [ids.two, ids.three],
          category: 'moved',
        }),
      { added: 0, changed: 2, removed: 0, rules: 4 },
    ],
    [
      'a rule deleted',
      () => api.ok('POST', `${R}/rules/delete`, { ruleIds: [ids.three] }),
      { added: 0, changed: 0, removed: 1, rules: 3 },
    ],
    [
      'a rule restored from the trash',
      () => api.ok('POST', `${R}/rules/restore`, { ruleIds: [ids.three] }),
      { added: 1, changed: 0, removed: 0, rules: 4 },
    ],
    [
      'a rule made in the editor',
      () =>
        api.ok('POST', `${R}/rules`, {
          ruleName: 'five',
          questions: ['fifth question'],
          answer: 'fifth answer',
        }),
      { added: 1, changed: 0, removed: 0, rules: 5 },
    ],
  ];

  for (const [what, write, expected] of writes) {
    test(what, async () => {
      await write();
      const version = await publishAll(what);
      for (const [field, value] of Object.entries(expected)) {
        assert.equal(version[field as keyof VersionRecord], value, `${what}: ${field}`);
      }
    });
  }

  test('a rollback, then a publish after a restart', async () => {
    const { version: published } = await api.ok<{ version: VersionRecord }>(
      'POST',
      `${R}/versions/1/rollback`,
      { note: 'back to the start', author: 'admin' },
    );
    assert.equal(published.rules, 3);
    const left = await api.ok<RulesDiff>('GET', `${R}/versions/diff?from=published&to=draft`);
    assert.deepEqual(left, { added: [], removed: [], changed: [] });
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    await api.ok('PATCH', `${R}/rules/${ids.two}`, { questions: ['second question', 'and more'] });
    const version = await publishAll('after a restart');
    assert.equal(version.changed, 1);
    assert.equal(version.rules, 3);
  });
});
