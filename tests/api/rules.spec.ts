import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { BatchImportResult, RuleDetail, RuleList } from '../../electron/service/api-types';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const LIST_FIELDS = [
  'active',
  'answer',
  'answerContentType',
  'questions',
  'ruleCategoryId',
  'ruleId',
  'ruleName',
];

describe('knowledge rules: batch import, read, list', () => {
  let h: TestService;
  let robot: RobotClient;
  before(async () => {
    h = await startTestService();
    robot = (await registerTenantWithRobot(h.client)).robot;
  });
  after(() => h.close());

  const importBatch = (rules: unknown) =>
    robot.send<BatchImportResult>('POST', '/kb/rules/full/batch', { body: rules });

  test('import answers succeed with generated ids, active null, and an empty failInfo', async () => {
    const { status, body } = await importBatch([
      ruleInput(
        '退货政策',
        ['怎么退货？', '退货流程是什么', 'How do I return an item?'],
        '七天内可无理由退货。',
      ),
    ]);
    assert.equal(status, 200);
    assert.equal(body.code, '0');
    assert.equal(body.msg, 'success');
    const data = body.data as BatchImportResult;
    assert.deepEqual(Object.keys(data).sort(), ['failInfo', 'succeed']);
    assert.deepEqual(data.failInfo, []);
    const [rule] = data.succeed;
    assert.ok(rule);
    assert.deepEqual(Object.keys(rule).sort(), LIST_FIELDS);
    assert.equal(typeof rule.ruleId, 'string');
    assert.ok(rule.ruleId.length > 0);
    assert.deepEqual(
      { ...rule, ruleId: 'x' },
      {
        ruleId: 'x',
        ruleName: '退货政策',
        ruleCategoryId: '',
        active: null,
        questions: ['怎么退货？', '退货流程是什么', 'How do I return an item?'],
        answer: '七天内可无理由退货。',
        answerContentType: 'TEXT',
      },
    );
  });

  test('the single read has every field, effectBeignDate spelled as the interface has it', async () => {
    const created = await robot.importRules([
      ruleInput('营业时间', ['几点开门'], '每天九点开门。'),
    ]);
    const ruleId = created.succeed[0]?.ruleId ?? '';
    const { status, body } = await robot.send<RuleDetail>('GET', `/kb/rules/${ruleId}`);
    assert.equal(status, 200);
    assert.equal(body.msg, 'success');
    assert.deepEqual(body.data, {
      ruleId,
      ruleName: '营业时间',
      ruleCategoryId: '',
      allowSimGen: null,
      active: true,
      effectBeignDate: null,
      effectEndDate: null,
      questions: ['几点开门'],
      answer: '每天九点开门。',
      answerContentType: 'TEXT',
    });
  });

  test('an unknown rule is a 404', async () => {
    const { status, body } = await robot.send('GET', '/kb/rules/no-such-rule');
    assert.equal(status, 404);
    assert.equal(body.code, 'rule-not-found');
  });

  const limits: [string, Record<string, unknown>, boolean, RegExp?][] = [
    ['a 200-character ruleName', { ruleName: '规'.repeat(200) }, true],
    [
      'a 201-character ruleName',
      { ruleName: '规'.repeat(201) },
      false,
      /ruleName must be at most 200/,
    ],
    ['10 questions', { questions: Array.from({ length: 10 }, (_, i) => `问题${i}`) }, true],
    [
      '11 questions',
      { questions: Array.from({ length: 11 }, (_, i) => `问题${i}`) },
      false,
      /questions must have at most 10/,
    ],
    ['no questions', { questions: [] }, false, /questions must have at least 1/],
    ['a 200-character question', { questions: ['问'.repeat(200)] }, true],
    [
      'a 201-character question',
      { questions: ['问'.repeat(201)] },
      false,
      /questions\[0\] must be at most 200/,
    ],
    ['a blank question', { questions: ['ok', '  '] }, false, /questions\[1\] must not be blank/],
    ['a 2000-character answer', { answer: '答'.repeat(2000) }, true],
    [
      'a 2001-character answer',
      { answer: '答'.repeat(2001) },
      false,
      /answer must be at most 2000/,
    ],
    ['an IMAGE answer', { answerContentType: 'IMAGE' }, false, /answerContentType must be TEXT/],
    ['a missing answer', { answer: undefined }, false, /answer is required/],
    ['a string as questions', { questions: 'one question' }, false, /questions must be an array/],
  ];
  let n = 0;
  for (const [what, overrides, ok, message] of limits) {
    test(`${ok ? 'accepts' : 'reports in failInfo'} ${what}`, async () => {
      n += 1;
      const rule = { ...ruleInput(`limit rule ${n}`, ['a question']), ...overrides };
      const { status, body } = await importBatch([rule]);
      assert.equal(status, 200);
      const data = body.data as BatchImportResult;
      if (ok) {
        assert.deepEqual(data.failInfo, []);
        assert.equal(data.succeed.length, 1);
      } else {
        assert.equal(data.succeed.length, 0);
        assert.equal(data.failInfo.length, 1);
        const [failure] = data.failInfo;
        assert.deepEqual(Object.keys(failure ?? {}).sort(), ['code', 'index', 'msg', 'ruleName']);
        assert.equal(failure?.index, 0);
        assert.match(failure?.msg ?? '', message ?? /./);
      }
    });
  }

  test('valid rules are created and invalid ones reported by index, in one call', async () => {
    const result = await robot.importRules([
      ruleInput('混合 1', ['q1']),
      { ...ruleInput('混合 2', ['q2']), answer: '' },
      ruleInput('混合 3', ['q3']),
      ruleInput(' 混合 1 ', ['q4']),
      ruleInput('营业时间', ['q5']),
    ] as never);
    assert.deepEqual(
      result.succeed.map((r) => r.ruleName),
      ['混合 1', '混合 3'],
    );
    assert.deepEqual(
      result.failInfo.map((f) => [f.index, f.ruleName, f.code]),
      [
        [1, '混合 2', 'invalid-field'],
        [3, ' 混合 1 ', 'rule-name-taken'],
        [4, '营业时间', 'rule-name-taken'],
      ],
    );
  });

  test('a rule that failed for another reason does not claim its name', async () => {
    const result = await robot.importRules([
      { ...ruleInput('claim', ['q']), questions: [] },
      ruleInput('claim', ['q']),
    ] as never);
    assert.equal(result.succeed.length, 1);
    assert.equal(result.failInfo[0]?.index, 0);
  });

  test('1000 rules in one batch are accepted; 1001 are refused whole with 400', async () => {
    const make = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, i) =>
        ruleInput(`${prefix} ${i}`, [`${prefix} question ${i}`]),
      );
    const ok = await robot.importRules(make(1000, 'thousand'));
    assert.equal(ok.succeed.length, 1000);
    const { status, body } = await importBatch(make(1001, 'too many'));
    assert.equal(status, 400);
    assert.equal(body.code, 'batch-too-large');
    const names = await listAll(robot);
    assert.ok(!names.some((name) => name.startsWith('too many')));
  });

  test('a body that is not an array is a 400', async () => {
    const { status, body } = await importBatch({ ruleName: 'x' });
    assert.equal(status, 400);
    assert.match(body.msg ?? '', /must be an array/);
  });

  test('list: creation order, list fields only, true totalCount, empty page past the end', async () => {
    const fresh = (await registerTenantWithRobot(h.client)).robot;
    await fresh.importRules(
      Array.from({ length: 25 }, (_, i) => ruleInput(`规则 ${i}`, [`问题 ${i}`])),
    );
    const { status, body } = await fresh.send<RuleList>('GET', '/kb/rules');
    assert.equal(status, 200);
    assert.equal(body.msg, 'success');
    const first = body.data as RuleList;
    assert.equal(first.totalCount, 25);
    assert.equal(first.list.length, 20, 'pageSize defaults to 20');
    assert.deepEqual(Object.keys(first.list[0] ?? {}).sort(), LIST_FIELDS);
    assert.equal(first.list[0]?.active, true);
    assert.deepEqual(
      first.list.map((r) => r.ruleName),
      Array.from({ length: 20 }, (_, i) => `规则 ${i}`),
    );
    const second = await fresh.listRules(1, 20);
    assert.deepEqual(
      second.list.map((r) => r.ruleName),
      ['规则 20', '规则 21', '规则 22', '规则 23', '规则 24'],
    );
    const past = await fresh.listRules(9, 20);
    assert.deepEqual(past, { list: [], totalCount: 25 });
    assert.equal((await fresh.listRules(0, 1000)).list.length, 25);
  });

  test('bad page or pageSize is a 400', async () => {
    const queries: Record<string, string | number>[] = [
      { pageSize: 0 },
      { pageSize: 1001 },
      { page: -1 },
      { page: 'abc' },
      { pageSize: 1.5 },
    ];
    for (const query of queries) {
      const { status, body } = await robot.send('GET', '/kb/rules', { query });
      assert.equal(status, 400, JSON.stringify(query));
      assert.equal(body.code, 'invalid-paging');
    }
  });
});

async function listAll(robot: RobotClient): Promise<string[]> {
  const names: string[] = [];
  for (let page = 0; ; page++) {
    const { list } = await robot.listRules(page, 1000);
    if (list.length === 0) return names;
    names.push(...list.map((r) => r.ruleName));
  }
}
