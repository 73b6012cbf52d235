/**
 * The question log as a spreadsheet (.xlsx, written in the sheet worker like the rules export)
 * or CSV, with the columns of the service's CSV export.
 * @module
 */
import type { LoggedQuestion } from '../../../electron/service/question-log-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';

const PAGE = 1000;

export const LOG_COLUMNS = [
  'time',
  'userId',
  'channel',
  'source',
  'question',
  'answerType',
  'module',
  'score',
  'ruleId',
  'recommended',
  'version',
  'chosenFrom',
];

export function logRow(entry: LoggedQuestion): string[] {
  return [
    new Date(entry.at).toISOString(),
    entry.userId,
    entry.channel,
    entry.source,
    entry.question,
    entry.answerType,
    entry.module,
    String(entry.score),
    entry.ruleId ?? '',
    entry.recommended.join(' '),
    entry.version === null ? '' : String(entry.version),
    entry.chosenFrom ?? '',
  ];
}

/** Every entry kept, oldest first. */
export async function fetchWholeLog(
  client: ConsoleClient,
  ref: RobotRef,
): Promise<LoggedQuestion[]> {
  const entries: LoggedQuestion[] = [];
  for (;;) {
    const page = await client.questionLog(ref, { offset: entries.length, limit: PAGE });
    entries.push(...page.entries);
    if (page.entries.length < PAGE || entries.length >= page.total) return entries.reverse();
  }
}

export function logFileName(robotName: string, extension: 'xlsx' | 'csv'): string {
  const date = new Date().toISOString().slice(0, 10);
  const safe = robotName.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'robot';
  return `${safe}-questions-${date}.${extension}`;
}
