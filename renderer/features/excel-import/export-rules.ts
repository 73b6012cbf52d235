/**
 * Export of every rule of a robot (in creation order) to .xlsx, in the import's layout.
 * @module
 */
import type { ConsoleRule } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import type { Translate } from '../../i18n/types';
import { rulesToSheet } from './sheet-layout';
import { writeSpreadsheet } from '../../lib/sheets/sheet-worker-client';

const PAGE = 1000;

export async function fetchAllRules(
  client: ConsoleClient,
  ref: RobotRef,
  onProgress?: (done: number, total: number) => void,
): Promise<ConsoleRule[]> {
  const rules: ConsoleRule[] = [];
  for (;;) {
    const page = await client.rules(ref, { offset: rules.length, limit: PAGE, sort: 'created' });
    rules.push(...page.rows);
    onProgress?.(rules.length, page.total);
    if (page.rows.length < PAGE || rules.length >= page.total) return rules;
  }
}

export async function exportRules(
  client: ConsoleClient,
  ref: RobotRef,
  t: Translate,
): Promise<Blob> {
  const rules = await fetchAllRules(client, ref);
  return writeSpreadsheet([rulesToSheet(t, rules)]);
}
