import { TextAreaField } from '../../components/TextAreaField';
import { SettingsCard } from '../../components/SettingsCard';
import { useI18n } from '../../i18n/useI18n';
import { DefaultNote } from './DefaultNote';
import type { SettingsForm } from './useRobotSettings';

/** What the robot says when it is not sure: the fallback and the suggestion texts. */
export function AnswerTextsCard({ form }: { form: SettingsForm }) {
  const { t } = useI18n();
  const fallback = t('settings.fallbackText');
  const recommend = t('settings.recommendText');
  return (
    <SettingsCard id="settings-texts" title={t('settings.texts')}>
      <div className="setting">
        <TextAreaField
          label={fallback}
          value={form.draft.fallbackText}
          onChange={(value) => form.setText('fallbackText', value)}
          error={form.errorOf('fallbackText')}
          hint={t('settings.fallbackHint')}
        />
        <DefaultNote form={form} field="fallbackText" label={fallback} />
      </div>
      <div className="setting">
        <TextAreaField
          label={recommend}
          value={form.draft.recommendText}
          onChange={(value) => form.setText('recommendText', value)}
          error={form.errorOf('recommendText')}
          hint={t('settings.recommendHint')}
          rows={2}
        />
        <DefaultNote form={form} field="recommendText" label={recommend} />
      </div>
    </SettingsCard>
  );
}
