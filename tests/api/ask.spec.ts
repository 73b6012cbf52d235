import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { AskResult } from '../../electron/service/api-types';
import type { ConsoleRobotSettings, ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const ASK_FIELDS = ['answer', 'answerContentType', 'answerType', 'items', 'module', 'score'];

describe('ask (POST .../robot/ask)', () => {
  let h: TestService;
  let robot: RobotClient;
  /** The robot's settings in force (its texts are in the language of its rules). */
  const settings = async (): Promise<ConsoleRobotSettings> => {
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
    const tenant = workspace.tenants.find((t) => t.tenantId === robot.tenantId);
    const found = tenant?.robots.find((r) => r.robotId === robot.robotId);
    if (!found) throw new Error('the robot is not in the workspace');
    return found.settings;
  };
  before(async () => {
    h = await startTestService();
    robot = (await registerTenantWithRobot(h.client)).robot;
    await robot.importRules([
      ruleInput('退货', ['怎么退货', '我想退货', '退货流程是什么'], '七天内可无理由退货。'),
      ruleInput('营业时间', ['你们几点开门', '营业时间是什么时候'], '每天九点到晚上九点。'),
      ruleInput(
        'Reset password',
        ['How do I reset my password?', 'I forgot my password'],
        'Use the reset link.',
      ),
      ruleInput(
        'Change password',
        ['How do I change my password?'],
        'Open settings, then security.',
      ),
    ]);
  });
  after(() => h.close());

  const ask = (body: Record<string, unknown>) =>
    robot.send<AskResult>('POST', '/robot/ask', {
      body: {
        userId: 'user-1',
        question: '怎么退货',
        channel: 'API',
        questionType: 'TEXT',
        ...body,
      },
    });

  test('a question equal to a phrasing is a BESTMATCH from KB with score 1', async () => {
    const { status, body } = await ask({ question: '怎么退货' });
    assert.equal(status, 200);
    assert.equal(body.code, '0');
    assert.equal(body.msg, 'success');
    assert.deepEqual(Object.keys(body.data ?? {}).sort(), ASK_FIELDS);
    assert.deepEqual(body.data, {
      answerType: 'BESTMATCH',
      answerContentType: 'TEXT',
      answer: '七天内可无理由退货。',
      score: 1,
      items: null,
      module: 'KB',
    });
  });

  test('equality holds after normalisation (width, case, punctuation)', async () => {
    const result = await robot.ask('ＨＯＷ do I reset my password');
    assert.equal(result.answerType, 'BESTMATCH');
    assert.equal(result.score, 1);
    assert.equal(result.answer, 'Use the reset link.');
  });

  test('a question about nothing in the knowledge base gets the fallback with module NONE', async () => {
    const result = await robot.ask('量子色动力学的渐近自由是什么');
    assert.deepEqual(result, {
      answerType: 'BESTMATCH',
      answerContentType: 'TEXT',
      answer: (await settings()).fallbackText,
      score: 0,
      items: null,
      module: 'NONE',
    });
  });

  test('an ambiguous question gets RECOMMEND with distinct rules by descending score', async () => {
    const result = await robot.ask('how do i password');
    assert.equal(result.answerType, 'RECOMMEND', JSON.stringify(result));
    assert.equal(result.module, 'KB');
    const { recommendText, maxRecommend } = await settings();
    assert.equal(result.answer, recommendText);
    const items = result.items ?? [];
    assert.ok(items.length >= 1 && items.length <= maxRecommend);
    assert.equal(new Set(items.map((i) => i.ruleId)).size, items.length);
    for (const item of items) {
      assert.deepEqual(Object.keys(item).sort(), ['question', 'ruleId', 'score']);
      assert.ok(item.score > 0 && item.score <= 1);
    }
    assert.deepEqual(
      items.map((i) => i.score),
      [...items.map((i) => i.score)].sort((a, b) => b - a),
    );
    assert.equal(result.score, items[0]?.score);
  });

  const limits: [string, Record<string, unknown>, number][] = [
    ['a 36-character userId', { userId: 'u'.repeat(36) }, 200],
    ['a 37-character userId', { userId: 'u'.repeat(37) }, 400],
    ['a 200-character question', { question: '问'.repeat(200) }, 200],
    ['a 201-character question', { question: '问'.repeat(201) }, 400],
    ['an empty question', { question: '' }, 400],
    ['channel WEB', { channel: 'WEB' }, 400],
    ['questionType IMAGE', { questionType: 'IMAGE' }, 400],
    ['no userId', { userId: undefined }, 400],
  ];
  for (const [what, body, status] of limits) {
    test(`${what} gives HTTP ${status}`, async () => {
      const response = await ask(body);
      assert.equal(response.status, status, JSON.stringify(response.body));
      if (status === 400) assert.match(response.body.code, /^(invalid|missing)-field$/);
    });
  }
});

describe('ask when the matcher fails unexpectedly', () => {
  let h: TestService;
  let robot: RobotClient;
  before(async () => {
    // A matcher with a bug stands in for any unexpected fault inside a request.
    h = await startTestService({
      createIndex: () => ({
        size: 0,
        upsert() {},
        remove() {},
        prepare() {},
        match() {
          throw new Error('matcher bug with a secret stack');
        },
      }),
    });
    robot = (await registerTenantWithRobot(h.client)).robot;
  });
  after(() => h.close());

  test('is a 500 with the failure envelope and no stack trace', async () => {
    const { status, body } = await robot.send('POST', '/robot/ask', {
      body: { userId: 'u', question: 'q', channel: 'API', questionType: 'TEXT' },
    });
    assert.equal(status, 500);
    assert.equal(body.code, 'internal-error');
    assert.equal(body.data, null);
    assert.doesNotMatch(JSON.stringify(body), /secret stack|at \w+/);
  });
});
