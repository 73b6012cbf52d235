/**
 * A publish is atomic under kill -9: a child service in review mode is killed while it publishes
 * a draft with many changed rules; after the restart the openapi answers exactly the old
 * version or exactly the new one, never a mix, and an acknowledged publish is never lost.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { AskResult } from '../../electron/service/api-types';
import type { VersionHistory } from '../../electron/service/publishing-types';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { prng } from '../helpers/prng';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';

const ROUNDS = 8;
/** Rules added to the draft before each publish: enough for the publish to take a while. */
const BATCH = 400;
/** Rules of a round asked after the restart. */
const SAMPLE = 12;

/** Whether an answer came from a rule of the round (answered, or listed by RECOMMEND). */
const fromRound = (round: number, result: AskResult): boolean =>
  result.answer.startsWith(`round ${round} `) ||
  (result.items ?? []).some((item) => item.question.startsWith(`第${round}轮`));

const clientFor = (url: string) => new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });
const consoleOf = (child: ChildService) => {
  const token = /token=(\S+)/.exec(child.output())?.[1] ?? '';
  return consoleClient(child.url, token);
};

const rulesOf = (round: number) =>
  Array.from({ length: BATCH }, (_, i) => ({
    ruleName: `r${round}#${i}`,
    questions: [`第${round}轮 问题 ${i} 号`],
    answerContentType: 'TEXT' as const,
    answer: `round ${round} answer ${i}`,
  }));

describe('crash safety (SIGKILL during a publish)', () => {
  const dataDir = makeDataDir('publish-crash');
  let current: ChildService | undefined;
  after(() => {
    current?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const seed = Number(process.env.KB_CRASH_SEED ?? Date.now() % 1_000_000);
  test(
    `${ROUNDS} publishes killed at random leave the old version or the new one (seed ${seed})`,
    { timeout: 600_000 },
    async () => {
      const random = prng(seed);
      current = await spawnService(dataDir);
      const { tenantId } = await clientFor(current.url).registerTenant(tenantRequest());
      const secret = (await clientFor(current.url).listRobots(tenantId))[0]?.robotSecret ?? '';
      const R = `/tenants/${tenantId}/robots/default`;
      await consoleOf(current).ok('PATCH', R, { settings: { publishMode: 'review' } });
      // Switching mode published the (empty) draft as version 1.
      let published =
        (await consoleOf(current).ok<VersionHistory>('GET', `${R}/versions`)).versions[0]
          ?.version ?? 0;
      assert.equal(published, 1);
      const outcomes = { old: 0, new: 0 };

      for (let round = 0; round < ROUNDS; round++) {
        const robot = clientFor(current.url).robot(tenantId, 'default', secret);
        // In review mode the openapi import writes the draft (docs/publishing.md).
        const imported = await robot.importRules(rulesOf(round));
        assert.equal(imported.succeed.length, BATCH);
        assert.ok(!fromRound(round, await robot.ask(`第${round}轮 问题 3 号`)));
        const api = consoleOf(current);
        let acknowledged = false;
        const publishing = api
          .call('POST', `${R}/versions`, { note: `round ${round}`, author: 'admin' })
          .then(
            ({ status }) => (acknowledged = status === 200),
            () => undefined,
          );
        await new Promise((resolve) => setTimeout(resolve, random() * 200));
        current.child.kill('SIGKILL');
        await current.exited;
        await publishing;

        current = await spawnService(dataDir);
        const reopened = clientFor(current.url).robot(tenantId, 'default', secret);
        const history = await consoleOf(current).ok<VersionHistory>('GET', `${R}/versions`);
        const latest = history.versions[0]?.version ?? 0;
        assert.ok(latest === published + 1 || latest === published, `version ${latest}`);
        const isNew = latest === published + 1;
        if (acknowledged) assert.ok(isNew, 'an acknowledged publish was lost');
        if (isNew) assert.equal(history.versions[0]?.note, `round ${round}`);
        // Every sampled rule of the round answers as the version says: all, or none.
        for (let k = 0; k < SAMPLE; k++) {
          const i = Math.floor(random() * BATCH);
          const result = await reopened.ask(`第${round}轮 问题 ${i} 号`);
          if (isNew) assert.equal(result.answer, `round ${round} answer ${i}`);
          else assert.ok(!fromRound(round, result), `rule ${i} answered from an unpublished draft`);
        }
        if (!isNew) {
          // Published after all, for the next round to start from a published draft.
          const { status } = await consoleOf(current).call('POST', `${R}/versions`, {
            note: `round ${round}`,
            author: 'admin',
          });
          assert.equal(status, 200);
        }
        outcomes[isNew ? 'new' : 'old']++;
        published++;
        assert.equal(
          (await consoleOf(current).ok<VersionHistory>('GET', `${R}/versions`)).versions[0]?.rules,
          BATCH * (round + 1),
        );
      }
      console.log(
        `publish crash test: ${ROUNDS} rounds, killed after the publish ${outcomes.new} time(s), before it ${outcomes.old} time(s), seed ${seed}`,
      );
    },
  );
});
