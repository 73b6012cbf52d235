import { useContext } from 'react';
import { I18nContext } from './i18n-context';
import type { I18n } from './i18n-context';

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
