/**
 * The desktop preferences (`<userData>/preferences.json`): the API port, and the team server
 * last opened. Unknown or invalid fields are ignored on read, so a hand-edited file never stops
 * the app.
 * @module
 */
import { isRecord, readJson, writeJsonAtomic } from './atomic-json';
import { checkTeamServerAddress } from './team-server';

export interface TeamServerPreference {
  /** The server's origin (`https://kb.example.com`). */
  origin: string;
  /** Plain http to another machine, confirmed by the person once. */
  httpConfirmed: boolean;
}

export interface Preferences {
  /** The port of the embedded API (1 to 65535); the default port when absent. */
  apiPort?: number;
  /** The team server last opened: offered again by "Open Team Server…" and the copy commands. */
  teamServer?: TeamServerPreference;
}

export const PREFERENCES_FILE = 'preferences.json';

export function isValidPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

function parseTeamServer(value: unknown): TeamServerPreference | undefined {
  if (!isRecord(value) || typeof value.origin !== 'string') return undefined;
  const httpConfirmed = value.httpConfirmed === true;
  const checked = checkTeamServerAddress(value.origin, httpConfirmed);
  // Only an origin exactly as the app writes it: a hand-edited path or scheme is not trusted.
  return checked.ok && checked.origin === value.origin
    ? { origin: checked.origin, httpConfirmed }
    : undefined;
}

export function parsePreferences(value: unknown): Preferences {
  if (!isRecord(value)) return {};
  const teamServer = parseTeamServer(value.teamServer);
  return {
    ...(isValidPort(value.apiPort) ? { apiPort: value.apiPort } : {}),
    ...(teamServer ? { teamServer } : {}),
  };
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
