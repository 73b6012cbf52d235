/** The menu template, the window options, and the Electron hooks of harden.ts, with fakes. */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import type { Session, WebContents } from 'electron';
import { guardContents, hardenSession } from '../../../electron/desktop/harden';
import { buildMenuTemplate } from '../../../electron/desktop/menu';
import type { MenuActions } from '../../../electron/desktop/menu';
import { CONTENT_SECURITY_POLICY } from '../../../electron/desktop/security';
import { editorWindowOptions } from '../../../electron/desktop/window';

const APP = 'http://127.0.0.1:8787';

interface Item {
  label?: string;
  role?: string;
  enabled?: boolean;
  submenu?: Item[];
  click?: () => void;
}

function recordingActions() {
  const calls: string[] = [];
  const names = ['importExcel', 'exportExcel', 'openDataFolder', 'preferences', 'about'];
  const team = [
    'openTeamServer',
    'backToLocal',
    'copyRobotToTeamServer',
    'copyRobotFromTeamServer',
  ];
  const actions = Object.fromEntries(
    [...names, 'apiDocumentation', ...team].map((name) => [name, () => calls.push(name)]),
  ) as unknown as MenuActions;
  return { actions, calls };
}

const find = (items: Item[], label: string): Item | undefined =>
  items.flatMap((item) => [item, ...(item.submenu ?? [])]).find((item) => item.label === label);

describe('menu', () => {
  test('File, Edit, View, Help; the items call their actions', () => {
    const { actions, calls } = recordingActions();
    const menu = buildMenuTemplate(actions, 'linux', 'KB Studio') as Item[];
    assert.deepEqual(
      menu.map((item) => item.label ?? item.role),
      ['File', 'editMenu', 'viewMenu', 'help'],
    );
    for (const label of [
      'Import from Excel…',
      'Export to Excel…',
      'Open Data Folder',
      'Preferences…',
      'About KB Studio',
      'API Documentation',
    ])
      find(menu, label)?.click?.();
    assert.deepEqual(calls, [
      'importExcel',
      'exportExcel',
      'openDataFolder',
      'preferences',
      'about',
      'apiDocumentation',
    ]);
  });

  test('team server items; Excel and "back" depend on what the window shows', () => {
    const { actions, calls } = recordingActions();
    const local = buildMenuTemplate(actions, 'linux', 'KB Studio') as Item[];
    const back = 'Back to This Computer’s Knowledge Base';
    for (const label of [
      'Open Team Server…',
      back,
      'Copy Robot to Team Server…',
      'Copy Robot from Team Server…',
    ])
      find(local, label)?.click?.();
    assert.deepEqual(calls, [
      'openTeamServer',
      'backToLocal',
      'copyRobotToTeamServer',
      'copyRobotFromTeamServer',
    ]);
    assert.equal(find(local, back)?.enabled, false);
    assert.equal(find(local, 'Import from Excel…')?.enabled, true);
    const team = buildMenuTemplate(actions, 'linux', 'KB Studio', {
      teamServer: 'https://kb.example.com',
    }) as Item[];
    assert.equal(find(team, back)?.enabled, true);
    assert.equal(find(team, 'Import from Excel…')?.enabled, false, 'no bridge on a team page');
    assert.equal(find(team, 'Export to Excel…')?.enabled, false);
  });

  test('on macOS, About and Settings move to the app menu, and there is a Window menu', () => {
    const menu = buildMenuTemplate(recordingActions().actions, 'darwin', 'KB Studio') as Item[];
    assert.deepEqual(
      menu.map((item) => item.label ?? item.role),
      ['KB Studio', 'File', 'editMenu', 'viewMenu', 'windowMenu', 'help'],
    );
    const appMenu = menu[0]?.submenu ?? [];
    assert.ok(appMenu.some((item) => item.label === 'Settings…'));
    assert.ok(appMenu.some((item) => item.label === 'About KB Studio'));
  });
});

describe('editor window options', () => {
  test("Electron's checklist: isolated, sandboxed, no Node, no webview", () => {
    const options = editorWindowOptions({
      state: { x: 5, y: 6, width: 900, height: 700, maximized: false },
      preload: '/app/dist/preload.cjs',
      title: 'KB Studio',
      version: '1.2.3',
      localOrigin: APP,
    });
    assert.deepEqual(
      { x: options.x, y: options.y, width: options.width, height: options.height },
      { x: 5, y: 6, width: 900, height: 700 },
    );
    const web = options.webPreferences ?? {};
    assert.equal(web.contextIsolation, true);
    assert.equal(web.sandbox, true);
    assert.equal(web.nodeIntegration, false);
    assert.equal(web.webviewTag, false);
    assert.equal(web.webSecurity, true);
    assert.deepEqual(web.additionalArguments, ['--kb-version=1.2.3', `--kb-local-origin=${APP}`]);
    const centred = editorWindowOptions({
      state: { width: 900, height: 700, maximized: false },
      preload: 'p',
      title: 't',
      version: 'v',
      localOrigin: APP,
    });
    assert.ok(!('x' in centred) && !('y' in centred));
  });
});

describe('harden: Electron hooks wired to the policy', () => {
  test('session: CSP on the editor, permissions refused', () => {
    let onHeaders: ((details: unknown, callback: (response: unknown) => void) => void) | undefined;
    let onRequest:
      ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | undefined;
    let onCheck: ((wc: unknown, permission: string, origin: string) => boolean) | undefined;
    const session = {
      webRequest: { onHeadersReceived: (listener: typeof onHeaders) => (onHeaders = listener) },
      setPermissionRequestHandler: (handler: typeof onRequest) => (onRequest = handler),
      setPermissionCheckHandler: (handler: typeof onCheck) => (onCheck = handler),
    } as unknown as Session;
    hardenSession(session, () => APP);

    let response: unknown;
    onHeaders?.({ url: `${APP}/`, responseHeaders: {} }, (r) => (response = r));
    assert.deepEqual(response, {
      responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    const granted: boolean[] = [];
    onRequest?.({ getURL: () => `${APP}/` }, 'media', (ok) => granted.push(ok));
    assert.deepEqual(granted, [false]);
    assert.equal(onCheck?.(null, 'geolocation', APP), false);
  });

  test('web contents: outside links go to the browser, nothing else leaves the editor', () => {
    const opened: string[] = [];
    const contents = new EventEmitter() as EventEmitter & {
      setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void;
      windowOpen?: (details: { url: string }) => { action: string };
    };
    contents.setWindowOpenHandler = (handler) => (contents.windowOpen = handler);
    guardContents(
      contents as unknown as WebContents,
      () => APP,
      (url) => opened.push(url),
    );

    assert.deepEqual(contents.windowOpen?.({ url: 'https://example.com/' }), { action: 'deny' });
    assert.deepEqual(contents.windowOpen?.({ url: 'file:///etc/passwd' }), { action: 'deny' });
    const navigate = (event: string, url: string) => {
      let prevented = false;
      contents.emit(event, { url, preventDefault: () => (prevented = true) });
      return prevented;
    };
    assert.equal(navigate('will-navigate', `${APP}/?token=x`), false);
    assert.equal(navigate('will-navigate', 'https://example.org/'), true);
    assert.equal(navigate('will-redirect', 'file:///etc/passwd'), true);
    assert.equal(navigate('will-attach-webview', `${APP}/`), true);
    assert.deepEqual(opened, ['https://example.com/', 'https://example.org/']);
  });
});
