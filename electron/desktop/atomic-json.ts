/**
 * Small JSON files of the shell (preferences, window state): written to a temporary file in the
 * same folder, fsynced and renamed over the target, so a crash leaves the old or the new file,
 * never half of one; read back as `unknown` for the caller to validate.
 * @module
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../service/files/durable-fs';

export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, 0o600);
}

/** The parsed file, or `undefined` when it is missing or not JSON. */
export function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
