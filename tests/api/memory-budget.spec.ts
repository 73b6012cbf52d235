/**
 * Robots loaded on demand (`--memory-budget`, docs/storage.md): with room for two robots' indexes
 * of five, every robot answers as a service without a budget does, writes to robots whose index
 * left memory are answered once they are loaded again, imports and publishing work on robots not
 * in memory, and the robot directory and signatures are answered without loading any index. On
 * both stores (KB_TEST_STORE=postgres runs it again on PostgreSQL).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import { bytesForRules } from '../../electron/service/domain/robot-indexes';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import { runTestSet } from '../helpers/test-runs';
import type { TestService } from '../helpers/service';

const ROBOTS = 5;

/** Each robot's own rules: the same questions, a different answer per robot. */
const rulesOf = (n: number) => [
  ruleInput(`hours ${n}`, ['when do you open', 'opening hours'], `open at ${n} am`),
  ruleInput(`returns ${n}`, ['how do I return an item', 'refund policy'], `returns ${n} days`),
  ruleInput(`shipping ${n}`, ['how much is shipping', 'delivery cost'], `shipping ${n} dollars`),
];
const QUESTIONS = ['when do you open', 'refund policy', 'delivery cost', 'something else entirely'];

/** Room for two robots of three rules, not three. */
const twoRobots = () => Math.floor(bytesForRules(3) * 2.5);

interface Figures {
  loaded: number;
  loads: number;
  evictions: number;
  fileOpens: number;
  bytes: number;
  budget: number;
  reserved: number;
}

async function figures(h: TestService): Promise<Figures> {
  const text = await (await fetch(`${h.service.url}/metrics`)).text();
  const read = (name: string) => {
    const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
    if (!match) throw new Error(`no ${name} in /metrics`);
    return Number(match[1]);
  };
  return {
    loaded: read('kb_robot_indexes_loaded'),
    loads: read('kb_robot_index_loads'),
    evictions: read('kb_robot_index_evictions'),
    fileOpens: read('kb_robot_index_file_opens'),
    bytes: read('kb_robot_index_bytes'),
    budget: read('kb_robot_index_budget_bytes'),
    reserved: read('kb_robot_index_reserved_bytes'),
  };
}

async function setUp(h: TestService): Promise<RobotClient[]> {
  const robots: RobotClient[] = [];
  for (let n = 0; n < ROBOTS; n++) {
    const { robot } = await registerTenantWithRobot(h.client);
    await robot.importRules(rulesOf(n));
    robots.push(robot);
  }
  return robots;
}

const answersOf = async (robot: RobotClient) => {
  const answers = [];
  for (const question of QUESTIONS) {
    const { answer, answerType, score, module } = await robot.ask(question);
    answers.push({ answer, answerType, score, module });
  }
  return answers;
};

