/**
 * The desktop's team-server commands (team-copy.ts) against two real services: this computer's
 * (the per-launch token) and a team server (`signIn: true`: editors sign in, each kept to their
 * tenant). The forms are answered by the test, as a person would fill them in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { exportRobotBundle, signIn, workspaceOf } from '../../../electron/client/robot-copy';
import type { ConsoleEndpoint } from '../../../electron/client/robot-copy';
import type { TeamServerPreference } from '../../../electron/desktop/preferences';
import type { PromptSpec } from '../../../electron/desktop/prompt-page';
import {
  chooseTeamServer,
  copyFromTeamServer,
  copyToTeamServer,
} from '../../../electron/desktop/team-copy';
import type { TeamDeps } from '../../../electron/desktop/team-copy';
import type { ConsoleRobot, ConsoleRule } from '../../../electron/service/console-types';
import { consoleClient } from '../../helpers/console-client';
import { startTestService, tenantRequest } from '../../helpers/service';
import type { TestService } from '../../helpers/service';

type Answer = Record<string, string> | null | ((spec: PromptSpec) => Record<string, string> | null);

/** A person at the keyboard: answers the forms in order, and remembers what was shown. */
function person(answers: Answer[], confirmHttp = false) {
  const asked: PromptSpec[] = [];
  const told: { title: string; message: string; detail?: string; error?: boolean }[] = [];
  const confirmations: string[] = [];
  let remembered: TeamServerPreference | undefined;
  const deps: TeamDeps = {
    ui: {
      async ask(spec) {
        asked.push(spec);
        const next = answers.shift();
        if (next === undefined) throw new Error(`unexpected form: ${spec.title}`);
        return typeof next === 'function' ? next(spec) : next;
      },
      async confirmHttp(origin) {
        confirmations.push(origin);
        return confirmHttp;
      },
      async inform(message) {
        told.push(message);
      },
    },
    remembered: () => remembered,
    remember: (server) => (remembered = server),
  };
  return { deps, asked, told, confirmations, remembered: () => remembered };
}

