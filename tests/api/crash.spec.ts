/**
 * Durability under kill -9: a child service imports batches while it is killed at random
 * moments. After every restart, each batch that was answered with success is there in full, no
 * batch is there in part, and the database opens.
 */
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, ruleInput, tenantRequest } from '../helpers/service';
import { prng } from '../helpers/prng';

const ROUNDS = 24;
const BATCH = 100;

function batchRules(id: string) {
  return Array.from({ length: BATCH }, (_, i) =>
    ruleInput(`${id}#${i}`, [`${id} 问题 ${i}`, `question ${i} of ${id}`], `${id} 答案 ${i}`),
  );
}

async function allRules(robot: RobotClient) {
  const rules = [];
  for (let page = 0; ; page++) {
    const { list, totalCount } = await robot.listRules(page, 1000);
    rules.push(...list);
    if (list.length === 0 || rules.length >= totalCount) return rules;
  }
}

const clientFor = (url: string) => new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });

describe('crash safety (SIGKILL during imports)', () => {
  const dataDir = makeDataDir('crash');
  let current: ChildService | undefined;
  after(() => {
    current?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const seed = Number(process.env.KB_CRASH_SEED ?? Date.now() % 1_000_000);
  test(
    `${ROUNDS} rounds of kill -9 lose no acknowledged batch and leave none half there (seed ${seed})`,
    { timeout: 600_000 },
    async () => {
      const random = prng(seed);
      // Small snapshots threshold, so kills also land while snapshots are being written.
      const env = { KB_SNAPSHOT_BYTES: String(256 * 1024) };
      current = await spawnService(dataDir, { env });
      const { tenantId } = await clientFor(current.url).registerTenant(tenantRequest());
      const robots = await clientFor(current.url).listRobots(tenantId);
      const secret = robots[0]?.robotSecret ?? '';
      const acknowledged = new Set<string>();
      const attempted = new Set<string>();
      let batchesAcknowledged = 0;

      for (let round = 0; round < ROUNDS; round++) {
        const robot = clientFor(current.url).robot(tenantId, 'default', secret);
        let stop = false;
        const importer = async (lane: number) => {
          for (let k = 0; !stop; k++) {
            const id = `r${round}l${lane}b${k}`;
            attempted.add(id);
            try {
              const result = await robot.importRules(batchRules(id));
              if (result.succeed.length === BATCH) acknowledged.add(id);
            } catch {
              return; // the process was killed under this request: unanswered
            }
          }
        };
        const lanes = [importer(0), importer(1)];
        await new Promise((resolve) => setTimeout(resolve, 30 + random() * 400));
        current.child.kill('SIGKILL');
        await current.exited;
        stop = true;
        await Promise.all(lanes);

        current = await spawnService(dataDir, { env });
        const reopened = clientFor(current.url).robot(tenantId, 'default', secret);
        const byBatch = new Map<string, number>();
        for (const rule of await allRules(reopened)) {
          const id = rule.ruleName.slice(0, rule.ruleName.indexOf('#'));
          byBatch.set(id, (byBatch.get(id) ?? 0) + 1);
          const i = rule.ruleName.slice(rule.ruleName.indexOf('#') + 1);
          assert.deepEqual(rule.questions, [`${id} 问题 ${i}`, `question ${i} of ${id}`]);
          assert.equal(rule.answer, `${id} 答案 ${i}`);
        }
        for (const id of acknowledged)
          assert.equal(byBatch.get(id), BATCH, `acknowledged batch ${id} is not whole`);
        for (const [id, count] of byBatch) {
          assert.ok(attempted.has(id), `batch ${id} was never sent`);
          assert.equal(count, BATCH, `batch ${id} is half there (${count} of ${BATCH})`);
        }
        batchesAcknowledged = acknowledged.size;
        assert.deepEqual(
          // The restarted service may be writing its own snapshot (the journal it replayed):
          // that temporary file is its, not one left behind.
          readdirSync(dataDir).filter(
            (name) => name.includes('.tmp-') && !name.endsWith(`.tmp-${current?.child.pid}`),
          ),
          [],
          'a temporary file was left behind',
        );
      }
      assert.ok(
        batchesAcknowledged > ROUNDS,
        `only ${batchesAcknowledged} batches were acknowledged: the test exercised too little`,
      );
      console.log(
        `crash test: ${ROUNDS} rounds, ${batchesAcknowledged} acknowledged batches of ${BATCH} rules, seed ${seed}`,
      );
    },
  );
});
