import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type {
  ConsoleRule,
  ConsoleSession,
  SignInResult,
} from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import {
  registerTenantWithRobot,
  ruleInput,
  startTestService,
  tenantRequest,
} from '../helpers/service';
import type { TestService } from '../helpers/service';

/** Signing in to a team server's editor (docs/api.md, "Signing in"), over real HTTP. */

async function signIn(h: TestService, body: Record<string, unknown>, forwardedFor?: string) {
  const response = await fetch(`${h.service.url}/console/api/sign-in`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as { code: string; msg: string; data: SignInResult | null },
  };
}

/** Signs in and returns a console client holding the session token. */
async function editorOf(h: TestService, username: string, password: string, tenantId?: number) {
  const { status, body } = await signIn(h, { username, password, tenantId });
  assert.equal(status, 200, JSON.stringify(body));
  const data = body.data as Extract<SignInResult, { status: 'signed-in' }>;
  assert.equal(data.status, 'signed-in');
  return { ...data, console: consoleClient(h.service.url, data.token) };
}

const R = (tenantId: number) => `/tenants/${tenantId}/robots/default`;

describe('signing in to a team server', () => {
  let h: TestService;
  let mine: number;
  let theirs: number;
  before(async () => {
    h = await startTestService({ signIn: true });
    mine = (
      await h.client.registerTenant(tenantRequest({ username: 'alice', password: 'alice-pw1' }))
    ).tenantId;
    theirs = (
      await h.client.registerTenant(tenantRequest({ username: 'bob', password: 'bob-pw12' }))
    ).tenantId;
  });
  after(() => h.close());

  test('the editor asks whether it signs in, with no token', async () => {
    const response = await fetch(`${h.service.url}/console/api/sign-in`);
    const body = (await response.json()) as { data: Record<string, unknown> };
    assert.deepEqual(body.data, { signIn: true, sessionIdleMinutes: 30, sessionMaxMinutes: 720 });
    assert.equal(h.service.editorUrl, `${h.service.url}/`);
  });

  test("an administrator's username and password give a session of their tenant", async () => {
    const alice = await editorOf(h, 'ALICE', 'alice-pw1');
    assert.equal(alice.username, 'alice');
    assert.equal(alice.tenantId, mine);
    assert.match(alice.token, /^[\w-]{43}$/);
    const workspace = await alice.console.ok<{
      tenants: { tenantId: number }[];
      customer: { adminKey: string; adminSecret: string };
    }>('GET', '/workspace');
    assert.deepEqual(
      workspace.tenants.map((t) => t.tenantId),
      [mine],
    );
    assert.equal(workspace.customer.adminSecret, '', "the customer's credentials stay hidden");
    assert.equal(workspace.customer.adminKey, '');
    assert.deepEqual((workspace as unknown as { signedIn: unknown }).signedIn, {
      username: 'alice',
      tenantId: mine,
    });
  });

  test('a wrong password and an unknown username fail alike', async () => {
    const wrong = await signIn(h, { username: 'alice', password: 'not-hers' });
    const unknown = await signIn(h, { username: 'nobody', password: 'alice-pw1' });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.body.code, 'sign-in-failed');
    assert.deepEqual(unknown.body, wrong.body);
  });

  test('the per-launch token opens nothing on a team server', async () => {
    const withToken = consoleClient(h.service.url, h.service.consoleToken);
    const { status, body } = await withToken.call('GET', '/workspace');
    assert.equal(status, 401);
    assert.equal(body.code, 'not-signed-in');
    const none = await consoleClient(h.service.url, '').call('GET', `${R(mine)}/rules`);
    assert.equal(none.body.code, 'not-signed-in');
  });

  test("a signed-in administrator sees and changes only their own tenant's robots", async () => {
    const alice = await editorOf(h, 'alice', 'alice-pw1');
    const refused: [string, string, unknown?][] = [
      ['GET', `${R(theirs)}/rules`],
      ['POST', `${R(theirs)}/rules`, { ruleName: 'x', questions: ['x?'], answer: 'x' }],
      ['PATCH', R(theirs), { name: 'mine now' }],
      ['POST', `${R(theirs)}/rotate-secret`],
      ['DELETE', R(theirs)],
      ['POST', `${R(theirs)}/try`, { question: 'hello' }],
      ['GET', `${R(theirs)}/categories`],
      ['GET', `${R(theirs)}/versions`],
      ['GET', `${R(theirs)}/question-log`],
      [
        'POST',
        `/tenants/${theirs}/users`,
        { username: 'mallory', password: 'pw-123456', role: 'ADMIN' },
      ],
      ['POST', `/tenants/${theirs}/robots`, { name: 'spy' }],
      ['DELETE', `/tenants/${theirs}`],
      ['GET', `/tenants/${theirs + 100}/robots/default/rules`],
    ];
    for (const [method, path, body] of refused) {
      const answer = await alice.console.call(method, path, body);
      assert.equal(answer.status, 403, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, 'other-tenant', `${method} ${path}`);
    }
    const register = await alice.console.call('POST', '/tenants', tenantRequest());
    assert.equal(register.status, 403);
    assert.equal(register.body.code, 'customer-only');
    // Their robot is untouched, and the own tenant stays open.
    const robots = await h.client.listRobots(theirs);
    assert.equal(robots.find((r) => r.robotId === 'default')?.name !== 'mine now', true);
    const own = await alice.console.call('GET', `${R(mine)}/rules`);
    assert.equal(own.status, 200);
  });

  test("the trash lists only the administrator's tenant", async () => {
    await h.client.createRobot(theirs, 'doomed');
    const bob = await editorOf(h, 'bob', 'bob-pw12');
    const doomed = (await h.client.listRobots(theirs)).find((r) => r.name === 'doomed');
    await bob.console.ok('DELETE', `/tenants/${theirs}/robots/${doomed?.robotId ?? ''}`);
    const alice = await editorOf(h, 'alice', 'alice-pw1');
    const trash = await alice.console.ok<{ robots: { tenantId: number }[] }>('GET', '/trash');
    assert.deepEqual(trash.robots, []);
    const bobs = await bob.console.ok<{ robots: { tenantId: number }[] }>('GET', '/trash');
    assert.deepEqual(
      bobs.robots.map((r) => r.tenantId),
      [theirs],
    );
  });

  test('every change records who made it: the administrator, or api', async () => {
    const alice = await editorOf(h, 'alice', 'alice-pw1');
    const made = await alice.console.ok<ConsoleRule>('POST', `${R(mine)}/rules`, {
      ruleName: 'opening hours',
      questions: ['when are you open?'],
      answer: 'Nine to five.',
    });
    assert.equal(made.updatedBy, 'alice');
    const robot = (await h.client.listRobots(mine)).find((r) => r.robotId === 'default');
    const imported = await h.client
      .robot(mine, 'default', robot?.robotSecret ?? '')
      .importRules([ruleInput('parking', ['where can I park?'])]);
    const importedId = imported.succeed[0]?.ruleId ?? '';
    const viaApi = await alice.console.ok<ConsoleRule>('GET', `${R(mine)}/rules/${importedId}`);
    assert.equal(viaApi.updatedBy, 'api');
    const edited = await alice.console.ok<ConsoleRule>('PATCH', `${R(mine)}/rules/${importedId}`, {
      answer: 'Behind the shop.',
    });
    assert.equal(edited.updatedBy, 'alice');
    await alice.console.ok('POST', `${R(mine)}/rules/delete`, { ruleIds: [made.ruleId] });
    const trash = await alice.console.ok<{ rules: ConsoleRule[] }>('GET', `${R(mine)}/rules/trash`);
    assert.equal(trash.rules.find((r) => r.ruleId === made.ruleId)?.updatedBy, 'alice');
    // A version's author is the signed-in administrator, whoever the body names.
    const published = await alice.console.ok<{ version: { author: string } }>(
      'POST',
      `${R(mine)}/versions`,
      { note: 'first', author: 'somebody else' },
    );
    assert.equal(published.version.author, 'alice');
  });

  test('signing out ends the session', async () => {
    const alice = await editorOf(h, 'alice', 'alice-pw1');
    assert.equal((await alice.console.call('GET', '/workspace')).status, 200);
    assert.deepEqual(await alice.console.ok('POST', '/sign-out'), { signedOut: true });
    const after = await alice.console.call('GET', '/workspace');
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'not-signed-in');
  });

  test('an administrator deleted meanwhile is signed out at the next request', async () => {
    const bob = await editorOf(h, 'bob', 'bob-pw12');
    const added = await bob.console.ok<{ userId: string }>('POST', `/tenants/${theirs}/users`, {
      username: 'bob_two',
      password: 'bob-two-pw',
      role: 'ADMIN',
    });
    const second = await editorOf(h, 'bob_two', 'bob-two-pw');
    assert.equal((await second.console.call('GET', '/workspace')).status, 200);
    await bob.console.ok('DELETE', `/tenants/${theirs}/users/${added.userId}`);
    const refused = await second.console.call('GET', '/workspace');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'not-signed-in');
  });

  test('a username and password of several tenants ask which one', async () => {
    const third = (
      await h.client.registerTenant(tenantRequest({ username: 'Alice', password: 'alice-pw1' }))
    ).tenantId;
    const asked = await signIn(h, { username: 'alice', password: 'alice-pw1' });
    assert.equal(asked.status, 200);
    const choice = asked.body.data as Extract<SignInResult, { status: 'choose-tenant' }>;
    assert.equal(choice.status, 'choose-tenant');
    assert.deepEqual(
      choice.tenants.map((t) => t.tenantId),
      [mine, third],
    );
    const chosen = await editorOf(h, 'alice', 'alice-pw1', third);
    assert.equal(chosen.tenantId, third);
    assert.equal(chosen.username, 'Alice');
  });
});

