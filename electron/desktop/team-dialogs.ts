/**
 * The questions of the team-server commands (team-copy.ts) as the app asks them: forms in a
 * prompt window, message boxes, and the remembered server in preferences.json. Electron's
 * `dialog` and `BrowserWindow` are passed in (type-only imports).
 * @module
 */
import type { BrowserWindow, Dialog } from 'electron';
import { loadPreferences, savePreferences } from './preferences';
import { askInWindow } from './prompt-window';
import type { MakeWindow } from './prompt-window';
import type { TeamDeps } from './team-copy';

export function appTeamDeps(
  dialog: Dialog,
  makeWindow: MakeWindow,
  parent: () => BrowserWindow | null,
  preferencesFile: string,
): TeamDeps {
  return {
    ui: {
      ask: (spec) => askInWindow(makeWindow, parent(), spec),
      confirmHttp: async (origin, reason) =>
        (
          await dialog.showMessageBox({
            type: 'warning',
            title: 'Plain http',
            message: reason,
            detail: `Use ${origin} anyway? Only on a network you trust.`,
            buttons: ['Use http', 'Cancel'],
            defaultId: 1,
            cancelId: 1,
          })
        ).response === 0,
      inform: async ({ title, message, detail, error }) => {
        await dialog.showMessageBox({ type: error ? 'error' : 'info', title, message, detail });
      },
    },
    remembered: () => loadPreferences(preferencesFile).teamServer,
    remember: (server) =>
      savePreferences(preferencesFile, { ...loadPreferences(preferencesFile), teamServer: server }),
  };
}
