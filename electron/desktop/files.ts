/**
 * The Excel open and save behind `kbDesktop.openExcelFile` / `saveFile`. The native dialogs are
 * passed in (main.ts gives Electron's), so the reading, checking and writing are testable.
 * Arguments come from the renderer and are checked here, never trusted.
 * @module
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BaseWindow, Dialog } from 'electron';
import type { OpenedFile } from './bridge';

export interface FileDialogs {
  /** The chosen path, or `null` when cancelled. */
  chooseFileToOpen(filters: FileFilter[]): Promise<string | null>;
  chooseFileToSave(suggestedName: string, filters: FileFilter[]): Promise<string | null>;
}

export interface FileFilter {
  name: string;
  extensions: string[];
}

export const EXCEL_FILTERS: FileFilter[] = [
  { name: 'Excel workbooks', extensions: ['xlsx', 'xls'] },
];
/** Far above any knowledge base (the API takes 10 MiB per call), below trouble for the editor. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
const FALLBACK_NAME = 'knowledge-base.xlsx';

/** A bare file name: no folders, no characters that Windows or the shell would reject. */
export function safeFileName(name: unknown): string {
  if (typeof name !== 'string') return FALLBACK_NAME;
  const cleaned = basename(name.replaceAll('\\', '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f<>:"/\\|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200);
  return cleaned === '' ? FALLBACK_NAME : cleaned;
}

function filtersFor(name: string): FileFilter[] {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (!extension || extension === 'xlsx' || extension === 'xls') return EXCEL_FILTERS;
  return [{ name: `${extension.toUpperCase()} files`, extensions: [extension] }];
}

/** An exact copy of the bytes as an ArrayBuffer (a Buffer may be a view into a larger pool). */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

export async function openExcelFile(dialogs: FileDialogs): Promise<OpenedFile | null> {
  const path = await dialogs.chooseFileToOpen(EXCEL_FILTERS);
  if (path === null) return null;
  const bytes = await readFile(path);
  if (bytes.byteLength > MAX_FILE_BYTES)
    throw new Error(`${basename(path)} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  return { name: basename(path), bytes: toArrayBuffer(bytes) };
}

export async function saveFile(
  dialogs: FileDialogs,
  suggestedName: unknown,
  bytes: unknown,
): Promise<boolean> {
  if (!(bytes instanceof ArrayBuffer) && !(bytes instanceof Uint8Array))
    throw new TypeError('saveFile needs an ArrayBuffer or a Uint8Array');
  if (bytes.byteLength > MAX_FILE_BYTES) throw new RangeError('the file is too large to save');
  const name = safeFileName(suggestedName);
  const path = await dialogs.chooseFileToSave(name, filtersFor(name));
  if (path === null) return false;
  // Written beside the target then renamed: an existing file is replaced whole or not at all.
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  return true;
}

/** The native dialogs, modal to `parent`; saving starts in `startDir` (the Documents folder). */
export function nativeFileDialogs(
  dialog: Dialog,
  parent: BaseWindow,
  startDir: string,
): FileDialogs {
  return {
    async chooseFileToOpen(filters) {
      const result = await dialog.showOpenDialog(parent, { properties: ['openFile'], filters });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async chooseFileToSave(suggestedName, filters) {
      const defaultPath = join(startDir, suggestedName);
      const result = await dialog.showSaveDialog(parent, { defaultPath, filters });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
  };
}
