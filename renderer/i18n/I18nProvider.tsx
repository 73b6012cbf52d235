import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { I18nContext } from './i18n-context';
import type { I18n } from './i18n-context';
import { initialLocale, storeLocale, translate } from './translate';
import type { Locale, MessageKey, MessageParams } from './types';

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);

  const setLocale = useCallback((next: Locale) => {
    storeLocale(next);
    setLocaleState(next);
  }, []);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const value = useMemo<I18n>(() => {
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const dateOnly = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const timeOnly = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
    const day = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const format = (formatter: Intl.DateTimeFormat, value: string | number | null | undefined) => {
      if (value === null || value === undefined || value === '') return '';
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? String(value) : formatter.format(date);
    };
    // Formatters are costly to make and the grid formats on every frame: one per options.
    const numberFormats = new Map<string, Intl.NumberFormat>();
    const numberFormat = (options?: Intl.NumberFormatOptions) => {
      const key = options ? JSON.stringify(options) : '';
      let format = numberFormats.get(key);
      if (!format) {
        format = new Intl.NumberFormat(locale, options);
        numberFormats.set(key, format);
      }
      return format;
    };
    return {
      locale,
      setLocale,
      t: (key: MessageKey, params?: MessageParams) => translate(locale, key, params),
      formatNumber: (value, options) => numberFormat(options).format(value),
      formatDateTime: (value) => format(dateTime, value),
      formatDate: (value) => format(dateOnly, value),
      formatTime: (value) => format(timeOnly, value),
      formatDay: (value) => format(day, value),
    };
  }, [locale, setLocale]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}
