import type { DuplicateQuestion } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';

const LISTED = 20;

/** A warning when phrasings are shared by several rules (the matcher cannot tell them apart). */
export function DuplicatesNotice({
  duplicates,
  onShow,
}: {
  duplicates: DuplicateQuestion[];
  onShow: (question: string) => void;
}) {
  const { t } = useI18n();
  if (duplicates.length === 0) return null;
  return (
    <details className="notice notice-warn" data-testid="duplicates-notice">
      <summary>⚠ {t('rules.duplicatesTitle', { count: duplicates.length })}</summary>
      <ul>
        {duplicates.slice(0, LISTED).map((duplicate) => (
          <li key={duplicate.question}>
            <button
              type="button"
              className="link-button"
              onClick={() => onShow(duplicate.question)}
            >
              {duplicate.question}
            </button>{' '}
            <span className="muted">
              {t('rules.duplicateRules', { count: duplicate.ruleIds.length })}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
