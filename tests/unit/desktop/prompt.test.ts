/**
 * The shell's forms: the page (escaped, no script, submits only to the answer scheme), reading
 * the answer off a URL, and the modal window driven with a fake BrowserWindow.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import {
  parsePromptOutcome,
  promptDataUrl,
  promptPage,
} from '../../../electron/desktop/prompt-page';
import type { PromptSpec } from '../../../electron/desktop/prompt-page';
import { askInWindow } from '../../../electron/desktop/prompt-window';
import { decideNavigation, decideWindowOpen } from '../../../electron/desktop/security';

const SPEC: PromptSpec = {
  title: 'Copy <Robot> to "Team" Server',
  intro: 'a & b',
  error: '<img src=x onerror=alert(1)>',
  fields: [
    { kind: 'text', name: 'address', label: 'Address', value: '"><script>alert(1)</script>' },
    { kind: 'password', name: 'password', label: 'Password' },
    {
      kind: 'select',
      name: 'robot',
      label: 'Robot',
      options: [
        { value: '1/default', label: '公司 — 默认' },
        { value: '1/r0a', label: '<b>bold</b>' },
      ],
    },
  ],
  submit: 'Copy',
};

describe('prompt page', () => {
  test('everything given is escaped; there is no script; the form posts to the answer scheme', () => {
    const page = promptPage(SPEC);
    assert.ok(!/<script/i.test(page), 'no script element, not even an injected one');
    assert.ok(!page.includes('<img'), 'the error is text');
    assert.ok(!page.includes('<b>bold'), 'option labels are text');
    assert.ok(page.includes('Copy &lt;Robot&gt; to &quot;Team&quot; Server'));
    assert.ok(page.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
    assert.match(
      page,
      /content="default-src 'none'; style-src 'unsafe-inline'; form-action https:\/\/kb-studio-prompt\.invalid"/,
    );
    assert.match(page, /<form method="get" action="https:\/\/kb-studio-prompt\.invalid\/answer">/);
    assert.match(page, /type="password" autocomplete="current-password"/);
    const url = promptDataUrl(SPEC);
    assert.ok(url.startsWith('data:text/html;charset=utf-8;base64,'));
    assert.equal(Buffer.from(url.split(',')[1] ?? '', 'base64').toString(), page);
  });

  test('the answer is read off the URL, only when it fills the form', () => {
    const answer = `https://kb-studio-prompt.invalid/answer?address=https%3A%2F%2Fkb.example.com&password=p+w%26%3D&robot=1%2Fr0a`;
    assert.deepEqual(parsePromptOutcome(answer, SPEC), {
      kind: 'answer',
      values: { address: 'https://kb.example.com', password: 'p w&=', robot: '1/r0a' },
    });
    assert.deepEqual(parsePromptOutcome('https://kb-studio-prompt.invalid/cancel', SPEC), {
      kind: 'cancel',
    });
    for (const url of [
      'https://kb-studio-prompt.invalid/answer?address=a&password=b',
      'https://kb-studio-prompt.invalid/answer?address=a&password=b&robot=9%2Fnot-offered',
      'https://kb.example.com/?address=a&password=b&robot=1%2Fr0a',
      'https://kb-studio-prompt.invalid/answerx?address=a&password=b&robot=1%2Fr0a',
      'http://kb-studio-prompt.invalid/answer?address=a&password=b&robot=1%2Fr0a',
      'https://kb-studio-prompt.invalid.example/answer?address=a&password=b&robot=1%2Fr0a',
      'data:text/html,x',
    ]) {
      assert.equal(parsePromptOutcome(url, SPEC), null, url);
    }
  });
});

/** A BrowserWindow as far as askInWindow uses it. */
class FakeWindow extends EventEmitter {
  readonly webContents = new EventEmitter();
  loaded: string[] = [];
  destroyed = false;
  shown = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  setMenu() {}
  isDestroyed() {
    return this.destroyed;
  }
  show() {
    this.shown = true;
  }
  close() {
    this.destroyed = true;
    this.emit('closed');
  }
  async loadURL(url: string) {
    this.loaded.push(url);
    this.emit('ready-to-show');
  }
  navigate(url: string): boolean {
    let prevented = false;
    this.webContents.emit('will-navigate', { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

function open(spec: PromptSpec) {
  let win: FakeWindow | undefined;
  const answer = askInWindow(
    (options) => (win = new FakeWindow(options)) as unknown as BrowserWindow,
    null,
    spec,
  );
  return { answer, win: win as unknown as FakeWindow };
}

describe('the answer URL is never handed to the system browser', () => {
  test('the navigation policy refuses it outright, from any window', () => {
    const url = 'https://kb-studio-prompt.invalid/answer?address=a&password=secret&robot=1%2Fr0a';
    assert.equal(decideNavigation(url, 'http://127.0.0.1:8787'), 'deny');
    assert.equal(decideWindowOpen(url), 'deny');
    assert.equal(
      decideNavigation('https://kb.example.com/', 'http://127.0.0.1:8787'),
      'open-external',
    );
  });
});

describe('prompt window', () => {
  test('a window without preload, Node or script; the answer closes it', async () => {
    const { answer, win } = open(SPEC);
    const web = win.options.webPreferences ?? {};
    assert.equal(web.preload, undefined);
    assert.equal(web.sandbox, true);
    assert.equal(web.nodeIntegration, false);
    assert.equal(web.contextIsolation, true);
    assert.equal(web.javascript, false);
    assert.equal(win.loaded[0], promptDataUrl(SPEC));
    assert.equal(win.shown, true);
    assert.equal(win.navigate('https://evil.example/'), true, 'other navigation is stopped');
    assert.equal(win.destroyed, false);
    const url = 'https://kb-studio-prompt.invalid/answer?address=a&password=b&robot=1%2Fdefault';
    assert.equal(win.navigate(url), true, 'the answer is never loaded');
    assert.deepEqual(await answer, { address: 'a', password: 'b', robot: '1/default' });
    assert.equal(win.destroyed, true);
  });

  test('cancel, and closing the window, answer null', async () => {
    const cancelled = open(SPEC);
    cancelled.win.navigate('https://kb-studio-prompt.invalid/cancel');
    assert.equal(await cancelled.answer, null);
    const closed = open(SPEC);
    closed.win.close();
    assert.equal(await closed.answer, null);
  });
});
