import type { EN } from './messages-en';

/** A message with a form per plural category of `count` (Intl.PluralRules): `other` always. */
export interface PluralMessage {
  readonly zero?: string;
  readonly one?: string;
  readonly two?: string;
  readonly few?: string;
  readonly many?: string;
  readonly other: string;
}

export type Message = string | PluralMessage;
export type MessageKey = keyof typeof EN;
export type Messages = Record<MessageKey, Message>;
export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

/**
 * Values substituted for `{name}` in a message. Numbers are written in the locale's format;
 * `count`, when a number, also picks the plural form.
 */
export type MessageParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;
