import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undoTitle } from '../../../renderer/features/rules-grid/undo-label';
import type { UndoEntry } from '../../../renderer/features/rules-grid/rule-mutations';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';

const t =
  (locale: Locale): Translate =>
  (key, params) =>
    formatMessage(locale, key, params);

test("undo's and redo's tooltips say what they would undo or redo", () => {
  const patch: UndoEntry = {
    kind: 'patch',
    changes: [
      { ruleId: 'a', before: { answer: 'x' }, after: { answer: 'y' } },
      { ruleId: 'b', before: { answer: 'x' }, after: { answer: 'y' } },
    ],
  };
  const deleted: UndoEntry = { kind: 'delete', rules: [] };
  assert.equal(undoTitle(t('zh-CN'), 'undo', patch), '撤销：修改 2 条规则（Ctrl+Z）');
  assert.equal(undoTitle(t('en'), 'redo', patch), 'Redo: changing 2 rules (Ctrl+Y)');
  assert.equal(
    undoTitle(t('zh-CN'), 'undo', { kind: 'batch', entries: [patch, deleted] }),
    '撤销：2 步操作（Ctrl+Z）',
  );
  assert.equal(undoTitle(t('en'), 'undo', undefined), 'Ctrl+Z');
});
