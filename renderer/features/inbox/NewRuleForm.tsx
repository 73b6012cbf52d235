import { useState } from 'react';
import { useI18n } from '../../i18n/useI18n';

/** A new rule from a group: its name (the first question by default) and its answer. */
export function NewRuleForm({
  initialName,
  onSubmit,
}: {
  initialName: string;
  onSubmit: (ruleName: string, answer: string) => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState(initialName);
  const [answer, setAnswer] = useState('');
  const ready = name.trim() !== '' && answer.trim() !== '';
  return (
    <form
      className="inbox-new-rule"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onSubmit(name.trim(), answer.trim());
      }}
    >
      <label className="field">
        <span>{t('inbox.ruleName')}</span>
        <input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
      </label>
      <label className="field">
        <span>{t('inbox.answer')}</span>
        <textarea
          value={answer}
          rows={3}
          maxLength={2000}
          onChange={(event) => setAnswer(event.target.value)}
        />
      </label>
      <button type="submit" className="button button-primary" disabled={!ready}>
        {t('inbox.createRule')}
      </button>
    </form>
  );
}
