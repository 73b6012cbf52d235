import { useI18n } from '../../i18n/useI18n';

/** A quiet word on the saving of edits: saving, saved at, or not saved (a cell is marked). */
export function SaveIndicator({
  saving,
  savedAt,
  unsaved,
}: {
  saving: boolean;
  savedAt: number | null;
  unsaved: boolean;
}) {
  const { t, formatTime } = useI18n();
  const [text, tone] = saving
    ? [t('save.saving'), 'busy']
    : unsaved
      ? [t('save.notSaved'), 'bad']
      : savedAt !== null
        ? [`✓ ${t('save.savedAt', { time: formatTime(savedAt) })}`, 'ok']
        : ['', 'none'];
  return (
    <span className={`save-indicator save-${tone}`} role="status" data-testid="save-indicator">
      {text}
    </span>
  );
}
