import { useI18n } from './useI18n';
import type { Locale } from './types';

const NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

export function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('common.language')}</span>
      <select
        value={locale}
        aria-label={t('common.language')}
        onChange={(event) => setLocale(event.target.value as Locale)}
      >
        {(Object.keys(NAMES) as Locale[]).map((code) => (
          <option key={code} value={code}>
            {NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
