import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DICTIONARIES, formatMessage, messageForms } from '../../../renderer/i18n/format-message';
import type { Locale, Message, MessageKey } from '../../../renderer/i18n/types';
import { LOCALES } from '../../../renderer/i18n/types';
import { apiNamesIn } from './api-names';

/**
 * Messages that quote the API on purpose, with the reason. (Screens that show credentials to a
 * developer quote parameter names outside the dictionaries, as code.)
 */
const QUOTES_API: Partial<Record<MessageKey, string>> = {};

const keysOf = (locale: Locale) => Object.keys(DICTIONARIES[locale]).sort();
const placeholders = (message: Message) =>
  [
    ...new Set(
      messageForms(message).flatMap((form) => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1])),
    ),
  ].sort();

test('every message key exists in both languages, and no other key', () => {
  assert.deepEqual(keysOf('zh-CN'), keysOf('en'));
});

test('both languages fill the same placeholders in each message, and none is empty', () => {
  for (const key of keysOf('en') as MessageKey[]) {
    const en = DICTIONARIES.en[key];
    const zh = DICTIONARIES['zh-CN'][key];
    assert.deepEqual(placeholders(zh), placeholders(en), `placeholders of ${key}`);
    for (const form of [...messageForms(en), ...messageForms(zh)]) {
      assert.ok(form.trim() !== '', `${key} has an empty form`);
    }
  }
});

test('English messages with a count have a singular and a plural form', () => {
  for (const key of keysOf('en') as MessageKey[]) {
    const message = DICTIONARIES.en[key];
    const forms = messageForms(message).join(' ');
    if (!/\{count\}/.test(forms)) continue;
    // A count that is always 2 or more, or a label such as "Question {n}", needs no forms.
    if (typeof message === 'string') {
      assert.doesNotMatch(
        message,
        /\{count\} \w+s\b|\(s\)/,
        `${key} puts a plural noun after {count}: give it one/other forms`,
      );
      continue;
    }
    assert.ok(message.one && message.other, `${key} has one and other forms`);
  }
  for (const locale of LOCALES) {
    for (const key of keysOf(locale) as MessageKey[]) {
      for (const form of messageForms(DICTIONARIES[locale][key])) {
        assert.doesNotMatch(form, /\(s\)|\(es\)/, `${locale} ${key}: "(s)" plurals`);
      }
    }
  }
});

test('no message shown to a user contains an API field name, unless it quotes the API', () => {
  for (const locale of LOCALES) {
    for (const key of keysOf(locale) as MessageKey[]) {
      if (QUOTES_API[key]) continue;
      for (const form of messageForms(DICTIONARIES[locale][key])) {
        // Placeholders are not shown: what fills them is checked where it is made.
        const shown = form.replace(/\{\w+\}/g, '…');
        assert.deepEqual(apiNamesIn(shown), [], `${locale} ${key}: "${form}"`);
      }
    }
  }
});

test('the API-name check finds names as words only', () => {
  assert.deepEqual(apiNamesIn('mail must be a valid e-mail address.'), ['mail']);
  assert.deepEqual(apiNamesIn('E-mail must be an e-mail address such as name@example.com.'), []);
  assert.deepEqual(apiNamesIn('effectEndDate must not be before effectBeignDate.'), [
    'effectBeignDate',
    'effectEndDate',
  ]);
  assert.deepEqual(apiNamesIn('answerType BESTMATCH, items: null'), [
    'answerType',
    'items',
    'BESTMATCH',
    'null',
  ]);
});

test('counts read as a person would write them', () => {
  assert.equal(formatMessage('en', 'rules.count', { count: 1 }), '1 rule');
  assert.equal(formatMessage('en', 'rules.count', { count: 1234 }), '1,234 rules');
  assert.equal(
    formatMessage('en', 'rules.countFiltered', { shown: 3, count: 53 }),
    '3 of 53 rules',
  );
  assert.equal(formatMessage('en', 'rules.deleted', { count: 1 }), '1 rule deleted.');
  assert.equal(formatMessage('en', 'rules.deleted', { count: 3 }), '3 rules deleted.');
  assert.equal(formatMessage('en', 'rules.copiedRows', { count: 1 }), '1 row copied.');
  assert.equal(formatMessage('zh-CN', 'rules.deleted', { count: 3 }), '已删除 3 条规则。');
  assert.equal(
    formatMessage('zh-CN', 'rules.countFiltered', { shown: 3, count: 53 }),
    '53 条规则中的 3 条',
  );
});

/** Source files of the editor, to find the keys it uses. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.startsWith('messages-')
      ? [readFileSync(path, 'utf8')]
      : [];
  });
}

test('every message is used by the editor', () => {
  const code = sources(join(import.meta.dirname, '..', '..', '..', 'renderer')).join('\n');
  // Keys built from a prefix and a value (`import.role.${role}`).
  const dynamic = [...code.matchAll(/[`'](\w+(?:\.\w+)*\.)\$\{/g)].map((m) => m[1] ?? '');
  const unused = (keysOf('en') as MessageKey[]).filter(
    (key) => !code.includes(`'${key}'`) && !dynamic.some((prefix) => key.startsWith(prefix)),
  );
  assert.deepEqual(unused, []);
});
