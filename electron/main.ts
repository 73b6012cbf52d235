/**
 * The desktop app: the service of `npm run serve` (the same configuration and `createService`)
 * in the main process, on 127.0.0.1, and one window on its editor. Wiring only: what to decide
 * lives in desktop/, which never loads Electron and is tested without it. `npm start`; see
 * docs/desktop.md.
 * @module
 */
import { join, resolve } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, screen, session, shell } from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { askWhenPortTaken, openApiDocumentation } from './desktop/app-dialogs';
import { showAbout, showPreferences } from './desktop/app-dialogs';
import { parseDesktopArgs, resolveDataDir } from './desktop/args';
import type { DesktopArgs } from './desktop/args';
import { IPC } from './desktop/bridge';
import type { MenuChannel } from './desktop/bridge';
import { nativeFileDialogs, openExcelFile, saveFile } from './desktop/files';
import { guardContents, hardenSession } from './desktop/harden';
import { buildMenuTemplate } from './desktop/menu';
import type { MenuActions } from './desktop/menu';
import { resolvePort, startOnPort } from './desktop/port';
import { loadPreferences, PREFERENCES_FILE } from './desktop/preferences';
import { isAppUrl } from './desktop/security';
import { chooseTeamServer, copyFromTeamServer, copyToTeamServer } from './desktop/team-copy';
import { appTeamDeps } from './desktop/team-dialogs';
import { windowOrigin, windowUrl } from './desktop/team-server';
import type { WindowTarget } from './desktop/team-server';
import { editorWindowOptions, rememberWindowState } from './desktop/window';
import { loadWindowState, WINDOW_STATE_FILE } from './desktop/window-state';
import { resolveEditorDir } from './editor-dir';
import { openBackend } from './service/backend/open-backend';
import { serviceConfig } from './service/config';
import { createService } from './service/index';
import type { KbService } from './service/index';
import { createConsoleLogger } from './service/logger';

const APP_NAME = 'KB Studio';
const HOST = '127.0.0.1';
const logger = createConsoleLogger('kb-studio');
let service: KbService | undefined;
let mainWindow: BrowserWindow | null = null;
let saveWindow = () => {};
let stopping: Promise<void> | undefined;
/** What the window shows: this computer's editor, or a team server's (File → Open Team Server…). */
let target: WindowTarget = { kind: 'local' };
let setMenu = () => {};

function fail(title: string, error: unknown): void {
  logger.error(title, error);
  dialog.showErrorBox(title, error instanceof Error ? error.message : String(error));
  app.exit(1);
}

function readArgs(): DesktopArgs | null {
  try {
    return parseDesktopArgs(process.argv.slice(1));
  } catch (error) {
    fail(`${APP_NAME}: bad command line`, error);
    return null;
  }
}

const args = readArgs();
// The same folder in development and once packaged, whatever package.json's name.
app.setName(APP_NAME);
app.setPath('userData', resolve(args?.userDataDir ?? join(app.getPath('appData'), APP_NAME)));
const userFile = (name: string) => join(app.getPath('userData'), name);
const localOrigin = () => (service ? new URL(service.url).origin : 'null:');
/** The one origin the window may navigate on: the local service's, or the team server's shown. */
const shownOrigin = () => windowOrigin(target, localOrigin());
const { dir: dataDir } = resolveDataDir({
  flag: args?.data,
  env: process.env,
  userDataPath: app.getPath('userData'),
  cwd: process.cwd(),
});

