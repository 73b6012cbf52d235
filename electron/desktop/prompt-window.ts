/**
 * Shows a form of prompt-page.ts in a modal window and waits for its answer. The window has no
 * preload, no Node, a sandbox and a page without script; its one way out is the answer URL,
 * read here and never loaded. Electron's `BrowserWindow` is passed in (type-only import), so
 * tests drive this with a fake.
 * @module
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { parsePromptOutcome, promptDataUrl } from './prompt-page';
import type { PromptSpec } from './prompt-page';

export type MakeWindow = (options: BrowserWindowConstructorOptions) => BrowserWindow;

/** The prompt window's options: modal over `parent`, and nothing a page could use. */
export function promptWindowOptions(
  parent: BrowserWindow | null,
  title: string,
): BrowserWindowConstructorOptions {
  return {
    ...(parent ? { parent, modal: true } : {}),
    width: 460,
    height: 420,
    resizable: false,
    minimizable: false,
    maximizable: false,
    title,
    show: false,
    webPreferences: {
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
      javascript: false,
    },
  };
}

/** The values typed, or null when the form was cancelled or closed. */
export function askInWindow(
  makeWindow: MakeWindow,
  parent: BrowserWindow | null,
  spec: PromptSpec,
): Promise<Record<string, string> | null> {
  const win = makeWindow(promptWindowOptions(parent, spec.title));
  win.setMenu(null);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (values: Record<string, string> | null) => {
      if (settled) return;
      settled = true;
      resolve(values);
      if (!win.isDestroyed()) win.close();
    };
    const onNavigate = (event: { url: string; preventDefault(): void }) => {
      // Every navigation is stopped: the answer URL is read, any other goes nowhere.
      event.preventDefault();
      const outcome = parsePromptOutcome(event.url, spec);
      if (outcome) settle(outcome.kind === 'answer' ? outcome.values : null);
    };
    win.webContents.on('will-navigate', onNavigate);
    win.webContents.on('will-redirect', onNavigate);
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => settle(null));
    void win.loadURL(promptDataUrl(spec));
  });
}
