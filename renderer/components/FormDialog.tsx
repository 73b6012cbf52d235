import type { ReactNode } from 'react';
import { useI18n } from '../i18n/useI18n';
import { Dialog } from './Dialog';

/** A dialog holding one form: Cancel and a submit button in the footer, Enter submits. */
export function FormDialog({
  title,
  testId,
  formId,
  submitLabel,
  busy,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  testId: string;
  formId: string;
  submitLabel: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Dialog>
  );
}
