/**
 * The editor window: its options (the security settings of Electron's checklist in one place,
 * where a test can read them) and the remembering of its size and position.
 * @module
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { LOCAL_ORIGIN_ARG, VERSION_ARG } from './bridge';
import { MIN_WINDOW_SIZE, saveWindowState } from './window-state';
import type { WindowState } from './window-state';

export function editorWindowOptions(input: {
  state: WindowState;
  preload: string;
  title: string;
  version: string;
  /** The embedded service's origin: only its pages get the bridge (preload.ts). */
  localOrigin: string;
}): BrowserWindowConstructorOptions {
  const { x, y, width, height } = input.state;
  return {
    ...(x !== undefined && y !== undefined ? { x, y } : {}),
    width,
    height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: input.title,
    webPreferences: {
      preload: input.preload,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      additionalArguments: [
        `${VERSION_ARG}${input.version}`,
        `${LOCAL_ORIGIN_ARG}${input.localOrigin}`,
      ],
    },
  };
}

/** Saves the window's normal bounds and maximized flag on close; returns the save, for quit. */
export function rememberWindowState(win: BrowserWindow, file: string): () => void {
  const save = () => {
    if (!win.isDestroyed())
      saveWindowState(file, { ...win.getNormalBounds(), maximized: win.isMaximized() });
  };
  win.on('close', save);
  return save;
}
