import { EN } from './messages-en';
import { ZH } from './messages-zh';
import type { Locale, MessageKey, MessageParams, Messages } from './types';

const DICTIONARIES: Record<Locale, Messages> = { en: EN, 'zh-CN': ZH };

export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = DICTIONARIES[locale][key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

const STORAGE_KEY = 'kb-studio.locale';

export function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'zh-CN') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export function storeLocale(locale: Locale): void {
  localStorage.setItem(STORAGE_KEY, locale);
}