describe('failed sign-ins are rate-limited', () => {
  let h: TestService;
  let offset = 0;
  // The service's clock moves only when a test moves it: the waits it announces are exact.
  const start = Date.now();
  before(async () => {
    h = await startTestService({ signIn: true, now: () => start + offset });
    await h.client.registerTenant(tenantRequest({ username: 'carol', password: 'carol-pw1' }));
    await h.client.registerTenant(tenantRequest({ username: 'erin', password: 'erin-pw12' }));
  });
  after(() => h.close());

  test('five failures of an account from one address make that pair wait, growing, the right password too', async () => {
    for (let i = 0; i < 5; i += 1) {
      const failed = await signIn(h, { username: 'carol', password: `wrong-${i}` });
      assert.equal(failed.body.code, 'sign-in-failed');
    }
    const locked = await signIn(h, { username: 'carol', password: 'carol-pw1' });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, 'too-many-sign-ins');
    assert.equal(locked.retryAfter, '60');
    offset += 61_000;
    assert.equal((await signIn(h, { username: 'carol', password: 'wrong-6' })).status, 401);
    const longer = await signIn(h, { username: 'carol', password: 'carol-pw1' });
    assert.equal(longer.status, 429);
    assert.equal(longer.retryAfter, '120', 'the wait doubles');
    offset += 121_000;
    const signed = await signIn(h, { username: 'carol', password: 'carol-pw1' });
    assert.equal(signed.status, 200);
  });

  test('thirty wrong passwords at once: five are checked, the others refused before any hash', async () => {
    offset += 16 * 60_000;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(h, { username: 'erin', password: `guess-${i}` })),
    );
    const checked = answers.filter((a) => a.body.code === 'sign-in-failed').length;
    const refused = answers.filter((a) => a.body.code === 'too-many-sign-ins').length;
    assert.deepEqual({ checked, refused }, { checked: 5, refused: 25 });
    // An unknown username is limited the same: nothing tells whether it exists.
    const unknown = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        signIn(h, { username: 'nobody_here', password: `guess-${i}` }),
      ),
    );
    assert.equal(unknown.filter((a) => a.body.code === 'sign-in-failed').length, 5);
  });

  test('twenty failures from one address, whatever the usernames, make the address wait', async () => {
    offset += 16 * 60_000;
    for (let i = 0; i < 20; i += 1) {
      const failed = await signIn(h, { username: `guess${i}`, password: 'whatever' });
      assert.equal(failed.body.code, 'sign-in-failed', `attempt ${i}`);
    }
    const locked = await signIn(h, { username: 'carol', password: 'carol-pw1' });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, 'too-many-sign-ins');
  });
});

