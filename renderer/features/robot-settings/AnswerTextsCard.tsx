import { TextAreaField } from '../../components/TextAreaField';
import { useI18n } from '../../i18n/useI18n';
import type { SettingsForm } from './useRobotSettings';

/** What the robot says when it is not sure: the fallback and the suggestion texts. */
export function AnswerTextsCard({ form }: { form: SettingsForm }) {
  const { t } = useI18n();
  return (
    <section className="card settings-card" aria-labelledby="settings-texts">
      <header className="card-header">
        <h2 id="settings-texts">{t('settings.texts')}</h2>
      </header>
      <div className="settings-body">
        <TextAreaField
          label={t('settings.fallbackText')}
          value={form.draft.fallbackText}
          onChange={(value) => form.setText('fallbackText', value)}
          error={form.errorOf('fallbackText')}
          hint={t('settings.fallbackHint')}
        />
        <TextAreaField
          label={t('settings.recommendText')}
          value={form.draft.recommendText}
          onChange={(value) => form.setText('recommendText', value)}
          error={form.errorOf('recommendText')}
          hint={t('settings.recommendHint')}
          rows={2}
        />
      </div>
    </section>
  );
}
