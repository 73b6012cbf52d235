/**
 * Three nodes of a team server (the built service, `KB_DATABASE_URL`) on loopback ports and one
 * fresh PostgreSQL database: what is written through one node is answered by the others (rules,
 * settings, a publish), a node started later joins with what was written, a signature used on
 * one node is refused on another, and a node killed with SIGKILL during imports loses nothing it
 * acknowledged while the others keep answering.
 *
 * The deadline of "answered by the others" is functional (5 s for the one second, on a
 * loaded machine), never a measure of speed: bench --database measures the delay.
 * Checked to fail with the follower off (ClusterNode.follow made a no-op): every test of another
 * node answering fails.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { freshDatabase } from '../helpers/postgres';
import { TEST_CREDENTIALS, makeDataDir, ruleInput, tenantRequest } from '../helpers/service';

const DEADLINE_MS = 5000;

interface TeamNode {
  service: ChildService;
  dataDir: string;
  client: OpenApiClient;
  robot: RobotClient;
  console: ReturnType<typeof consoleClient>;
}

let url: string;
let tenantId: number;
let robotSecret: string;
const nodes: TeamNode[] = [];

async function startNode(): Promise<TeamNode> {
  const dataDir = makeDataDir('node');
  const service = await spawnService(dataDir, { env: { KB_DATABASE_URL: url } });
  const token = /token=([\w-]+)/.exec(service.output())?.[1] ?? '';
  const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
  const node: TeamNode = {
    service,
    dataDir,
    client,
    robot: client.robot(tenantId, 'default', robotSecret),
    console: consoleClient(service.url, token),
  };
  nodes.push(node);
  return node;
}

function stopNode(node: TeamNode): Promise<unknown> {
  if (node.service.child.exitCode === null) node.service.child.kill('SIGTERM');
  return node.service.exited.finally(() => rmSync(node.dataDir, { recursive: true, force: true }));
}

/** The node's answer to a question, when the knowledge base answered it (else null). */
async function answer(node: TeamNode, question: string): Promise<string | null> {
  const result = await node.robot.ask(question);
  return result.module === 'KB' && result.answerType === 'BESTMATCH' ? result.answer : null;
}

async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const answeredBy = (node: TeamNode, question: string, expected: string) =>
  eventually(async () => (await answer(node, question)) === expected);

before(async () => {
  url = await freshDatabase('nodes');
  // The tenant is registered through the first node before the others start; the robot's
  // secret is then known to every client.
  const first = await startNode();
  ({ tenantId } = await first.client.registerTenant(tenantRequest()));
  const robots = await first.client.listRobots(tenantId);
  robotSecret = robots.find((r) => r.robotId === 'default')?.robotSecret ?? '';
  first.robot = first.client.robot(tenantId, 'default', robotSecret);
  await startNode();
  await startNode();
});

after(async () => {
  await Promise.all(nodes.map(stopNode));
});

