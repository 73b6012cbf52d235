/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS: loaded with `node -r` and by require('electron') */
// A stand-in for the `electron` module, enough for electron/main.ts to run in plain Node: the
// tests run the bundled shell with it where Electron's binary is missing. Everything the shell
// does to Electron is reported on stdout as `FAKE <json>` lines; dialogs answer with the button
// in FAKE_DIALOG_RESPONSE (default 0).
const { EventEmitter } = require('node:events');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const report = (type, data = {}) =>
  process.stdout.write(`FAKE ${JSON.stringify({ type, ...data })}\n`);

const paths = { appData: process.env.FAKE_APP_DATA || join(tmpdir(), 'fake-app-data') };
paths.documents = join(paths.appData, 'documents');

const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  setName: (name) => report('setName', { name }),
  getVersion: () => '0.0.0-test',
  getPath: (name) => paths[name] ?? join(paths.appData, name),
  setPath: (name, path) => {
    paths[name] = path;
    report('setPath', { name, path });
  },
  whenReady: () => new Promise((resolve) => setImmediate(resolve)),
  requestSingleInstanceLock: () => true,
  exit: (code = 0) => {
    report('exit', { code });
    process.exit(code);
  },
  quit: () => {
    let prevented = false;
    app.emit('before-quit', { preventDefault: () => (prevented = true) });
    report('before-quit', { prevented });
    if (!prevented) process.exit(0);
  },
});

const windows = [];
class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = Object.assign(new EventEmitter(), {
      send: (channel) => report('send', { channel }),
      setWindowOpenHandler: (handler) => (this.webContents.windowOpenHandler = handler),
      getURL: () => this.url ?? '',
    });
    windows.push(this);
    report('window', { options });
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows = () => windows;
  static fromWebContents = (contents) => windows.find((w) => w.webContents === contents) ?? null;
  async loadURL(url) {
    this.url = url;
    report('loadURL', { url });
  }
  maximize() {}
  show() {}
  focus() {}
  restore() {}
  isMinimized = () => false;
  isMaximized = () => false;
  isDestroyed = () => false;
  getNormalBounds = () => ({ x: 10, y: 20, width: 900, height: 700 });
}

const response = () => Number(process.env.FAKE_DIALOG_RESPONSE ?? 0);
const dialog = {
  showErrorBox: (title, content) => report('errorBox', { title, content }),
  showMessageBox: async (...args) => {
    report('messageBox', { options: args.at(-1) });
    return { response: response() };
  },
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
};

const handlers = {};
const ipcMain = {
  handle: (channel, handler) => {
    handlers[channel] = handler;
    report('handle', { channel });
  },
};

const Menu = {
  buildFromTemplate: (template) => template,
  setApplicationMenu: (template) =>
    report('menu', { labels: template.map((item) => item.label ?? item.role) }),
};

const session = {
  defaultSession: {
    webRequest: { onHeadersReceived: () => report('csp') },
    setPermissionRequestHandler: () => report('permissionRequestHandler'),
    setPermissionCheckHandler: () => report('permissionCheckHandler'),
  },
};

const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
const shell = {
  openPath: async (path) => (report('openPath', { path }), ''),
  openExternal: async (url) => report('openExternal', { url }),
  showItemInFolder: (path) => report('showItemInFolder', { path }),
};

module.exports = { app, BrowserWindow, dialog, ipcMain, Menu, screen, session, shell };
