import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toImportRows } from '../../../renderer/features/excel-import/import-rows';
import { describeProblem } from '../../../renderer/i18n/describe-problem';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Translate } from '../../../renderer/i18n/types';

const t: Translate = (key, params) => formatMessage('zh-CN', key, params);

test('a rule name repeated in the file is said in the preview, at the later row', () => {
  const rows = toImportRows(
    [
      ['名称', '问题', '答案'],
      ['退货政策', '怎么退货', '7 天内可退'],
      ['发票', '能开发票吗', '可以'],
      [' 退货政策 ', '可以退货吗', '15 天内可退'],
    ],
    { hasHeader: true, roles: ['ruleName', 'question', 'answer'] },
  );
  assert.deepEqual(
    rows.map((row) => row.problem?.keyword ?? null),
    [null, null, 'duplicate-in-file'],
  );
  const later = rows[2];
  assert.ok(later?.problem);
  assert.equal(
    describeProblem(t, later.problem, later.sheetRow),
    '第 4 行：规则名称「退货政策」与第 2 行重复，同一机器人中的规则名称不能相同。',
  );
});
