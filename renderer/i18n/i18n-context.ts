import { createContext } from 'react';
import type { Locale, Translate } from './types';

export interface I18n {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  t: Translate;
  /** A number in the locale's format. */
  formatNumber: (value: number, options?: Intl.NumberFormatOptions) => string;
  /** A date and time (ISO string or epoch ms) in the locale's format; '' for none. */
  formatDateTime: (value: string | number | null | undefined) => string;
  /** A date without its time; '' for none. */
  formatDate: (value: string | number | null | undefined) => string;
  /** A date in digits (`11/23/2026`, `2026/11/23`): compact, for grid cells. */
  formatDay: (value: string | number | null | undefined) => string;
  /** A time of day (hours and minutes). */
  formatTime: (value: string | number) => string;
}

export const I18nContext = createContext<I18n | null>(null);
