/**
 * The desktop preferences (`<userData>/preferences.json`). Today one setting: the API port.
 * Unknown or invalid fields are ignored on read, so a hand-edited file never stops the app.
 * @module
 */
import { isRecord, readJson, writeJsonAtomic } from './atomic-json';

export interface Preferences {
  /** The port of the embedded API (1 to 65535); the default port when absent. */
  apiPort?: number;
}

export const PREFERENCES_FILE = 'preferences.json';

export function isValidPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

export function parsePreferences(value: unknown): Preferences {
  if (!isRecord(value)) return {};
  return isValidPort(value.apiPort) ? { apiPort: value.apiPort } : {};
}

export function loadPreferences(file: string): Preferences {
  return parsePreferences(readJson(file));
}

export function savePreferences(file: string, preferences: Preferences): void {
  writeJsonAtomic(file, parsePreferences(preferences));
}

/** The Preferences dialog: where the port is set, and which one this session uses. */
export function preferencesMessage(sessionPort: number, preferredPort: number, file: string) {
  return {
    title: 'Preferences',
    message: `The API listens on port ${sessionPort} in this session.`,
    detail:
      `Preferred port: ${preferredPort}. To change it, set "apiPort" in ${file} ` +
      `(for example {"apiPort": 8788}); it applies at the next launch.`,
    buttons: ['Open Preferences File', 'Close'],
    defaultId: 1,
    cancelId: 1,
  };
}