describe('robots loaded on demand within a memory budget', () => {
  let h: TestService;
  let plain: TestService;
  let robots: RobotClient[] = [];
  let expected: Awaited<ReturnType<typeof answersOf>>[] = [];
  let budget = 0;

  before(async () => {
    budget = twoRobots();
    [h, plain] = await Promise.all([
      startTestService({ memoryBudget: budget, metrics: 'on' }),
      startTestService({ memoryBudget: null }),
    ]);
    robots = await setUp(h);
    const plainRobots = await setUp(plain);
    expected = [];
    for (const robot of plainRobots) expected.push(await answersOf(robot));
  });
  after(() => Promise.all([h.close(), plain.close()]));

  test('asks to five robots answer as without a budget; two indexes at most stay in memory', async () => {
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < ROBOTS; n++) {
        assert.deepEqual(await answersOf(robots[n] as RobotClient), expected[n], `robot ${n}`);
      }
    }
    const after = await figures(h);
    assert.equal(after.budget, budget);
    assert.ok(after.loaded <= 2 && after.loaded >= 1, JSON.stringify(after));
    assert.ok(after.bytes <= budget, JSON.stringify(after));
    // Asked round-robin, each robot was let go before it was asked again.
    assert.ok(after.loads >= 2 * ROBOTS, JSON.stringify(after));
    assert.ok(after.evictions >= after.loads - 2, JSON.stringify(after));
  });

  test('two asks at once to a robot not in memory load it once', async () => {
    for (const robot of robots.slice(2)) await robot.ask('when do you open');
    const before = await figures(h);
    const first = robots[0] as RobotClient;
    const [a, b] = await Promise.all([first.ask('delivery cost'), first.ask('opening hours')]);
    assert.equal(a.answer, 'shipping 0 dollars');
    assert.equal(b.answer, 'open at 0 am');
    assert.equal((await figures(h)).loads, before.loads + 1);
  });

  test('the robot directory and signatures are answered without loading an index', async () => {
    const before = await figures(h);
    const first = robots[1] as RobotClient;
    const listed = await h.client.listRobots(first.tenantId);
    assert.ok(listed.some((robot) => robot.robotId === first.robotId));
    const forged = h.client.robot(first.tenantId, first.robotId, 'not-the-secret');
    const refused = await forged.send('POST', '/robot/ask', {
      body: { userId: 'u', question: 'when do you open', channel: 'API', questionType: 'TEXT' },
    });
    assert.equal(refused.status, 401);
    assert.equal((await first.listRules()).totalCount, 3);
    const now = await figures(h);
    assert.equal(now.loads, before.loads);
  });

  test('imports and rule edits to robots not in memory are answered once loaded', async () => {
    // Robots 3 and 4 asked last: 0 is out of memory.
    for (const robot of robots.slice(3)) await robot.ask('when do you open');
    const first = robots[0] as RobotClient;
    await first.importRules([ruleInput('parking', ['where can I park'], 'park behind the shop')]);
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const R = `/tenants/${first.tenantId}/robots/${first.robotId}`;
    const rows = await api.ok<{ rows: { ruleId: string; ruleName: string }[] }>(
      'GET',
      `${R}/rules`,
    );
    const hours = rows.rows.find((row) => row.ruleName === 'hours 0')?.ruleId;
    await api.ok('PATCH', `${R}/rules/${hours}`, { questions: ['what time do you start'] });
    for (const robot of robots.slice(3)) await robot.ask('when do you open');
    assert.equal((await first.ask('where can I park')).answer, 'park behind the shop');
    assert.equal((await first.ask('what time do you start')).answer, 'open at 0 am');
    assert.notEqual((await first.ask('when do you open')).answer, 'open at 0 am');
  });

  test('publishing in review mode works on a robot not in memory', async () => {
    const second = robots[1] as RobotClient;
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const R = `/tenants/${second.tenantId}/robots/${second.robotId}`;
    for (const robot of robots.slice(3)) await robot.ask('when do you open');
    await api.ok('PATCH', R, { settings: { publishMode: 'review' } });
    const rows = await api.ok<{ rows: { ruleId: string; ruleName: string }[] }>(
      'GET',
      `${R}/rules`,
    );
    const shipping = rows.rows.find((row) => row.ruleName === 'shipping 1')?.ruleId;
    await api.ok('PATCH', `${R}/rules/${shipping}`, { answer: 'free shipping' });
    for (const robot of robots.slice(3)) await robot.ask('when do you open');
    // The openapi answers the published version, the try pane's draft the edit.
    assert.equal((await second.ask('delivery cost')).answer, 'shipping 1 dollars');
    const published = await api.call('POST', `${R}/versions`, { note: 'free', author: 'admin' });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    for (const robot of robots.slice(3)) await robot.ask('when do you open');
    assert.equal((await second.ask('delivery cost')).answer, 'free shipping');
  });

  test("a test run against an old version counts that version's index in the budget while it runs", async () => {
    const second = robots[1] as RobotClient;
    const api = consoleClient(h.service.url, h.service.consoleToken);
    const R = `/tenants/${second.tenantId}/robots/${second.robotId}`;
    await api.ok('POST', `${R}/test-cases`, {
      cases: [{ question: 'delivery cost', expect: 'rule', ruleName: 'shipping 1' }],
    });
    const rows = await api.ok<{ rows: { ruleId: string; ruleName: string }[] }>(
      'GET',
      `${R}/rules`,
    );
    const hours = rows.rows.find((row) => row.ruleName === 'hours 1')?.ruleId;
    await api.ok('PATCH', `${R}/rules/${hours}`, { answer: 'open at noon' });
    const published = await api.call('POST', `${R}/versions`, { note: 'noon', author: 'admin' });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    for (const robot of robots.slice(3)) await robot.ask('when do you open');
    const before = await figures(h);
    assert.equal(before.reserved, 0);
    // Version 1 is no longer the published one: its index is built for the run, and the
    // robots in memory are let go to make room for it.
    const run = await runTestSet(api, R, 'v1');
    assert.equal(run.edition, 'v1');
    const now = await figures(h);
    assert.ok(now.evictions > before.evictions, JSON.stringify({ before, now }));
    assert.equal(now.reserved, 0, 'given back once the run ended');
  });

  test('a robot let go of is opened from its saved index file, answering the same', async () => {
    // Robots 2–4 had no write since they were built, and were saved in the background: wait for
    // their files (a state, not a time). Robots 0 and 1 were written to (on PostgreSQL the node
    // also follows its own writes back), so their files may have gone until they are loaded again.
    const dir = join(h.dataDir, 'indexes');
    const keys = robots.slice(2).map(({ tenantId, robotId }) => `"key":"${tenantId}/${robotId}"`);
    const saved = () => {
      const heads = readdirSync(dir)
        .filter((name) => name.endsWith('.kbri'))
        .map((name) => readFileSync(join(dir, name)).subarray(0, 200).toString('latin1'));
      return keys.every((key) => heads.some((head) => head.includes(key)));
    };
    while (!saved()) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await figures(h);
    for (let n = 2; n < ROBOTS; n++) {
      assert.deepEqual(await answersOf(robots[n] as RobotClient), expected[n], `robot ${n}`);
    }
    const now = await figures(h);
    assert.ok(now.loads > before.loads, JSON.stringify(now));
    assert.equal(now.fileOpens - before.fileOpens, now.loads - before.loads, JSON.stringify(now));
  });

  test('after a restart every robot still answers as before, opened from its saved file', async () => {
    await h.restart();
    for (let n = 2; n < ROBOTS; n++) {
      const { tenantId, robotId, robotSecret } = robots[n] as RobotClient;
      const again = h.client.robot(tenantId, robotId, robotSecret);
      assert.deepEqual(await answersOf(again), expected[n], `robot ${n}`);
    }
    const now = await figures(h);
    assert.ok(now.loaded <= 2, JSON.stringify(now));
    // The clean stop vouched for every file: nothing was built from the rules.
    assert.ok(now.fileOpens >= 1, JSON.stringify(now));
    assert.equal(now.fileOpens, now.loads, JSON.stringify(now));
  });

  test("another node's write while this one is stopped voids that robot's saved file, not the others'", async () => {
    await h.service.stop();
    // Another node on the same store (on the embedded store: the next process on its data
    // directory, without a budget: it leaves the saved indexes alone) writes to robot 3.
    const other = await startTestService({ dataDir: h.dataDir, memoryBudget: null });
    const three = robots[3] as RobotClient;
    await other.client
      .robot(three.tenantId, three.robotId, three.robotSecret)
      .importRules([ruleInput('parking 3', ['where can I park my car'], 'park behind shop 3')]);
    await other.service.stop();
    // The embedded store's whole-node index file (its stop saved every robot at the new position)
    // is another mechanism: gone, only the per-robot files remain to open robots from.
    rmSync(join(h.dataDir, 'kb.index'), { force: true });
    await h.restart();
    const again = (n: number) => {
      const { tenantId, robotId, robotSecret } = robots[n] as RobotClient;
      return h.client.robot(tenantId, robotId, robotSecret);
    };
    const before = await figures(h);
    assert.deepEqual(await answersOf(again(4)), expected[4], 'robot 4');
    const afterFour = await figures(h);
    // Nothing was written to robot 4: its file still holds (a load, and it came from the file).
    assert.equal(afterFour.fileOpens - before.fileOpens, afterFour.loads - before.loads);
    assert.ok(afterFour.fileOpens >= 1, JSON.stringify(afterFour));
    // Robot 3's file missed the other node's write: built from its rules, it has the new one.
    assert.equal((await again(3).ask('where can I park my car')).answer, 'park behind shop 3');
    const now = await figures(h);
    assert.ok(now.loads - now.fileOpens >= 1, JSON.stringify(now));
  });

  test('damaged or truncated saved indexes are not used: the robots are built from their rules', async () => {
    // Damaged once the node has stopped (a stop saves the indexes in memory without a file).
    await h.service.stop();
    const dir = join(h.dataDir, 'indexes');
    const files = readdirSync(dir).filter((name) => name.endsWith('.kbri'));
    assert.ok(files.length > 0);
    files.forEach((name, i) => {
      const path = join(dir, name);
      const bytes = readFileSync(path);
      if (i % 2 === 0) {
        bytes[bytes.length - 9] = (bytes[bytes.length - 9] ?? 0) ^ 0xff;
        writeFileSync(path, bytes);
      } else writeFileSync(path, bytes.subarray(0, bytes.length - 16));
    });
    await h.restart();
    for (let n = 2; n < ROBOTS; n++) {
      const { tenantId, robotId, robotSecret } = robots[n] as RobotClient;
      const again = h.client.robot(tenantId, robotId, robotSecret);
      assert.deepEqual(await answersOf(again), expected[n], `robot ${n}`);
    }
    const now = await figures(h);
    // Robots 2–4 were each built from their rules at least once (a robot built, saved again and
    // let go of may then open from its new file).
    assert.ok(now.loads - now.fileOpens >= ROBOTS - 2, JSON.stringify(now));
  });
});
