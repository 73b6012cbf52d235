/**
 * Signing in on a team server of two nodes (the built service, `KB_DATABASE_URL` and
 * `KB_TEAM=1`) on one fresh PostgreSQL database: sessions and failed sign-ins are in the
 * database, so a session made on one node is admitted by the other, signing out on one ends it on
 * both, failures counted on either node lock an account out on both (thirty wrong passwords sent
 * to both nodes at once: five checked, whichever node), a password changed through either node
 * ends the sessions on both, and who changed a rule is seen from the other node.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { ConsoleRule, SignInResult } from '../../electron/service/console-types';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import { freshDatabase } from '../helpers/postgres';
import { TEST_CREDENTIALS, makeDataDir, tenantRequest } from '../helpers/service';

interface TeamNode {
  service: ChildService;
  dataDir: string;
}

let url: string;
let tenantId: number;
let client: OpenApiClient;
const nodes: TeamNode[] = [];

async function startNode(): Promise<TeamNode> {
  const dataDir = makeDataDir('team-node');
  const service = await spawnService(dataDir, { env: { KB_DATABASE_URL: url, KB_TEAM: '1' } });
  const node = { service, dataDir };
  nodes.push(node);
  return node;
}

async function signIn(node: TeamNode, username: string, password: string) {
  const response = await fetch(`${node.service.url}/console/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { code: string; data: SignInResult | null },
  };
}

async function sessionOn(node: TeamNode, username: string, password: string): Promise<string> {
  const { status, body } = await signIn(node, username, password);
  assert.equal(status, 200, JSON.stringify(body));
  const data = body.data as Extract<SignInResult, { status: 'signed-in' }>;
  return data.token;
}

const R = () => `/tenants/${tenantId}/robots/default`;

before(async () => {
  url = await freshDatabase('team-sign-in');
  const first = await startNode();
  client = new OpenApiClient({ baseUrl: first.service.url, ...TEST_CREDENTIALS });
  ({ tenantId } = await client.registerTenant(
    tenantRequest({ username: 'alice', password: 'alice-pw1' }),
  ));
  await client.registerTenant(tenantRequest({ username: 'carol', password: 'carol-pw1' }));
  await client.registerTenant(tenantRequest({ username: 'erin', password: 'erin-pw12' }));
  await startNode();
});

after(async () => {
  await Promise.all(
    nodes.map((node) => {
      if (node.service.child.exitCode === null) node.service.child.kill('SIGTERM');
      return node.service.exited.finally(() =>
        rmSync(node.dataDir, { recursive: true, force: true }),
      );
    }),
  );
});

describe('signing in on a team server of two nodes', () => {
  test('a session made on one node is admitted by the other, and ended on both', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    const token = await sessionOn(a, 'alice', 'alice-pw1');
    const onB = consoleClient(b.service.url, token);
    const workspace = await onB.ok<{ signedIn: { username: string; tenantId: number } }>(
      'GET',
      '/workspace',
    );
    assert.deepEqual(workspace.signedIn, { username: 'alice', tenantId });
    await onB.ok('POST', '/sign-out');
    const onA = await consoleClient(a.service.url, token).call('GET', '/workspace');
    assert.equal(onA.status, 401, 'signed out through the other node');
  });

  test('who changed a rule on one node is seen from the other', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    const alice = consoleClient(b.service.url, await sessionOn(b, 'alice', 'alice-pw1'));
    const made = await alice.ok<ConsoleRule>('POST', `${R()}/rules`, {
      ruleName: 'opening hours',
      questions: ['when are you open?'],
      answer: 'Nine to five.',
    });
    assert.equal(made.updatedBy, 'alice');
    const onA = consoleClient(a.service.url, await sessionOn(a, 'alice', 'alice-pw1'));
    const seen = await onA.ok<ConsoleRule>('GET', `${R()}/rules/${made.ruleId}`);
    assert.equal(seen.updatedBy, 'alice');
    await onA.ok('POST', `${R()}/rules/delete`, { ruleIds: [made.ruleId] });
    const trash = await alice.ok<{ rules: ConsoleRule[] }>('GET', `${R()}/rules/trash`);
    assert.equal(trash.rules.find((r) => r.ruleId === made.ruleId)?.updatedBy, 'alice');
  });

  test('failed sign-ins on either node lock the username out on both', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    // Five allowed (policy.ts), spread over the nodes; the sixth attempt is refused on each.
    for (let i = 0; i < 5; i += 1) {
      const failed = await signIn(i % 2 === 0 ? a : b, 'carol', `wrong-${i}`);
      assert.equal(failed.body.code, 'sign-in-failed');
    }
    for (const node of [a, b]) {
      const locked = await signIn(node, 'carol', 'carol-pw1');
      assert.equal(locked.status, 429);
      assert.equal(locked.body.code, 'too-many-sign-ins');
    }
  });

  test('thirty wrong passwords sent to both nodes at once: five are checked, the rest refused', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(i % 2 === 0 ? a : b, 'erin', `guess-${i}`)),
    );
    const checked = answers.filter((answer) => answer.body.code === 'sign-in-failed').length;
    const refused = answers.filter((answer) => answer.body.code === 'too-many-sign-ins').length;
    assert.deepEqual({ checked, refused }, { checked: 5, refused: 25 });
  });

  test('a password changed through one node ends the sessions on both', async () => {
    const [a, b] = nodes as [TeamNode, TeamNode];
    const { userId } = await client.addUser(tenantId, {
      username: 'grace',
      password: 'grace-pw1',
      role: 'ADMIN',
    });
    const onA = consoleClient(a.service.url, await sessionOn(a, 'grace', 'grace-pw1'));
    const onB = consoleClient(b.service.url, await sessionOn(b, 'grace', 'grace-pw1'));
    assert.equal((await onA.call('GET', '/workspace')).status, 200);
    assert.equal((await onB.call('GET', '/workspace')).status, 200);
    const throughB = new OpenApiClient({ baseUrl: b.service.url, ...TEST_CREDENTIALS });
    await throughB.updateUser(tenantId, userId, { password: 'grace-pw2' });
    for (const editor of [onA, onB]) {
      const refused = await editor.call('GET', '/workspace');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'not-signed-in');
    }
  });
});