describe('three nodes on one PostgreSQL database', () => {
  test('a rule imported through one node is answered by the other two', async () => {
    const [a, b, c] = nodes as [TeamNode, TeamNode, TeamNode];
    const result = await a.robot.importRules([
      ruleInput('opening hours', ['when are you open'], 'From 9 to 5.'),
    ]);
    assert.equal(result.failInfo.length, 0);
    assert.ok(await answeredBy(b, 'when are you open', 'From 9 to 5.'), 'node 2 answers');
    assert.ok(await answeredBy(c, 'when are you open', 'From 9 to 5.'), 'node 3 answers');
  });

  test('a robot registered through one node is known to the others', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    const other = await a.client.registerTenant(tenantRequest());
    const [robot] = await a.client.listRobots(other.tenantId);
    assert.ok(robot);
    // Known with its secret: a method-2 call signed with it is answered.
    const onB = b.client.robot(other.tenantId, robot.robotId, robot.robotSecret);
    assert.ok(
      await eventually(async () => {
        const response = await onB.send('POST', '/robot/ask', {
          body: { userId: 'u', question: 'hello there', channel: 'API', questionType: 'TEXT' },
        });
        return response.status === 200;
      }),
    );
  });

  test('robot settings changed through one node are followed by the others', async () => {
    const [a, b, c] = nodes as [TeamNode, TeamNode, TeamNode];
    await a.console.ok('PATCH', `/tenants/${tenantId}/robots/default`, {
      settings: { fallbackText: 'Please call us.' },
    });
    for (const node of [b, c]) {
      assert.ok(
        await eventually(
          async () => (await node.robot.ask('zzqx wibble frobnicate')).answer === 'Please call us.',
        ),
      );
    }
  });

  test('a publish through one node is served by the others', async () => {
    const [a, b, c] = nodes as [TeamNode, TeamNode, TeamNode];
    // Review mode: the openapi answers the published version, not the draft.
    await a.console.ok('PATCH', `/tenants/${tenantId}/robots/default`, {
      settings: { publishMode: 'review' },
    });
    await a.robot.importRules([ruleInput('parking', ['where can I park'], 'Behind the shop.')]);
    // Until published, the draft's new rule is not served.
    assert.equal(await answer(a, 'where can I park'), null);
    await a.console.ok('POST', `/tenants/${tenantId}/robots/default/versions`, {
      note: 'parking',
      author: 'test',
    });
    assert.equal(await answer(a, 'where can I park'), 'Behind the shop.');
    assert.ok(await answeredBy(b, 'where can I park', 'Behind the shop.'), 'node 2 serves it');
    assert.ok(await answeredBy(c, 'where can I park', 'Behind the shop.'), 'node 3 serves it');
    await a.console.ok('PATCH', `/tenants/${tenantId}/robots/default`, {
      settings: { publishMode: 'live' },
    });
  });

  test('a node started after the writes answers them at once', async () => {
    const late = await startNode();
    assert.equal(await answer(late, 'when are you open'), 'From 9 to 5.');
    assert.equal(await answer(late, 'where can I park'), 'Behind the shop.');
    assert.equal((await late.robot.ask('zzqx wibble frobnicate')).answer, 'Please call us.');
    await stopNode(late);
    nodes.splice(nodes.indexOf(late), 1);
  });

  test("a robot's secret rotated on one node is refused by the others", async () => {
    const [a, b, c] = nodes as [TeamNode, TeamNode, TeamNode];
    const rotated = await a.console.ok<{ robotSecret: string }>(
      'POST',
      `/tenants/${tenantId}/robots/default/rotate-secret`,
    );
    for (const node of [b, c]) {
      const old = node.robot;
      assert.ok(
        await eventually(async () => {
          const response = await old.send('POST', '/robot/ask', {
            body: {
              userId: 'u',
              question: 'when are you open',
              channel: 'API',
              questionType: 'TEXT',
            },
          });
          return response.status === 401;
        }),
        'the old secret is refused',
      );
      node.robot = node.client.robot(tenantId, 'default', rotated.robotSecret);
      assert.equal(await answer(node, 'when are you open'), 'From 9 to 5.');
    }
    a.robot = a.client.robot(tenantId, 'default', rotated.robotSecret);
    robotSecret = rotated.robotSecret;
  });

  test('a signature used on one node is refused on another', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    const signed = a.client.signedUrl(`/v1/openapi/tenants/${tenantId}/robots`, { signMethod: 1 });
    assert.equal((await fetch(signed)).status, 200);
    const replay = await fetch(signed.replace(a.service.url, b.service.url));
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as { code: string }).code, 'replayed-nonce');
  });

  test('a node killed with SIGKILL during imports loses nothing it acknowledged', async () => {
    const [victim, b, c] = nodes as [TeamNode, TeamNode, TeamNode];
    const acknowledged: { name: string; question: string; answer: string }[] = [];
    const failuresElsewhere: string[] = [];
    let importing = true;
    let batch = 0;
    const imports = (async () => {
      while (importing) {
        batch += 1;
        const rules = Array.from({ length: 20 }, (_, i) => {
          const id = `kill ${batch} ${i}`;
          return {
            name: id,
            question: `question number ${i} of batch ${batch} kx`,
            answer: `a ${id}`,
          };
        });
        try {
          const result = await victim.robot.importRules(
            rules.map((r) => ruleInput(r.name, [r.question], r.answer)),
          );
          if (result.failInfo.length === 0) acknowledged.push(...rules);
        } catch {
          return; // killed: this batch was never acknowledged
        }
      }
    })();
    // The other nodes answer throughout.
    let asking = true;
    const asks = Promise.all(
      [b, c].map(async (node) => {
        while (asking) {
          try {
            const result = await node.robot.ask('when are you open');
            if (result.answer !== 'From 9 to 5.')
              failuresElsewhere.push(`answered ${result.answer}`);
          } catch (error) {
            failuresElsewhere.push((error as Error).message);
          }
        }
      }),
    );
    while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 100)));
    victim.service.child.kill('SIGKILL');
    await victim.service.exited;
    importing = false;
    await imports;
    asking = false;
    await asks;
    assert.deepEqual(failuresElsewhere, []);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query<{ rule_name: string }>(
        "SELECT rule_name FROM rules WHERE rule_name LIKE 'kill %'",
      );
      const stored = new Set(rows.map((row) => row.rule_name));
      const lost = acknowledged.filter((rule) => !stored.has(rule.name));
      assert.deepEqual(lost, [], 'every acknowledged rule is in the database');
    } finally {
      await db.end();
    }
    for (const node of [b, c]) {
      for (const rule of acknowledged) {
        assert.ok(await answeredBy(node, rule.question, rule.answer), `${rule.name} answered`);
      }
    }
  });
});
