/**
 * A robot's synonyms (robot settings, set through the console API): questions are matched as if
 * every member of a group were the group's first member, at once, after a restart that opens the
 * saved index, and after one that rebuilds it.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRobot, ConsoleWorkspace } from '../../electron/service/console-types';
import { INDEX_FILE } from '../../electron/service/store/embedded/index-file';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

describe('synonyms', () => {
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
      ruleInput('充值', ['如何充值', '话费怎么充值'], '在“我的-钱包”里充值。'),
      ruleInput('退款', ['如何退款', '退款多久到账'], '退款三个工作日内原路退回。'),
      ruleInput('Top up', ['How do I top up my card?'], 'Top up under Wallet.'),
    ]);
  });
  after(() => h.close());

  /** A restart gives a new port and console token: the clients follow. */
  const restart = async () => {
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    robot = h.client.robot(robot.tenantId, 'default', robot.robotSecret);
  };

  /** The answer and score to a question. */
  const ask = async (question: string) => {
    const result = await robot.ask(question);
    return { answer: result.answer, score: result.score, type: result.answerType };
  };

  test('without synonyms, another word for the same thing is not the phrasing', async () => {
    assert.ok((await ask('如何充钱')).score < 1);
    assert.ok((await ask('How do I recharge my card?')).score < 1);
  });

  test('with synonyms, it is: the question equals the phrasing', async () => {
    const patched = await api.ok<ConsoleRobot>('PATCH', R, {
      settings: {
        synonyms: [
          ['充值', '充钱', '冲值'],
          ['top up', 'recharge', 'topup'],
        ],
      },
    });
    assert.deepEqual(patched.settings.synonyms[0], ['充值', '充钱', '冲值']);
    assert.deepEqual(await ask('如何充钱'), {
      answer: '在“我的-钱包”里充值。',
      score: 1,
      type: 'BESTMATCH',
    });
    assert.deepEqual(await ask('How do I recharge my card?'), {
      answer: 'Top up under Wallet.',
      score: 1,
      type: 'BESTMATCH',
    });
    // Rules imported after the change are indexed with the synonyms too.
    await robot.importRules([ruleInput('发票', ['充值后怎么开发票'], '在订单页开发票。')]);
    assert.equal((await ask('充钱后怎么开发票')).score, 1);
  });

  test('they survive a restart that opens the saved index, and one that rebuilds it', async () => {
    await restart();
    assert.equal((await ask('如何充钱')).score, 1);
    await h.service.stop();
    rmSync(join(h.dataDir, INDEX_FILE), { force: true });
    await restart();
    assert.equal((await ask('如何充钱')).score, 1);
    const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
    assert.equal(workspace.tenants[0]?.robots[0]?.settings.synonyms.length, 2);
  });

  test('other settings leave them alone; removing them takes effect at once', async () => {
    await api.ok<ConsoleRobot>('PATCH', R, { settings: { fallbackText: '请换个说法。' } });
    assert.equal((await ask('如何充钱')).score, 1);
    await api.ok<ConsoleRobot>('PATCH', R, { settings: { synonyms: [] } });
    assert.ok((await ask('如何充钱')).score < 1);
  });

  test('malformed synonyms are refused with the field named', async () => {
    for (const synonyms of [[['单独']], [['', '空']], [['a'.repeat(51), 'b']], 'not a list']) {
      const { status, body } = await api.call('PATCH', R, { settings: { synonyms } });
      assert.equal(status, 400, JSON.stringify(synonyms));
      assert.equal(body.code, 'invalid-field');
    }
  });
});
