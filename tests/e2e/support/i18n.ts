/**
 * The editor's own messages, for tests that run in both languages: a page model finds a button
 * by the text the user reads, in the language of the test.
 */
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';

export type { Locale, Translate };
export const LANGUAGES: readonly Locale[] = ['en', 'zh-CN'];

/** The browser's language for each of the editor's: the editor starts in it. */
export const BROWSER_LOCALE: Record<Locale, string> = { en: 'en-US', 'zh-CN': 'zh-CN' };

export function translator(lang: Locale): Translate {
  return (key, params) => formatMessage(lang, key, params);
}

/** A pattern matching a text exactly (for names with characters special in patterns). */
export function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
