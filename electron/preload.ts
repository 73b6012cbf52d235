/**
 * The preload of the editor's window: sandboxed, context-isolated, so it may only use `electron`
 * (everything else is inlined by the bundler). It exposes `window.kbDesktop` (see
 * desktop/bridge.ts) and nothing else: no `ipcRenderer`, no IPC event objects; and only to the
 * embedded service's editor, not to a team server's page (main.ts refuses such senders too).
 * @module
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC, LOCAL_ORIGIN_ARG, MENU_CHANNELS, VERSION_ARG } from './desktop/bridge';
import type { KbDesktopBridge, MenuChannel, OpenedFile } from './desktop/bridge';

const argOf = (prefix: string) => {
  const arg = process.argv.find((a) => a.startsWith(prefix));
  return arg === undefined ? undefined : arg.slice(prefix.length);
};
const versionArg = process.argv.find((arg) => arg.startsWith(VERSION_ARG));
const localOrigin = argOf(LOCAL_ORIGIN_ARG);

const bridge: KbDesktopBridge = {
  platform: process.platform,
  version: versionArg ? versionArg.slice(VERSION_ARG.length) : '',
  openExcelFile: () => ipcRenderer.invoke(IPC.openExcelFile) as Promise<OpenedFile | null>,
  saveFile: (suggestedName, bytes) =>
    ipcRenderer.invoke(IPC.saveFile, suggestedName, bytes) as Promise<boolean>,
  onMenu(channel: MenuChannel, callback: () => void) {
    if (!MENU_CHANNELS.includes(channel)) throw new Error(`unknown menu channel: ${channel}`);
    if (typeof callback !== 'function') throw new TypeError('onMenu needs a callback');
    // The IPC event (sender, ports, …) stays here: the editor only learns that it happened.
    const listener = () => callback();
    ipcRenderer.on(channel, listener);
    return () => {
      ipcRenderer.removeListener(channel, listener);
    };
  },
};

// The page's origin as the sandboxed preload sees it (`globalThis` is the page's window).
const pageOrigin = (globalThis as { location?: { origin?: string } }).location?.origin;
if (localOrigin !== undefined && pageOrigin === localOrigin) {
  contextBridge.exposeInMainWorld('kbDesktop', bridge);
}
