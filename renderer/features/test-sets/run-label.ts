/**
 * How a kept test run is named to the editor: what it tested (the draft, the published version,
 * a version) and when, in a sentence of the editor's language. Run ids are the service's own
 * (numbered across all robots), so they are never shown: "#7" meant nothing to a user.
 * @module
 */
import type { TestRunHead } from '../../../electron/service/publishing-types';
import type { Translate } from '../../i18n/types';

/** What a run tested, and when (`when`: its time as the editor writes times). */
export function runLabel(t: Translate, run: Pick<TestRunHead, 'edition'>, when: string): string {
  if (run.edition === 'draft') return t('tests.runOf.draft', { time: when });
  const version = /^v(\d+)$/.exec(run.edition)?.[1];
  if (version) return t('tests.runOf.version', { version: Number(version), time: when });
  // `published`, and any edition name a later service may keep: the version the API answered.
  return t('tests.runOf.published', { time: when });
}
