import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIMITS } from '../../../electron/service/limits';
import { guessMapping } from '../../../renderer/features/excel-import/column-mapping';
import { toImportRows } from '../../../renderer/features/excel-import/import-rows';
import { templateSheet } from '../../../renderer/features/excel-import/sheet-layout';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';

const t =
  (locale: Locale): Translate =>
  (key, params) =>
    formatMessage(locale, key, params);

test('the template has a column for each phrasing a rule may have, and imports as it is', () => {
  for (const lang of ['en', 'zh-CN'] as const) {
    const { rows } = templateSheet(t(lang));
    const [header, ...examples] = rows;
    const mapping = guessMapping(rows);
    assert.equal(
      mapping.roles.filter((role) => role === 'question').length,
      LIMITS.questionsMax,
      lang,
    );
    for (const row of examples) assert.equal(row.length, header?.length);
    const imported = toImportRows(rows, mapping);
    assert.deepEqual(
      imported.map((row) => [row.problem, row.rule.questions.length]),
      [
        [null, 2],
        [null, 3],
      ],
    );
  }
});
