import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';
import { casesFromSheet, casesToSheet } from '../../../renderer/features/test-sets/test-set-sheet';

const t =
  (locale: Locale): Translate =>
  (key, params) =>
    formatMessage(locale, key, params);

test('a test set goes to a sheet and back, in either language', () => {
  for (const lang of ['en', 'zh-CN'] as const) {
    const sheet = casesToSheet(t(lang), [
      {
        caseId: 1,
        question: '怎么退货',
        expect: 'rule',
        ruleId: 'r1',
        ruleName: '退货',
        createdAt: 0,
        updatedAt: 0,
      },
      {
        caseId: 2,
        question: 'weather?',
        expect: 'fallback',
        ruleId: null,
        ruleName: null,
        createdAt: 0,
        updatedAt: 0,
      },
    ]);
    assert.deepEqual(casesFromSheet(t(lang), sheet), {
      cases: [
        { question: '怎么退货', expect: 'rule', ruleName: '退货' },
        { question: 'weather?', expect: 'fallback' },
      ],
      problems: [],
    });
  }
});

test('localised expectations are read, blank rows skipped, bad rows named by their number', () => {
  const read = casesFromSheet(t('zh-CN'), {
    name: 'x',
    rows: [
      ['问题', '期望', '规则名称'],
      ['运费多少', '推荐中包含', '运费'],
      ['', '', ''],
      ['几点开门', '', '营业时间'],
      ['no rule', 'rule', ''],
      ['odd', 'sometimes', 'x'],
    ],
  });
  assert.deepEqual(read.cases, [
    { question: '运费多少', expect: 'recommend', ruleName: '运费' },
    { question: '几点开门', expect: 'rule', ruleName: '营业时间' },
  ]);
  assert.deepEqual(
    read.problems.map((p) => p.row),
    [5, 6],
  );
});