describe('desktop: copying robots to and from a team server', () => {
  let desk: TestService;
  let team: TestService;
  let local: ConsoleEndpoint;
  let deskTenant: number;
  let mine: number;
  let source: ConsoleRobot;
  before(async () => {
    [desk, team] = await Promise.all([startTestService(), startTestService({ signIn: true })]);
    local = { baseUrl: desk.service.url, token: desk.service.consoleToken };
    deskTenant = (await desk.client.registerTenant(tenantRequest())).tenantId;
    mine = (
      await team.client.registerTenant(tenantRequest({ username: 'alice', password: 'alice-pw1' }))
    ).tenantId;
    await team.client.registerTenant(tenantRequest({ username: 'bob', password: 'bob-pw12' }));
    const api = consoleClient(local.baseUrl, local.token);
    source = await api.ok<ConsoleRobot>('POST', `/tenants/${deskTenant}/robots`, {
      name: '桌面机器人',
    });
    const R = `/tenants/${deskTenant}/robots/${source.robotId}`;
    const first = await api.ok<ConsoleRule>('POST', `${R}/rules`, {
      ruleName: '营业时间',
      questions: ['几点开门'],
      answer: '九点。',
      categoryName: '门店',
    });
    await api.ok('POST', `${R}/rules`, {
      ruleName: '菜单',
      questions: ['帮助'],
      answer: '请选择：',
      menu: [{ ruleId: first.ruleId, text: '营业时间' }],
    });
  });
  after(() => Promise.all([desk.close(), team.close()]));

  const session = async (username: string, password: string) => {
    const result = await signIn(team.service.url, { username, password });
    assert.equal(result.status, 'signed-in');
    return { baseUrl: team.service.url, token: result.status === 'signed-in' ? result.token : '' };
  };

  test('to the team server: the signed-in tenant gets the copy, nobody else', async () => {
    const alice = person([
      (spec) => {
        const robots = spec.fields.find((f) => f.name === 'robot');
        assert.ok(robots?.kind === 'select');
        assert.deepEqual(
          robots.options.map((o) => o.value),
          [`${deskTenant}/default`, `${deskTenant}/${source.robotId}`],
        );
        return {
          robot: `${deskTenant}/${source.robotId}`,
          address: team.service.url,
          username: 'alice',
          password: 'alice-pw1',
        };
      },
    ]);
    const report = await copyToTeamServer(alice.deps, local);
    assert.equal(report?.rules, 2);
    assert.equal(report?.categories, 1);
    assert.equal(alice.told[0]?.title, 'Robot copied');
    assert.match(alice.told[0]?.detail ?? '', /2 rules, 1 categories, 0 test cases/);
    assert.deepEqual(alice.remembered(), { origin: team.service.url, httpConfirmed: false });
    assert.deepEqual(alice.confirmations, [], 'loopback http needs no confirmation');

    const there = await session('alice', 'alice-pw1');
    const copied = await exportRobotBundle(there, mine, report?.robot.robotId ?? '');
    const original = await exportRobotBundle(local, deskTenant, source.robotId);
    // A signed-in tenant's import gives every rule a new id (no other tenant's ids revealed):
    // the rules are the same with their ids, and the menus' links, read as the rules' names.
    const byName = (bundle: typeof copied) => {
      const nameOf = new Map(bundle.rules.map((r) => [r.ruleId, r.ruleName]));
      return bundle.rules.map(({ ruleId, menu, ...rule }) => ({
        ...rule,
        id: nameOf.get(ruleId),
        menu: menu?.map((entry) => ({ ...entry, ruleId: nameOf.get(entry.ruleId) })),
      }));
    };
    assert.deepEqual(byName(copied), byName(original));
    assert.ok(
      copied.rules.every((r) => !original.rules.some((o) => o.ruleId === r.ruleId)),
      'the team server gave the copies ids of its own',
    );
    assert.deepEqual(copied.categories, original.categories);
    const bob = await session('bob', 'bob-pw12');
    const refused = await consoleClient(bob.baseUrl, bob.token).call(
      'GET',
      `/tenants/${mine}/robots/${report?.robot.robotId}/bundle`,
    );
    assert.equal(refused.status, 403, "another tenant's editor cannot read it");
  });

  test('from the team server: a robot of the signed-in tenant, into a tenant here', async () => {
    const alice = person([
      { address: team.service.url, username: 'alice', password: 'alice-pw1' },
      (spec) => {
        const robots = spec.fields.find((f) => f.name === 'robot');
        assert.ok(robots?.kind === 'select');
        assert.ok(
          robots.options.every((o) => o.value.startsWith(`${mine}/`)),
          'own tenant only',
        );
        const copy = robots.options.find((o) => o.label.includes('桌面机器人'));
        return { robot: copy?.value ?? '', tenant: String(deskTenant) };
      },
    ]);
    const report = await copyFromTeamServer(alice.deps, local);
    assert.equal(report?.rules, 2);
    assert.equal(report?.ruleIdsChanged, 0, "the team server's ids are its own, free here");
    const back = await exportRobotBundle(local, deskTenant, report?.robot.robotId ?? '');
    assert.deepEqual(
      back.rules.map((r) => [r.ruleName, r.categoryName, r.menu?.map((e) => e.text) ?? null]),
      [
        ['营业时间', '门店', null],
        ['菜单', null, ['营业时间']],
      ],
    );
    assert.equal(back.rules[1]?.menu?.[0]?.ruleId, back.rules[0]?.ruleId, 'menu follows new ids');
  });

  test('a wrong password asks again, saying why; cancelling copies nothing', async () => {
    const robotsHere = async () =>
      (await workspaceOf(local)).tenants.find((t) => t.tenantId === deskTenant)?.robots.length;
    const before = await robotsHere();
    const alice = person([
      { address: team.service.url, username: 'alice', password: 'wrong-pw' },
      null,
    ]);
    assert.equal(await copyFromTeamServer(alice.deps, local), null);
    assert.equal(alice.asked.length, 2);
    assert.match(alice.asked[1]?.error ?? '', /sign|password/i);
    assert.equal(await robotsHere(), before, 'no robot made here');
  });

  test('plain http to another machine is asked about, and a no stops everything', async () => {
    const wary = person([{ address: 'http://10.255.255.1:8787' }]);
    assert.equal(await chooseTeamServer(wary.deps), null);
    assert.deepEqual(wary.confirmations, ['http://10.255.255.1:8787']);
    assert.equal(wary.remembered(), undefined, 'nothing remembered');
    const sure = person([{ address: 'http://10.255.255.1:8787' }], true);
    assert.deepEqual(await chooseTeamServer(sure.deps), {
      origin: 'http://10.255.255.1:8787',
      httpConfirmed: true,
    });
    assert.deepEqual(sure.remembered(), {
      origin: 'http://10.255.255.1:8787',
      httpConfirmed: true,
    });
  });

  test('a bad address is shown again with the reason', async () => {
    const typo = person([
      { address: 'https://kb.example.com/editor' },
      { address: 'kb.example.com' },
    ]);
    assert.deepEqual(await chooseTeamServer(typo.deps), {
      origin: 'https://kb.example.com',
      httpConfirmed: false,
    });
    assert.match(typo.asked[1]?.error ?? '', /without a path/);
  });

  test('a server that is not KB Studio, or not there, is reported as such', async () => {
    const lost = person([
      {
        robot: `${deskTenant}/${source.robotId}`,
        address: 'http://127.0.0.1:9',
        username: 'alice',
        password: 'alice-pw1',
      },
      null,
    ]);
    assert.equal(await copyToTeamServer(lost.deps, local), null);
    assert.match(lost.asked[1]?.error ?? '', /cannot be reached/);
  });
});
