import { useId } from 'react';
import type { RobotLanguage } from '../../api/console-client';
import { SettingsCard } from '../../components/SettingsCard';
import { useI18n } from '../../i18n/useI18n';
import type { SettingsForm } from './useRobotSettings';

/** Each language by its own name, as language pickers show them. */
export const LANGUAGE_NAMES: Record<RobotLanguage, string> = { zh: '简体中文', en: 'English' };

/** The language the robot answers in: its default texts are in it. */
export function LanguageCard({ form }: { form: SettingsForm }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <SettingsCard id="settings-language" title={t('settings.language')}>
      <div className="field">
        <label htmlFor={id}>{t('settings.languageField')}</label>
        <select
          id={id}
          className="language-select"
          value={form.draft.language}
          aria-describedby={`${id}-hint`}
          onChange={(event) => form.setLanguage(event.target.value as RobotLanguage)}
        >
          {(Object.keys(LANGUAGE_NAMES) as RobotLanguage[]).map((code) => (
            <option key={code} value={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
        <p className="field-hint" id={`${id}-hint`}>
          {form.languageChanged
            ? t('settings.languageChanged', { language: LANGUAGE_NAMES[form.draft.language] })
            : t('settings.languageHint')}
        </p>
      </div>
    </SettingsCard>
  );
}
