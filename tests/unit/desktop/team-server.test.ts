/**
 * The team server's address, the window's origin allow-list while it shows one, the remembered
 * server in preferences, and the security policy with both origins.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadPreferences, savePreferences } from '../../../electron/desktop/preferences';
import {
  decideNavigation,
  isAppUrl,
  isPermissionGranted,
  withContentSecurityPolicy,
} from '../../../electron/desktop/security';
import {
  checkTeamServerAddress,
  isLoopbackHost,
  windowOrigin,
  windowUrl,
} from '../../../electron/desktop/team-server';

const LOCAL = 'http://127.0.0.1:8787';
const TEAM = 'https://kb.example.com';

describe('team server address', () => {
  test('an https server, typed in any usual way, is its origin', () => {
    for (const typed of [
      'kb.example.com',
      ' https://kb.example.com ',
      'https://kb.example.com/',
      'HTTPS://KB.example.com',
      'https://kb.example.com:443',
    ]) {
      assert.deepEqual(checkTeamServerAddress(typed), { ok: true, origin: TEAM }, typed);
    }
    assert.deepEqual(checkTeamServerAddress('kb.example.com:8443'), {
      ok: true,
      origin: 'https://kb.example.com:8443',
    });
  });

  test('plain http is fine on this machine, and needs a confirmation elsewhere', () => {
    for (const typed of ['http://127.0.0.1:8788', 'http://localhost:8788', 'http://[::1]:8788']) {
      assert.equal(checkTeamServerAddress(typed).ok, true, typed);
    }
    const lan = checkTeamServerAddress('http://10.0.0.5:8787');
    assert.equal(lan.ok, false);
    assert.equal(!lan.ok && lan.needsHttpConfirmation, true);
    assert.match(!lan.ok ? lan.reason : '', /unencrypted/);
    assert.deepEqual(checkTeamServerAddress('http://10.0.0.5:8787', true), {
      ok: true,
      origin: 'http://10.0.0.5:8787',
    });
  });

  test('anything else is refused with a sentence saying why', () => {
    const refused: [string, RegExp][] = [
      ['', /Type the address/],
      ['   ', /Type the address/],
      ['file:///etc/passwd', /https, not file:/],
      ['javascript://x', /https, not javascript:/],
      ['ftp://kb.example.com', /https, not ftp:/],
      ['https://bob:pw@kb.example.com', /user name and password/],
      ['https://kb.example.com/editor', /without a path/],
      ['https://kb.example.com/?token=x', /without a path or query/],
      ['https://kb.example.com/#x', /without a path/],
      ['https://exa mple.com', /not a web address/],
    ];
    for (const [typed, reason] of refused) {
      const checked = checkTeamServerAddress(typed, true);
      assert.equal(checked.ok, false, typed);
      assert.match(!checked.ok ? checked.reason : '', reason, typed);
      assert.notEqual(!checked.ok && checked.needsHttpConfirmation, true, typed);
    }
  });

  test('loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'a.localhost', '[::1]', '::1'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['10.0.0.1', '128.0.0.1', 'localhost.example.com', '127.0.0.1.nip.io'])
      assert.equal(isLoopbackHost(host), false, host);
  });
});

describe('what the window may show', () => {
  const team = { kind: 'team', origin: TEAM } as const;
  const local = { kind: 'local' } as const;

  test('exactly one origin: the local service, or the team server chosen', () => {
    assert.equal(windowOrigin(local, LOCAL), LOCAL);
    assert.equal(windowOrigin(team, LOCAL), TEAM);
    assert.equal(windowUrl(local, `${LOCAL}/?token=t`), `${LOCAL}/?token=t`);
    assert.equal(windowUrl(team, `${LOCAL}/?token=t`), `${TEAM}/`, 'the token never goes there');
  });

  test('navigation: on the team server while it is shown, nowhere else', () => {
    const shown = windowOrigin(team, LOCAL);
    assert.equal(decideNavigation(`${TEAM}/?signin`, shown), 'allow');
    assert.equal(decideNavigation(`${LOCAL}/?token=t`, shown), 'open-external');
    assert.equal(decideNavigation('https://kb.example.com.evil.test/', shown), 'open-external');
    assert.equal(decideNavigation('http://kb.example.com/', shown), 'open-external', 'not http');
    assert.equal(decideNavigation('file:///etc/passwd', shown), 'deny');
    assert.equal(decideNavigation(`${TEAM}/`, windowOrigin(local, LOCAL)), 'open-external');
  });

  test('the CSP and the clipboard permission cover both origins, and no other', () => {
    const origins = [LOCAL, TEAM];
    assert.ok(withContentSecurityPolicy(`${TEAM}/`, origins)['Content-Security-Policy']);
    assert.ok(withContentSecurityPolicy(`${LOCAL}/`, origins)['Content-Security-Policy']);
    assert.deepEqual(withContentSecurityPolicy('https://other.example/', origins, {}), {});
    assert.equal(isPermissionGranted('clipboard-sanitized-write', `${TEAM}/`, origins), true);
    assert.equal(isPermissionGranted('media', `${TEAM}/`, origins), false);
    assert.equal(
      isPermissionGranted('clipboard-sanitized-write', 'https://x.test/', origins),
      false,
    );
    assert.equal(isAppUrl('data:text/html,x', ['null']), false, 'opaque origins are never ours');
  });
});

describe('the remembered team server (preferences.json)', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kbstudio-team-prefs-'));
    file = join(dir, 'preferences.json');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('round trip, beside the API port', () => {
    const preferences = {
      apiPort: 9100,
      teamServer: { origin: 'http://10.0.0.5:8787', httpConfirmed: true },
    };
    savePreferences(file, preferences);
    assert.deepEqual(loadPreferences(file), preferences);
  });

  test('a hand-edited server that the app would not accept is ignored', () => {
    for (const teamServer of [
      { origin: 'http://10.0.0.5:8787' },
      { origin: 'http://10.0.0.5:8787', httpConfirmed: 'yes' },
      { origin: 'https://kb.example.com/editor', httpConfirmed: false },
      { origin: 'kb.example.com', httpConfirmed: false },
      { origin: 'file:///etc', httpConfirmed: true },
      { origin: 42 },
      'https://kb.example.com',
    ]) {
      writeFileSync(file, JSON.stringify({ apiPort: 9100, teamServer }));
      assert.deepEqual(loadPreferences(file), { apiPort: 9100 }, JSON.stringify(teamServer));
    }
  });
});
