/**
 * The contract between the shell and the editor: the IPC channels and the `window.kbDesktop`
 * object the preload exposes. Type-only for the editor (`import type { KbDesktopBridge }`); the
 * constants are inlined into the preload by the bundler (a sandboxed preload may only require
 * `electron`), so this file must not import anything.
 * @module
 */

/** Invoke channels, renderer → main. */
export const IPC = {
  openExcelFile: 'file:open-excel',
  saveFile: 'file:save',
} as const;

/** Events main → renderer, sent by the File menu. */
export const MENU_CHANNELS = ['menu:import', 'menu:export'] as const;
export type MenuChannel = (typeof MENU_CHANNELS)[number];

/** The app version reaches the sandboxed preload as this extra argument. */
export const VERSION_ARG = '--kb-version=';

/**
 * The embedded service's origin reaches the preload as this argument: the bridge is exposed to
 * the editor of this computer only, never to a team server's page shown in the same window.
 */
export const LOCAL_ORIGIN_ARG = '--kb-local-origin=';

export interface OpenedFile {
  /** The file name, without its folder. */
  name: string;
  bytes: ArrayBuffer;
}

/**
 * `window.kbDesktop` in the editor; absent when the editor runs in a plain browser, or comes
 * from a team server.
 */
export interface KbDesktopBridge {
  /** `process.platform` of the desktop: `darwin`, `win32`, `linux`. */
  readonly platform: string;
  /** The app's version. */
  readonly version: string;
  /** Shows the native open dialog for Excel workbooks; `null` when cancelled. */
  openExcelFile(): Promise<OpenedFile | null>;
  /** Shows the native save dialog and writes `bytes`; `false` when cancelled. */
  saveFile(suggestedName: string, bytes: ArrayBuffer | Uint8Array): Promise<boolean>;
  /** Calls `callback` on each `menu:import` / `menu:export`; returns the unsubscribe function. */
  onMenu(channel: MenuChannel, callback: () => void): () => void;
}
