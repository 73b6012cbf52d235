import { describeProblem } from '../../i18n/describe-problem';
import type { Translate } from '../../i18n/types';
import type { ImportFailure } from './import-runner';

/** Why a row of the import failed, in the user's language (report and failed rows file). */
export function failureReason(t: Translate, failure: ImportFailure): string {
  if (failure.kind === 'not-sent' || !failure.problem) return t('import.notSentReason');
  const reason = describeProblem(t, failure.problem);
  return failure.kind === 'not-applied' ? t('import.notApplied', { reason }) : reason;
}
