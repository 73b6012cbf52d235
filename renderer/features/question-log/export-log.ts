/**
 * The question log as a spreadsheet (.xlsx, written in the sheet worker like the rules export)
 * or CSV, in the layout of the service's CSV export (question-log-types.ts).
 * @module
 */
import type { LoggedQuestion } from '../../../electron/service/question-log-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';

const PAGE = 1000;

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
