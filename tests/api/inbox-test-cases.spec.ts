/**
 * The inbox's "mark as test case" over real HTTP: a group's questions become cases of the
 * robot's test set (expecting a chosen rule, or the fallback), and the group leaves the inbox.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { TestCaseView, TestRun } from '../../electron/service/publishing-types';
import type { InboxGroup, InboxTestCasesResult } from '../../electron/service/question-log-types';
import { consoleClient } from '../helpers/console-client';
import { runTestSet } from '../helpers/test-runs';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const DAY = 86_400_000;

describe('inbox: mark as test case', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  let delivery: string;

  const inbox = async () => (await api.ok<{ groups: InboxGroup[] }>('GET', `${R}/inbox`)).groups;
  const cases = async () =>
    (await api.ok<{ cases: TestCaseView[] }>('GET', `${R}/test-cases`)).cases;
  const runTests = (): Promise<TestRun> => runTestSet(api, R);

  before(async () => {
    h = await startTestService({ now: () => clock.now });
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    const { succeed } = await robot.importRules([
      ruleInput('delivery', ['How long does delivery take']),
      ruleInput('opening hours', ['What are your opening hours']),
    ]);
    delivery = succeed.find((rule) => rule.ruleName === 'delivery')?.ruleId ?? '';
    for (const user of ['a', 'b']) await robot.ask('is there a student discount', user);
    await robot.ask('is there a student discount today', 'c');
    await robot.ask('when will my parcel arrive', 'd');
    await robot.ask('when will my parcel arrive?', 'e');
  });
  after(() => h.close());

  test('questions that must get a rule become cases naming it; the group is handled', async () => {
    const groups = await inbox();
    const parcel = groups.find((g) => g.key === 'when will my parcel arrive');
    assert.ok(parcel, JSON.stringify(groups));
    const result = await api.ok<InboxTestCasesResult>('POST', `${R}/inbox/test-cases`, {
      key: parcel.key,
      questions: parcel.examples.map((example) => example.question),
      expect: 'rule',
      ruleId: delivery,
    });
    assert.equal(result.caseIds.length, 1, 'the two spellings are one question');
    assert.deepEqual(result.present, []);
    const [made] = await cases();
    assert.deepEqual(
      { ...made, createdAt: 0, updatedAt: 0 },
      {
        caseId: result.caseIds[0],
        question: 'when will my parcel arrive',
        expect: 'rule',
        ruleId: delivery,
        ruleName: 'delivery',
        createdAt: 0,
        updatedAt: 0,
      },
    );
    assert.ok(!(await inbox()).some((g) => g.key === parcel.key), 'handled: out of the inbox');
    // The case fails until the knowledge base is fixed, like any test case.
    const run = await runTests();
    assert.equal(run.results[0]?.status, 'failed');
    // Still missed later: the question comes back (the test case alone fixed nothing).
    clock.now += 60_000;
    await robot.ask('when will my parcel arrive', 'f');
    assert.ok((await inbox()).some((g) => g.key === parcel.key));
  });

  test('questions that must get the fallback: their fallbacks are no miss any more', async () => {
    const result = await api.ok<InboxTestCasesResult>('POST', `${R}/inbox/test-cases`, {
      key: 'is there a student discount',
      questions: ['is there a student discount', 'Is there a student discount?'],
      expect: 'fallback',
    });
    assert.equal(result.caseIds.length, 1);
    const made = (await cases()).find((c) => c.caseId === result.caseIds[0]);
    assert.equal(made?.expect, 'fallback');
    assert.equal(made?.ruleId, null);
    assert.ok(!(await inbox()).some((g) => g.key === 'is there a student discount'));
    // The case passes: the fallback is what it gets.
    const run = await runTests();
    assert.equal(run.results.find((r) => r.caseId === made?.caseId)?.status, 'passed');
    // Months later, the fallback is still the expected answer: the group does not come back.
    clock.now += 60 * DAY;
    await robot.ask('is there a student discount', 'g');
    assert.ok(!(await inbox()).some((g) => g.key === 'is there a student discount'));
    // Marking it again adds nothing twice.
    const again = await api.ok<InboxTestCasesResult>('POST', `${R}/inbox/test-cases`, {
      key: 'is there a student discount',
      questions: ['IS THERE A STUDENT DISCOUNT'],
      expect: 'fallback',
    });
    assert.deepEqual(again, { caseIds: [], present: ['IS THERE A STUDENT DISCOUNT'] });
  });

  test('bad requests are refused naming the field, nothing written', async () => {
    await robot.ask('do you sell gift cards', 'h');
    const before = (await cases()).length;
    const noRule = await api.call('POST', `${R}/inbox/test-cases`, {
      key: 'do you sell gift cards',
      questions: ['do you sell gift cards'],
      expect: 'rule',
    });
    assert.equal(noRule.status, 400);
    assert.equal(noRule.body.code, 'missing-field');
    const unknown = await api.call('POST', `${R}/inbox/test-cases`, {
      key: 'do you sell gift cards',
      questions: ['do you sell gift cards'],
      expect: 'rule',
      ruleId: 'no-such-rule',
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'rule-not-found');
    const kind = await api.call('POST', `${R}/inbox/test-cases`, {
      key: 'do you sell gift cards',
      questions: ['do you sell gift cards'],
      expect: 'recommend',
    });
    assert.equal(kind.status, 400);
    assert.equal(kind.body.code, 'invalid-field');
    const empty = await api.call('POST', `${R}/inbox/test-cases`, {
      key: 'do you sell gift cards',
      questions: [],
      expect: 'fallback',
    });
    assert.equal(empty.status, 400);
    assert.equal((await cases()).length, before);
    assert.ok(
      (await inbox()).some((g) => g.key === 'do you sell gift cards'),
      'still there',
    );
  });
});
