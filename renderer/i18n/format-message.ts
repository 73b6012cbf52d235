/**
 * Messages in a language: the dictionary's template, its plural form picked by `count` with
 * Intl.PluralRules, `{name}` placeholders filled in, numbers in the locale's format. No DOM:
 * the unit tests and the e2e page models use it in Node.
 * @module
 */
import { EN } from './messages-en';
import { ZH } from './messages-zh';
import type { Locale, Message, MessageKey, MessageParams, Messages } from './types';

export const DICTIONARIES: Record<Locale, Messages> = { en: EN, 'zh-CN': ZH };

const plurals = new Map<Locale, Intl.PluralRules>();
const numbers = new Map<Locale, Intl.NumberFormat>();

function pluralRules(locale: Locale): Intl.PluralRules {
  let rules = plurals.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    plurals.set(locale, rules);
  }
  return rules;
}

function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numbers.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numbers.set(locale, format);
  }
  return format;
}

/** The template of `message` for `count` (the `other` form without a count). */
export function pickForm(locale: Locale, message: Message, count: unknown): string {
  if (typeof message === 'string') return message;
  if (typeof count !== 'number') return message.other;
  return message[pluralRules(locale).select(count)] ?? message.other;
}

export function formatMessage(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = pickForm(locale, DICTIONARIES[locale][key], params?.count);
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? numberFormat(locale).format(value) : value;
  });
}

/** Every form of a message (one for a plain string). */
export function messageForms(message: Message): string[] {
  return typeof message === 'string' ? [message] : Object.values(message);
}