async function run(): Promise<void> {
  await app.whenReady();
  const { port } = resolvePort({
    flag: args?.port,
    preference: loadPreferences(userFile(PREFERENCES_FILE)).apiPort,
  });
  // The environment is read once (service/config.ts); each port tried gets the same token.
  const config = serviceConfig({ dataDir, host: HOST, logger, editorDir: resolveEditorDir() });
  const start = async (listenPort: number) => {
    const onPort = { ...config, port: listenPort };
    return createService(await openBackend(onPort), onPort);
  };
  const started = await startOnPort(start, port, (taken) => askWhenPortTaken(dialog, taken, HOST));
  if (!started) return app.exit(0);
  service = started.value;
  const [apiUrl, version, appRoot] = [service.url, app.getVersion(), join(__dirname, '..')];
  logger.info(`API on ${apiUrl}, data in ${dataDir}`);
  hardenSession(session.defaultSession, () => [localOrigin(), shownOrigin()]);
  ipcMain.handle(IPC.openExcelFile, (event) => openExcelFile(dialogsFor(event)));
  ipcMain.handle(IPC.saveFile, (event, name: unknown, bytes: unknown) =>
    saveFile(dialogsFor(event), name, bytes),
  );
  const send = (channel: MenuChannel) => () => mainWindow?.webContents.send(channel);
  // The token may be replaced while the app runs (the editor's API access page).
  const running = service;
  const local = {
    baseUrl: service.url,
    get token() {
      return running.consoleToken;
    },
  };
  const team = appTeamDeps(
    dialog,
    (options) => new BrowserWindow(options),
    () => mainWindow,
    userFile(PREFERENCES_FILE),
  );
  const actions: MenuActions = {
    importExcel: send('menu:import'),
    exportExcel: send('menu:export'),
    openDataFolder: () => void shell.openPath(dataDir),
    preferences: () =>
      void showPreferences(dialog, shell, userFile(PREFERENCES_FILE), service?.port ?? 0),
    about: () => void showAbout(dialog, { appName: APP_NAME, version, apiUrl, dataDir }),
    apiDocumentation: () =>
      void openApiDocumentation(shell, app.isPackaged ? process.resourcesPath : appRoot),
    openTeamServer: () =>
      void chooseTeamServer(team).then(
        (server) => server && show({ kind: 'team', origin: server.origin }),
      ),
    backToLocal: () => show({ kind: 'local' }),
    copyRobotToTeamServer: () => void copyToTeamServer(team, local),
    copyRobotFromTeamServer: () => void copyFromTeamServer(team, local),
  };
  setMenu = () => {
    const view = { teamServer: target.kind === 'team' ? target.origin : null };
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(buildMenuTemplate(actions, process.platform, APP_NAME, view)),
    );
  };
  setMenu();
  createWindow();
}

/** Points the window at a target; navigation is allowed on its origin only from now on. */
function show(next: WindowTarget): void {
  target = next;
  setMenu();
  if (service && mainWindow) void mainWindow.loadURL(windowUrl(target, service.editorUrl));
}

/** Dialogs for the editor's request; refused when the sender is not the editor's page. */
function dialogsFor(event: IpcMainInvokeEvent) {
  const parent = BrowserWindow.fromWebContents(event.sender);
  // The local editor only: a team server's page never reaches this computer's files.
  if (!parent || !isAppUrl(event.senderFrame?.url ?? '', localOrigin()))
    throw new Error('refused: the sender is not the editor');
  return nativeFileDialogs(dialog, parent, app.getPath('documents'));
}

function createWindow(): void {
  const stateFile = userFile(WINDOW_STATE_FILE);
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const state = loadWindowState(stateFile, workAreas);
  const preload = join(__dirname, 'preload.cjs');
  const win = new BrowserWindow(
    editorWindowOptions({
      state,
      preload,
      title: APP_NAME,
      version: app.getVersion(),
      localOrigin: localOrigin(),
    }),
  );
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  saveWindow = rememberWindowState(win, stateFile);
  win.on('closed', () => {
    mainWindow = null;
    saveWindow = () => {};
  });
  mainWindow = win;
  if (service) void win.loadURL(windowUrl(target, service.editorUrl));
}

app.on('web-contents-created', (_event, contents) =>
  guardContents(contents, shownOrigin, (url) => shell.openExternal(url)),
);

if (!args) {
  // fail() has already asked to exit.
} else if (!app.requestSingleInstanceLock()) {
  app.exit(0);
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return void (service && createWindow());
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => process.platform !== 'darwin' && app.quit());
  app.on('activate', () => service && !mainWindow && createWindow());
  // Quitting waits for the service to stop: requests finish, a snapshot is flushed, lock freed.
  app.on('before-quit', (event) => {
    if (!service) return;
    event.preventDefault();
    saveWindow();
    stopping ??= service.stop().then(
      () => app.exit(0),
      (error: unknown) => fail(`${APP_NAME} could not stop cleanly`, error),
    );
  });
  process.on('SIGINT', () => app.quit());
  process.on('SIGTERM', () => app.quit());
  run().catch((error: unknown) => fail(`${APP_NAME} could not start`, error));
}
