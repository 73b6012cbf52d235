/**
 * The shell's own dialogs (port taken, preferences, about) and the API documentation, with
 * Electron's `dialog` and `shell` passed in (type-only imports: tests use fakes).
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, Shell } from 'electron';
import { PORT_TAKEN_CHOICES, portTakenMessage, resolvePort } from './port';
import type { PortTakenChoice } from './port';
import { loadPreferences, preferencesMessage, savePreferences } from './preferences';

export async function askWhenPortTaken(
  dialog: Dialog,
  port: number,
  host: string,
): Promise<PortTakenChoice> {
  const text = portTakenMessage(port, host);
  const { response } = await dialog.showMessageBox({ type: 'warning', ...text, noLink: true });
  return PORT_TAKEN_CHOICES[response] ?? 'quit';
}

export async function showAbout(
  dialog: Dialog,
  info: { appName: string; version: string; apiUrl: string; dataDir: string },
): Promise<void> {
  const { electron, node } = process.versions;
  await dialog.showMessageBox({
    title: `About ${info.appName}`,
    message: `${info.appName} ${info.version}`,
    detail: `API: ${info.apiUrl}\nData: ${info.dataDir}\nElectron ${electron}, Node ${node}`,
  });
}

/** Says which port is used and where it is set; can open the file (made if missing). */
export async function showPreferences(
  dialog: Dialog,
  shell: Shell,
  file: string,
  sessionPort: number,
): Promise<void> {
  const preferred = resolvePort({ preference: loadPreferences(file).apiPort }).port;
  const { response } = await dialog.showMessageBox(
    preferencesMessage(sessionPort, preferred, file),
  );
  if (response !== 0) return;
  if (!existsSync(file)) savePreferences(file, { apiPort: preferred });
  await shell.openPath(file);
}

/**
 * docs/api.md as shipped with this version (in the resources folder once packaged, in the source
 * tree in development): it works offline and always matches the running API. Opened by the
 * system's viewer for Markdown; shown in its folder when no viewer is set up.
 */
export async function openApiDocumentation(shell: Shell, root: string): Promise<void> {
  const docs = join(root, 'docs', 'api.md');
  if ((await shell.openPath(docs)) !== '') shell.showItemInFolder(docs);
}
