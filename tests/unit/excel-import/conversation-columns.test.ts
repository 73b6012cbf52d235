import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsoleRule } from '../../../electron/service/console-types';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';
import { guessMapping } from '../../../renderer/features/excel-import/column-mapping';
import { parseMenu, parsePolicy } from '../../../renderer/features/excel-import/conversation-cells';
import { toImportRows } from '../../../renderer/features/excel-import/import-rows';
import { rulesToSheet } from '../../../renderer/features/excel-import/sheet-layout';

const translate =
  (lang: Locale): Translate =>
  (key, params) =>
    formatMessage(lang, key, params);

function rule(ruleId: string, fields: Partial<ConsoleRule>): ConsoleRule {
  return {
    ruleId,
    ruleName: ruleId,
    ruleCategoryId: '',
    categoryName: '',
    allowSimGen: null,
    active: true,
    effectBeignDate: null,
    effectEndDate: null,
    questions: [`${ruleId}?`],
    answer: `answer ${ruleId}`,
    answerContentType: 'TEXT',
    state: 'active',
    seq: 1,
    createdAt: '',
    updatedAt: '',
    updatedBy: '',
    matchPolicy: 'similarity',
    negativeKeywords: [],
    menu: null,
    ...fields,
  };
}

test('policies, negative keywords and menus survive the export and the import', () => {
  for (const lang of ['en', 'zh-CN'] as const) {
    const rules = [
      rule('退货', { matchPolicy: 'contains', negativeKeywords: ['会员', 'VIP'] }),
      rule('退款', { matchPolicy: 'exact' }),
      rule('售后', {
        menu: [
          { ruleId: '退货', text: '我要退货' },
          { ruleId: '退款', text: 'Refund => status' },
        ],
      }),
    ];
    const sheet = rulesToSheet(translate(lang), rules);
    const rows = toImportRows(sheet.rows, guessMapping(sheet.rows));
    assert.deepEqual(
      rows.map((row) => row.problem),
      [null, null, null],
    );
    assert.deepEqual(rows[0]?.extras, {
      matchPolicy: 'contains',
      negativeKeywords: ['会员', 'VIP'],
    });
    assert.deepEqual(rows[1]?.extras, { matchPolicy: 'exact' });
    assert.deepEqual(rows[2]?.extras?.menu, [
      { text: '我要退货', ruleName: '退货' },
      { text: 'Refund => status', ruleName: '退款' },
    ]);
  }
});

test('cells read leniently, and a wrong policy is a problem of its row', () => {
  assert.equal(parsePolicy(' 包含 '), 'contains');
  assert.equal(parsePolicy('EXACT'), 'exact');
  assert.equal(parsePolicy(''), undefined);
  assert.equal(parsePolicy('regex'), null);
  assert.deepEqual(parseMenu('退货\n\n退款 → 退款到账时间'), [
    { text: '退货', ruleName: '退货' },
    { text: '退款', ruleName: '退款到账时间' },
  ]);
  const rows = toImportRows(
    [
      ['Rule name', 'Question', 'Answer', 'Match policy'],
      ['a', 'q', 'x', 'regex'],
    ],
    { hasHeader: true, roles: ['ruleName', 'question', 'answer', 'policy'] },
  );
  assert.equal(rows[0]?.problem?.field, 'matchPolicy');
});