describe('behind a trusted load balancer, failures count per forwarded address', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService({ signIn: true, trustProxy: ['127.0.0.1'] });
    await h.client.registerTenant(tenantRequest({ username: 'dave', password: 'dave-pw1' }));
  });
  after(() => h.close());

  test('one client guessing from behind the balancer does not lock out the others', async () => {
    for (let i = 0; i < 20; i += 1) {
      await signIn(h, { username: `guess${i}`, password: 'whatever' }, '203.0.113.7');
    }
    const guesser = await signIn(h, { username: 'dave', password: 'dave-pw1' }, '203.0.113.7');
    assert.equal(guesser.status, 429, 'the guessing address waits');
    const other = await signIn(h, { username: 'dave', password: 'dave-pw1' }, '198.51.100.2');
    assert.equal(other.status, 200, 'another client of the balancer signs in');
  });
});

describe('a lockout is no weapon: per account, but not against the addresses it signs in from', () => {
  let h: TestService;
  let victimTenant: number;
  let offset = 0;
  const HOME = '198.51.100.10';
  before(async () => {
    h = await startTestService({
      signIn: true,
      trustProxy: ['127.0.0.1'],
      now: () => Date.now() + offset,
    });
    victimTenant = (
      await h.client.registerTenant(tenantRequest({ username: 'victim', password: 'victim-pw1' }))
    ).tenantId;
    // The administrator signed in from home before: a known client of the account.
    assert.equal(
      (await signIn(h, { username: 'victim', password: 'victim-pw1' }, HOME)).status,
      200,
    );
  });
  after(() => h.close());

  test('a stranger failing from many addresses cannot keep the administrator out at home', async () => {
    const from = (i: number) => `203.0.113.${i + 1}`;
    const answers = [];
    for (let i = 0; i < 14; i += 1) {
      answers.push(
        (await signIn(h, { username: 'victim', password: `guess-${i}` }, from(i))).body.code,
      );
    }
    assert.deepEqual(
      answers,
      [...Array<string>(10).fill('sign-in-failed'), ...Array<string>(4).fill('too-many-sign-ins')],
      'ten failures of the account from anywhere, then it waits',
    );
    const atHome = await signIn(h, { username: 'victim', password: 'victim-pw1' }, HOME);
    assert.equal(atHome.status, 200, 'the right password from a known address is not refused');
    const elsewhere = await signIn(h, { username: 'victim', password: 'victim-pw1' }, '192.0.2.50');
    assert.equal(elsewhere.status, 429, 'a new address waits with the account');
    offset += 16 * 60_000;
    const later = await signIn(h, { username: 'victim', password: 'victim-pw1' }, '192.0.2.50');
    assert.equal(later.status, 200, 'and signs in once the window has passed');
  });

  test("another tenant's administrator of the same username cannot reset the victim's count", async () => {
    offset += 16 * 60_000;
    // The attacker's tenant adds an administrator named like the victim, with its own password.
    await h.client.registerTenant(tenantRequest({ username: 'Victim', password: 'attacker-pw' }));
    const outcomes: string[] = [];
    const ownSignIns: number[] = [];
    for (let i = 0; i < 24; i += 1) {
      const address = `203.0.113.${100 + i}`;
      // The 21st guess is the victim's password: it must not be checked any more.
      const guess = i === 20 ? 'victim-pw1' : `guess-${i}`;
      const answer = await signIn(h, { username: 'victim', password: guess }, address);
      const data = answer.body.data as Extract<SignInResult, { status: 'signed-in' }> | null;
      outcomes.push(data?.tenantId === victimTenant ? 'victim opened' : answer.body.code);
      if (i % 4 === 3) {
        // A success of the attacker's own account after every four guesses.
        const own = await signIn(h, { username: 'victim', password: 'attacker-pw' }, address);
        ownSignIns.push(own.status);
      }
    }
    assert.equal(ownSignIns[0], 200, "the attacker's own account opens");
    assert.equal(outcomes.includes('victim opened'), false, JSON.stringify(outcomes));
  });
});

