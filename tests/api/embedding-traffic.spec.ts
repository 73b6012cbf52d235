/**
 * The fusion learns from the robot's own traffic over real HTTP, on both stores (docs/matching.md,
 * "Learning from traffic"; decisions 144, 150-151): questions the lexical channel answers
 * BESTMATCH become examples the robot's embedding status counts; the fusion is refitted with
 * them; after a restart the examples and that fit are back without a question asked (a file in
 * the data directory, or the team server's table); a rule edited loses its examples, for good.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { EmbeddingStatus } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { startEmbeddingServer } from '../helpers/embedding-server';
import type { EmbeddingServer } from '../helpers/embedding-server';
import { madeUpWord, prng } from '../helpers/prng';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const random = prng(30);
/** Rules of two phrasings of their own words; each asked with a word more (a clear lexical win). */
const RULES = Array.from({ length: 24 }, (_, i) => {
  const phrasings = [0, 1].map(() => Array.from({ length: 3 }, () => madeUpWord(random)).join(' '));
  return { input: ruleInput(`Topic ${i}`, phrasings), asked: `${phrasings[0]} please` };
});
const LABELS = new Map<string, string>(
  RULES.flatMap(({ input, asked }) =>
    [input.ruleName, ...input.questions, asked].map((text) => [text, input.ruleName] as const),
  ),
);

describe('the fusion learns from traffic, kept across restarts', () => {
  let h: TestService;
  let server: EmbeddingServer;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  let ruleIds: Map<string, string>;

  /** The status once `ready` holds of it (the background work is asynchronous). */
  async function statusWhen(ready: (status: EmbeddingStatus) => boolean): Promise<EmbeddingStatus> {
    for (let tries = 0; ; tries += 1) {
      const status = await api.ok<EmbeddingStatus | null>('GET', `${R}/embedding`);
      assert.ok(status, 'the robot has a provider');
      if (ready(status)) return status;
      if (tries > 300) assert.fail(`not reached: ${JSON.stringify(status)}`);
      await sleep(50);
    }
  }

  before(async () => {
    server = await startEmbeddingServer({ quality: 0.6, labels: LABELS });
    h = await startTestService();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const registered = await registerTenantWithRobot(h.client);
    robot = registered.robot;
    R = `/tenants/${registered.tenantId}/robots/default`;
    const imported = await robot.importRules(RULES.map(({ input }) => input));
    ruleIds = new Map(imported.succeed.map((rule) => [rule.ruleName, rule.ruleId]));
    await api.ok('PATCH', R, {
      settings: {
        embeddingMode: 'custom',
        embeddingApi: 'openai',
        embeddingBase: `${server.url}/v1`,
        embeddingModel: 'test-model',
        // A loaded machine: every question must get its vector to be an example.
        embeddingTimeoutMs: 10_000,
      },
    });
  });
  after(async () => {
    await h.close();
    await server.close();
  });

  test('questions answered BESTMATCH become examples, the fit uses them, a restart keeps both', async () => {
    await statusWhen((s) => s.texts > 0 && s.embedded === s.texts);
    for (const { asked } of RULES) {
      const answer = await robot.ask(asked);
      assert.equal(answer.answerType, 'BESTMATCH', asked);
    }
    const learnt = await statusWhen(
      (s) => s.calibration?.current === true && s.calibration.examples === RULES.length,
    );
    assert.deepEqual(learnt.examples, { kept: RULES.length, warmedUp: true });

    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    // Nothing asked since: the examples come from the store, the fit from them at once.
    const restarted = await statusWhen(
      (s) => s.calibration?.current === true && s.calibration.examples === RULES.length,
    );
    assert.deepEqual(restarted.examples, { kept: RULES.length, warmedUp: true });
    assert.equal(restarted.questions.withVector, 0);
    assert.deepEqual(restarted.calibration, learnt.calibration, 'the same fit');
  });

  test('a rule edited loses its examples, and they stay lost after a restart', async () => {
    const first = RULES[0];
    assert.ok(first);
    const ruleId = ruleIds.get(first.input.ruleName);
    assert.ok(ruleId);
    await api.ok('PATCH', `${R}/rules/${ruleId}`, {
      questions: [...first.input.questions, 'one phrasing more'],
    });
    const edited = await statusWhen((s) => s.examples.kept === RULES.length - 1);
    assert.equal(edited.examples.warmedUp, true);
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    const restarted = await statusWhen(
      (s) => s.calibration?.current === true && s.calibration.examples === RULES.length - 1,
    );
    assert.equal(restarted.examples.kept, RULES.length - 1);
  });
});
