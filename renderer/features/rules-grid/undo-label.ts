/**
 * What undo (or redo) would do, for the button's tooltip: "撤销：修改 2 条规则（Ctrl+Z）".
 * @module
 */
import type { Translate } from '../../i18n/types';
import type { UndoEntry } from './rule-mutations';

function whatOf(t: Translate, entry: UndoEntry): string {
  switch (entry.kind) {
    case 'patch':
      return t('rules.undoWhat.patch', { count: entry.changes.length });
    case 'create':
      return t('rules.undoWhat.create', { count: entry.rules.length });
    case 'delete':
      return t('rules.undoWhat.delete', { count: entry.rules.length });
    case 'batch':
      return t('rules.undoWhat.batch', { count: entry.entries.length });
  }
}

/** The tooltip of the undo or redo button; without an entry, only the shortcut. */
export function undoTitle(
  t: Translate,
  direction: 'undo' | 'redo',
  entry: UndoEntry | undefined,
): string {
  const key = direction === 'undo' ? 'Ctrl+Z' : 'Ctrl+Y';
  if (!entry) return key;
  return t(direction === 'undo' ? 'rules.undoTitle' : 'rules.redoTitle', {
    what: whatOf(t, entry),
    key,
  });
}