describe("an administrator's sessions: listed, ended one or all, and by a password or role change", () => {
  let h: TestService;
  let tenantId: number;
  let mallory: string;
  before(async () => {
    h = await startTestService({ signIn: true });
    tenantId = (
      await h.client.registerTenant(tenantRequest({ username: 'frank', password: 'frank-pw1' }))
    ).tenantId;
    mallory = (
      await h.client.addUser(tenantId, {
        username: 'mallory',
        password: 'mallory-pw1',
        role: 'ADMIN',
      })
    ).userId;
  });
  after(() => h.close());

  const opened = async (token: string) =>
    (await consoleClient(h.service.url, token).call('GET', '/workspace')).status === 200;

  test('the list shows only my open sessions, this one marked; one ends, then all of them', async () => {
    const first = await editorOf(h, 'frank', 'frank-pw1');
    const second = await editorOf(h, 'frank', 'frank-pw1');
    const other = await editorOf(h, 'mallory', 'mallory-pw1');
    const { sessions } = await first.console.ok<{ sessions: ConsoleSession[] }>('GET', '/sessions');
    assert.equal(sessions.length, 2, 'not the other administrator’s');
    assert.deepEqual(
      sessions.map((s) => s.current),
      [false, true],
      'the newest first; the one asking is marked',
    );
    for (const session of sessions) {
      assert.equal(session.address, '127.0.0.1');
      assert.match(session.sessionId, /^[\w-]{16}$/);
      assert.equal(JSON.stringify(session).includes(first.token), false);
      assert.ok(Date.parse(session.expiresAt) > Date.parse(session.signedInAt));
    }
    const secondId = sessions.find((s) => !s.current)?.sessionId ?? '';
    const unknown = await first.console.call('DELETE', '/sessions/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'session-not-found');
    const notMine = await other.console.call('DELETE', `/sessions/${secondId}`);
    assert.equal(notMine.body.code, 'session-not-found', "another administrator's is not theirs");
    assert.deepEqual(await first.console.ok('DELETE', `/sessions/${secondId}`), { signedOut: 1 });
    assert.equal(await opened(second.token), false);
    assert.equal(await opened(first.token), true);
    const third = await editorOf(h, 'frank', 'frank-pw1');
    assert.deepEqual(await third.console.ok('POST', '/sign-out-everywhere'), { signedOut: 2 });
    assert.equal(await opened(first.token), false);
    assert.equal(await opened(third.token), false);
    assert.equal(await opened(other.token), true, "another administrator's sessions stay");
  });

  test('a password changed over the openapi ends every session of that administrator', async () => {
    const one = await editorOf(h, 'mallory', 'mallory-pw1');
    const two = await editorOf(h, 'mallory', 'mallory-pw1');
    const bystander = await editorOf(h, 'frank', 'frank-pw1');
    await h.client.updateUser(tenantId, mallory, { password: 'mallory-pw2' });
    for (const token of [one.token, two.token]) {
      const refused = await consoleClient(h.service.url, token).call('GET', '/workspace');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'not-signed-in');
    }
    assert.equal(await opened(bystander.token), true);
    assert.equal((await signIn(h, { username: 'mallory', password: 'mallory-pw1' })).status, 401);
    await editorOf(h, 'mallory', 'mallory-pw2');
  });

  test('a password changed in the editor, or the administrator deleted, ends their sessions', async () => {
    const changed = await editorOf(h, 'mallory', 'mallory-pw2');
    const frank = await editorOf(h, 'frank', 'frank-pw1');
    await frank.console.ok('PUT', `/tenants/${tenantId}/users/${mallory}`, {
      password: 'mallory-pw3',
    });
    assert.equal(await opened(changed.token), false, 'ended by the console');
    assert.equal(await opened(frank.token), true);
    const disabled = await editorOf(h, 'mallory', 'mallory-pw3');
    const unused = await editorOf(h, 'mallory', 'mallory-pw3');
    await frank.console.ok('DELETE', `/tenants/${tenantId}/users/${mallory}`);
    assert.equal(await opened(disabled.token), false, 'ended when the administrator is deleted');
    await frank.console.ok('POST', `/tenants/${tenantId}/users/${mallory}/restore`);
    // A session not used while its administrator was deleted does not come back with them.
    assert.equal(await opened(unused.token), false, 'and not back with a restore');
    await editorOf(h, 'mallory', 'mallory-pw3');
  });

  test('the tenant deleted ends the sessions of every administrator of it', async () => {
    const { tenantId: doomed } = await h.client.registerTenant(
      tenantRequest({ username: 'oscar', password: 'oscar-pw1' }),
    );
    await h.client.addUser(doomed, { username: 'peggy', password: 'peggy-pw1', role: 'ADMIN' });
    const oscar = await editorOf(h, 'oscar', 'oscar-pw1');
    const peggy = await editorOf(h, 'peggy', 'peggy-pw1');
    const bystander = await editorOf(h, 'frank', 'frank-pw1');
    await oscar.console.ok('DELETE', `/tenants/${doomed}`);
    for (const token of [oscar.token, peggy.token]) {
      const refused = await consoleClient(h.service.url, token).call('GET', '/workspace');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'not-signed-in');
    }
    assert.equal(await opened(bystander.token), true, "another tenant's sessions stay");
  });

  test('the openapi cannot demote an administrator: any role but ADMIN is refused', async () => {
    // The one role the API knows is ADMIN (validation/schemas.ts), so no request demotes; a
    // role change in the store ends the sessions (tests/contract, the users' triggers).
    const { userId } = await h.client.addUser(tenantId, {
      username: 'trent',
      password: 'trent-pw1',
      role: 'ADMIN',
    });
    const session = await editorOf(h, 'trent', 'trent-pw1');
    const path = `/v1/openapi/tenants/${tenantId}/users/${userId}`;
    for (const role of ['EDITOR', 'VIEWER', 'admin']) {
      const demoted = await h.client.send('PUT', path, { signMethod: 1, body: { role } });
      assert.equal(demoted.status, 400, role);
      assert.equal(demoted.body.code, 'invalid-field', role);
    }
    assert.equal(await opened(session.token), true, 'a refused change ends nothing');
    await h.client.send('PUT', path, { signMethod: 1, body: { role: 'ADMIN' } });
    assert.equal(await opened(session.token), true, 'nor does the role it already has');
  });
});

