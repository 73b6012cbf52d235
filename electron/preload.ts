/**
 * The preload of the editor's window: sandboxed, context-isolated, so it may only use `electron`
 * (everything else is inlined by the bundler). It exposes `window.kbDesktop` (see
 * desktop/bridge.ts) and nothing else: no `ipcRenderer`, no IPC event objects.
 * @module
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC, MENU_CHANNELS, VERSION_ARG } from './desktop/bridge';
import type { KbDesktopBridge, MenuChannel, OpenedFile } from './desktop/bridge';

const versionArg = process.argv.find((arg) => arg.startsWith(VERSION_ARG));

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

contextBridge.exposeInMainWorld('kbDesktop', bridge);
