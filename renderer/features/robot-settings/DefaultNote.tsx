import { useI18n } from '../../i18n/useI18n';
import type { ResettableField } from './settings-form';
import type { SettingsForm } from './useRobotSettings';

/**
 * Under a setting: its default value, and "Back to default" when it says something else (the
 * setting then follows the defaults again once saved).
 */
export function DefaultNote({
  form,
  field,
  label,
}: {
  form: SettingsForm;
  field: ResettableField;
  label: string;
}) {
  const { t } = useI18n();
  // A text's default is in the saved language: not shown while another one is picked.
  const textInOtherLanguage =
    form.languageChanged && (field === 'fallbackText' || field === 'recommendText');
  if (textInOtherLanguage) return null;
  const value = String(form.defaults[field]);
  return (
    <p className="setting-default" data-testid={`default-${field}`}>
      {form.atDefault(field) ? (
        <span className="muted">{t('settings.isDefault')}</span>
      ) : (
        <>
          <span className="muted">{t('settings.defaultValue', { value })}</span>
          <button
            type="button"
            className="link-button"
            aria-label={t('settings.resetNamed', { field: label })}
            onClick={() => form.reset(field)}
          >
            {t('settings.reset')}
          </button>
        </>
      )}
    </p>
  );
}
