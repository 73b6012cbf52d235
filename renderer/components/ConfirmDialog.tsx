import { useState } from 'react';
import type { ReactNode } from 'react';
import { describeError } from '../i18n/describe-problem';
import { useI18n } from '../i18n/useI18n';
import { Dialog } from './Dialog';
import { DialogActions } from './DialogActions';
import { ErrorMessage } from './ErrorMessage';

/**
 * Asks before an action that deletes or changes much: what will happen, Cancel, and the action's
 * own button. A failure is said in the dialog, which stays open.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  danger = false,
  testId,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  danger?: boolean;
  testId?: string;
  /** Runs the action; the dialog closes only when it succeeds. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={testId ?? 'confirm-dialog'}
      footer={
        <DialogActions
          onClose={onClose}
          actionLabel={confirmLabel}
          onAction={() => void accept()}
          disabled={busy}
          danger={danger}
          autoFocus
        />
      }
    >
      <div className="confirm-text">{children}</div>
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
    </Dialog>
  );
}