describe('sessions expire', () => {
  let h: TestService;
  let offset = 0;
  before(async () => {
    h = await startTestService({
      signIn: true,
      sessionIdleMs: 60_000,
      sessionMaxMs: 150_000,
      now: () => Date.now() + offset,
    });
    await h.client.registerTenant(tenantRequest({ username: 'dave', password: 'dave-pw12' }));
  });
  after(() => h.close());

  test('after the idle limit without use: 401 session-expired', async () => {
    const dave = await editorOf(h, 'dave', 'dave-pw12');
    offset += 40_000;
    assert.equal((await dave.console.call('GET', '/workspace')).status, 200);
    offset += 40_000; // 80 s since signing in, 40 s since the last use
    assert.equal((await dave.console.call('GET', '/workspace')).status, 200);
    offset += 61_000;
    const expired = await dave.console.call('GET', '/workspace');
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 'session-expired');
    assert.equal((await dave.console.call('GET', '/workspace')).body.code, 'session-expired');
  });

  test('after the absolute limit, however much it is used', async () => {
    const dave = await editorOf(h, 'dave', 'dave-pw12');
    for (let used = 0; used < 3; used += 1) {
      offset += 45_000;
      assert.equal((await dave.console.call('GET', '/workspace')).status, 200);
    }
    offset += 10_000; // 145 s
    assert.equal((await dave.console.call('GET', '/workspace')).status, 200);
    offset += 10_000; // 155 s
    assert.equal((await dave.console.call('GET', '/workspace')).body.code, 'session-expired');
  });
});

describe('without sign-in (the desktop app, plain serve)', () => {
  let h: TestService;
  before(async () => {
    h = await startTestService();
  });
  after(() => h.close());

  test('the editor uses the per-launch token, sees every tenant and changes as "editor"', async () => {
    const response = await fetch(`${h.service.url}/console/api/sign-in`);
    assert.deepEqual(((await response.json()) as { data: unknown }).data, { signIn: false });
    const post = await signIn(h, { username: 'x', password: 'y' });
    assert.equal(post.status, 404);
    const { tenantId } = await registerTenantWithRobot(h.client);
    const editor = consoleClient(h.service.url, h.service.consoleToken);
    const made = await editor.ok<ConsoleRule>('POST', `${R(tenantId)}/rules`, {
      ruleName: 'hello',
      questions: ['hi?'],
      answer: 'Hello.',
    });
    assert.equal(made.updatedBy, 'editor');
  });
});
