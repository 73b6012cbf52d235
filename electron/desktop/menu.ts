/**
 * The native menu as a template. The actions are passed in, so the template is plain data that
 * tests can inspect and click; main.ts builds it with `Menu.buildFromTemplate`.
 * @module
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  importExcel(): void;
  exportExcel(): void;
  openDataFolder(): void;
  preferences(): void;
  about(): void;
  apiDocumentation(): void;
  openTeamServer(): void;
  backToLocal(): void;
  copyRobotToTeamServer(): void;
  copyRobotFromTeamServer(): void;
}

/** What the window shows, which some items depend on. */
export interface MenuView {
  /** The team server shown (its origin), or null for this computer's editor. */
  teamServer: string | null;
}

export function buildMenuTemplate(
  actions: MenuActions,
  platform: string,
  appName: string,
  view: MenuView = { teamServer: null },
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  // Excel goes through the desktop bridge, which a team server's page does not get: there the
  // editor's own buttons (as in a browser) import and export.
  const local = view.teamServer === null;
  const preferences: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Preferences…',
    accelerator: 'CmdOrCtrl+,',
    click: () => actions.preferences(),
  };
  const about: MenuItemConstructorOptions = {
    label: `About ${appName}`,
    click: () => actions.about(),
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      {
        label: 'Import from Excel…',
        accelerator: 'CmdOrCtrl+O',
        enabled: local,
        click: () => actions.importExcel(),
      },
      {
        label: 'Export to Excel…',
        accelerator: 'CmdOrCtrl+E',
        enabled: local,
        click: () => actions.exportExcel(),
      },
      { type: 'separator' },
      { label: 'Open Team Server…', click: () => actions.openTeamServer() },
      {
        label: 'Back to This Computer’s Knowledge Base',
        enabled: !local,
        click: () => actions.backToLocal(),
      },
      { label: 'Copy Robot to Team Server…', click: () => actions.copyRobotToTeamServer() },
      { label: 'Copy Robot from Team Server…', click: () => actions.copyRobotFromTeamServer() },
      { type: 'separator' },
      { label: 'Open Data Folder', click: () => actions.openDataFolder() },
      ...(mac ? [] : [{ type: 'separator' } as const, preferences, { type: 'separator' } as const]),
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'API Documentation', click: () => actions.apiDocumentation() },
      ...(mac ? [] : [{ type: 'separator' } as const, about]),
    ],
  };
  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      about,
      { type: 'separator' },
      preferences,
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
  return [
    ...(mac ? [appMenu] : []),
    file,
    { role: 'editMenu' },
    { role: 'viewMenu' },
    ...(mac ? [{ role: 'windowMenu' } as const] : []),
    help,
  ];
}
