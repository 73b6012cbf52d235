import { useState } from 'react';
import { useI18n } from '../i18n/useI18n';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        window.setTimeout(() => setCopied(false), 1500);
      },
      () => setCopied(false),
    );
  };
  return (
    <button type="button" className="button button-small" onClick={copy} aria-label={label}>
      {copied ? t('common.copied') : t('common.copy')}
    </button>
  );
}
