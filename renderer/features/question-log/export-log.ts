/**
 * The question log as a spreadsheet (.xlsx, written in the sheet worker like the rules export)
 * or CSV, in the layout of the service's CSV export (question-log-types.ts).
 * @module
 */
import type { LoggedQuestion } from '../../../electron/service/question-log-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';

const PAGE = 1000;

/** Every entry kept, oldest first: pages from the newest back to the oldest, by cursor. */
export async function fetchWholeLog(
  client: ConsoleClient,
  ref: RobotRef,
): Promise<LoggedQuestion[]> {
  const entries: LoggedQuestion[] = [];
  let before: string | null = null;
  do {
    const page = await client.questionLog(ref, {
      limit: PAGE,
      ...(before !== null ? { before } : {}),
    });
    entries.push(...page.entries);
    before = page.next;
  } while (before !== null);
  return entries.reverse();
}
