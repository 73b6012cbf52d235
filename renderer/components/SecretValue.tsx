import { useState } from 'react';
import { useI18n } from '../i18n/useI18n';
import { CopyButton } from './CopyButton';

/** A secret shown as dots until revealed, with a copy button. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  return (
    <span className="secret">
      <code className="secret-value" aria-label={label}>
        {shown ? value : '•'.repeat(16)}
      </code>
      <button
        type="button"
        className="button button-small"
        onClick={() => setShown(!shown)}
        aria-label={`${shown ? t('common.hide') : t('common.reveal')} ${label}`}
      >
        {shown ? t('common.hide') : t('common.reveal')}
      </button>
      <CopyButton text={value} label={`${t('common.copy')} ${label}`} />
    </span>
  );
}
