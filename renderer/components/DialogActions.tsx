/**
 * The footer most dialogs have: a button that leaves (Cancel or Close) and the one action, in
 * that order, the action primary or, for what cannot be undone, danger.
 * @module
 */
import { useI18n } from '../i18n/useI18n';

export function DialogActions({
  leave = 'cancel',
  onClose,
  actionLabel,
  onAction,
  disabled = false,
  danger = false,
  autoFocus = false,
}: {
  /** What the leaving button says: Cancel (changes are dropped) or Close (nothing to drop). */
  leave?: 'cancel' | 'close';
  onClose: () => void;
  actionLabel: string;
  onAction: () => void;
  disabled?: boolean;
  danger?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  return (
    <>
      <button type="button" className="button" onClick={onClose}>
        {leave === 'close' ? t('common.close') : t('common.cancel')}
      </button>
      <button
        type="button"
        className={danger ? 'button button-danger' : 'button button-primary'}
        disabled={disabled}
        autoFocus={autoFocus}
        onClick={onAction}
      >
        {actionLabel}
      </button>
    </>
  );
}
