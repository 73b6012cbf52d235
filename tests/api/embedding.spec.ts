/**
 * A robot's embedding model over real HTTP (docs/matching.md, "Fusion"), on both stores: its
 * settings and secret key, the connection test, the rules' vectors made in the background and
 * cached by (model, text) so that a restart embeds nothing again, and a provider that hangs,
 * answers 500, closes the connection or gives vectors of another length: every ask is still
 * answered, from the lexical channel alone, and the try pane and the status say why.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type {
  ConsoleRobot,
  EmbeddingStatus,
  EmbeddingTest,
  TryResult,
} from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { startEmbeddingServer } from '../helpers/embedding-server';
import type { EmbeddingServer } from '../helpers/embedding-server';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const KEY = 'sk-test-0123456789';

const RULES = [
  ruleInput('Reset password', ['How do I reset my password?', 'I forgot my password']),
  ruleInput('Refund', ['How do I get a refund?', 'I want my money back']),
  ruleInput('Opening hours', ['When are you open?', 'What are your opening hours?']),
  ruleInput('退货', ['怎么退货', '我想退货'], '七天内可无理由退货。'),
];

/** Every text of the rules, and paraphrases, labelled with their rule (a good model). */
const LABELS = new Map<string, string>([
  ...RULES.flatMap((rule) =>
    [rule.ruleName, ...rule.questions].map((t) => [t, rule.ruleName] as const),
  ),
  ['cannot sign in, lost my credentials', 'Reset password'],
]);

describe('embedding provider', () => {
  let h: TestService;
  let server: EmbeddingServer;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;

  /** The status once every text of the robot's rules has its vector. */
  async function embeddedAll(): Promise<EmbeddingStatus> {
    for (;;) {
      const status = await api.ok<EmbeddingStatus | null>('GET', `${R}/embedding`);
      assert.ok(status, 'the robot has a provider');
      if (status.texts > 0 && status.embedded === status.texts) return status;
      await sleep(50);
    }
  }

  before(async () => {
    server = await startEmbeddingServer({ quality: 0.9, labels: LABELS, apiKey: KEY });
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    await robot.importRules(RULES);
  });
  after(async () => {
    await h.close();
    await server.close();
  });

  test('without a provider nothing changes: no semantic note, no status', async () => {
    const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: 'I forgot my password' });
    assert.equal(tried.semantic, undefined);
    assert.equal(await api.ok<EmbeddingStatus | null>('GET', `${R}/embedding`), null);
  });

  test('the API key is set apart and never returned', async () => {
    const patched = await api.ok<ConsoleRobot>('PATCH', R, {
      settings: {
        embeddingMode: 'custom',
        embeddingApi: 'openai',
        embeddingBase: `${server.url}/v1`,
        embeddingModel: 'test-model',
      },
    });
    assert.equal(patched.embeddingKeySet, false);
    const refused = await api.call('PATCH', R, { settings: { embeddingApiKey: KEY } });
    assert.equal(refused.status, 400, 'the key is not a setting PATCH sets');
    const keyed = await api.ok<ConsoleRobot>('PUT', `${R}/embedding/key`, { key: KEY });
    assert.equal(keyed.embeddingKeySet, true);
    assert.ok(!JSON.stringify(keyed).includes(KEY));
    const listed = await api.call('GET', '/workspace');
    assert.ok(!JSON.stringify(listed.body).includes(KEY));
    const exported = await api.call('GET', `${R}/bundle`);
    assert.equal(exported.status, 200);
    assert.ok(!JSON.stringify(exported.body).includes(KEY), 'not in the robot bundle');
  });

  test('the connection test reports the dimension, or why it failed', async () => {
    const ok = await api.ok<EmbeddingTest>('POST', `${R}/embedding/test`, {
      api: 'ollama',
      base: server.url,
      model: 'test-model',
    });
    assert.equal(ok.ok, true);
    assert.equal(ok.ok && ok.dimensions, 64);
    const unauthorized = await api.ok<EmbeddingTest>('POST', `${R}/embedding/test`, {
      api: 'openai',
      base: `${server.url}/v1`,
      model: 'test-model',
      apiKey: 'wrong',
    });
    assert.equal(unauthorized.ok, false);
    assert.equal(!unauthorized.ok && unauthorized.failure, 'http');
    assert.ok(!JSON.stringify(unauthorized).includes('wrong'));
  });

  test('the rules are embedded in the background and the question fused', async () => {
    const status = await embeddedAll();
    assert.equal(status.dimensions, 64);
    assert.equal(status.source, 'custom');
    assert.equal(status.model, 'test-model');
    assert.ok(
      server.requests.some(
        (r) => r.path === '/v1/embeddings' && r.authorization === `Bearer ${KEY}`,
      ),
    );
    const tried = await api.ok<TryResult>('POST', `${R}/try`, {
      question: 'cannot sign in, lost my credentials',
    });
    assert.ok(tried.semantic);
    assert.ok(['fused', 'unweighted', 'pending'].includes(tried.semantic.state));
    assert.equal(tried.semantic.model, 'test-model');
  });

  for (const [fault, state] of [
    ['hang', 'timeout'],
    ['error500', 'failed'],
    ['close', 'failed'],
    ['wrong-dimension', 'dimension'],
  ] as const) {
    test(`a provider that ${fault === 'wrong-dimension' ? 'changes dimension' : fault}s: answered lexically`, async () => {
      await embeddedAll();
      const question = `How can I reset my password, please (${fault})?`;
      server.options.fault = fault;
      try {
        const answer = await robot.ask(question);
        assert.equal(answer.answer, 'Answer for Reset password');
        const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: `${question}!` });
        assert.equal(tried.semantic?.state, state);
        assert.equal(tried.result.answer, 'Answer for Reset password');
      } finally {
        server.options.fault = 'none';
      }
      const status = await api.ok<EmbeddingStatus>('GET', `${R}/embedding`);
      const kind = { hang: 'timeout', error500: 'http', close: 'network' }[fault as string];
      if (kind) assert.ok(status.failures[kind as 'timeout'] > 0);
      else assert.ok(status.failures.dimension > 0);
      assert.ok(status.questions.without > 0);
    });
  }

  test('a restart embeds nothing it embedded before (the vector cache)', async () => {
    await embeddedAll();
    const rulesTexts = new Set(LABELS.keys());
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const before = server.embedded.length;
    await embeddedAll();
    const again = server.embedded.slice(before).filter((text) => rulesTexts.has(text));
    assert.deepEqual(again, []);
  });

  test('robots with mode off are matched lexically, even with a default provider', async () => {
    await api.ok('PATCH', R, { settings: { embeddingMode: 'off' } });
    const tried = await api.ok<TryResult>('POST', `${R}/try`, { question: 'I forgot my password' });
    assert.equal(tried.semantic, undefined);
  });
});
