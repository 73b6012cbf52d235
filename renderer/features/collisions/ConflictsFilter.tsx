import { Spinner } from '../../components/Spinner';
import { useI18n } from '../../i18n/useI18n';

/**
 * "Conflicts only": the grid keeps the rules of the last collision check. It can be used once a
 * check is back; a check under way (after edits) is shown beside it, the grid stays usable.
 */
export function ConflictsFilter({
  rules,
  computing,
  failed,
  sampled,
  on,
  onChange,
}: {
  rules: number | null;
  computing: boolean;
  failed: boolean;
  /** Phrasings checked when the check took a sample only; null when it checked them all. */
  sampled: number | null;
  on: boolean;
  onChange: (on: boolean) => void;
}) {
  const { t } = useI18n();
  const hint = [
    t('conflicts.hint'),
    ...(sampled !== null ? [t('conflicts.partial', { count: sampled })] : []),
  ].join('\n');
  return (
    <span className="conflicts-filter" data-testid="conflicts-filter">
      <label className="inline-field" title={hint}>
        <input
          type="checkbox"
          checked={on}
          disabled={rules === null && !on}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>
          {rules === null ? t('conflicts.filterPending') : t('conflicts.filter', { count: rules })}
        </span>
      </label>
      {/* One slot of fixed width for a check under way or failed: words coming and going here
          wrapped the toolbar, and the grid under it moved a row's height under the pointer
          (decision 186). The words are on hover and read out. */}
      <span className="conflicts-busy">
        {computing ? (
          <Spinner label={t('conflicts.checking')} compact />
        ) : failed ? (
          <span className="bad" role="alert" title={t('conflicts.failed')}>
            ⚠<span className="visually-hidden">{t('conflicts.failed')}</span>
          </span>
        ) : null}
      </span>
    </span>
  );
}
