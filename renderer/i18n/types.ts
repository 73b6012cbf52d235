import type { EN } from './messages-en';

export type MessageKey = keyof typeof EN;
export type Messages = Record<MessageKey, string>;
export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

/** Values substituted for `{name}` in a message. */
export type MessageParams = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;
