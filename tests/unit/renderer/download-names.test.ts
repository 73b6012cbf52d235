import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';
import { downloadName } from '../../../renderer/lib/files/download-names';

const t =
  (locale: Locale): Translate =>
  (key, params) =>
    formatMessage(locale, key, params);
const DAY = new Date('2026-03-04T10:00:00Z');

test('downloaded files are named in the editor language, with the robot name made safe', () => {
  assert.equal(downloadName(t('en'), 'rules', 'Shop', 'xlsx', DAY), 'Shop-rules-2026-03-04.xlsx');
  assert.equal(
    downloadName(t('zh-CN'), 'rules', '商城/售后', 'xlsx', DAY),
    '商城_售后-规则-2026-03-04.xlsx',
  );
  assert.equal(
    downloadName(t('zh-CN'), 'failedRows', '商城', 'xlsx', DAY),
    '商城-导入失败的行.xlsx',
  );
  assert.equal(
    downloadName(t('zh-CN'), 'questions', '商城', 'csv', DAY),
    '商城-用户问题-2026-03-04.csv',
  );
  // Nothing English in a Chinese name besides the extension.
  for (const kind of ['rules', 'failedRows', 'questions'] as const) {
    const name = downloadName(t('zh-CN'), kind, '商城', 'xlsx', DAY).replace(/\.xlsx$/, '');
    assert.doesNotMatch(name, /[A-Za-z]/, name);
  }
});
