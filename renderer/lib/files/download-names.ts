/**
 * The names of the files the editor downloads, in the editor's language: the robot's name (made
 * safe for a file system), what the file holds, and the day.
 * @module
 */
import type { Translate } from '../../i18n/types';

/** The robot's name without the characters file systems refuse. */
export function safeFileStem(robotName: string): string {
  return robotName.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'robot';
}

export type DownloadKind = 'rules' | 'failedRows' | 'questions';

export function downloadName(
  t: Translate,
  kind: DownloadKind,
  robotName: string,
  extension: 'xlsx' | 'csv',
  day = new Date(),
): string {
  const robot = safeFileStem(robotName);
  const date = day.toISOString().slice(0, 10);
  return `${t(`files.${kind}`, { robot, date })}.${extension}`;
}
