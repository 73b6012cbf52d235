import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ConsoleCategory } from '../../../electron/service/console-types';
import { describeProblem } from '../../i18n/describe-problem';
import type { Problem } from '../../api/problem';
import { useI18n } from '../../i18n/useI18n';
import { categoryNameProblem, typedNameProblem } from './category-problem';

/** One category: select it (to merge), its rules (shown in the grid), rename, delete. */
export function CategoryRow({
  category,
  selected,
  onSelect,
  onShowRules,
  onRename,
  onDelete,
}: {
  category: ConsoleCategory;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onShowRules: () => void;
  onRename: (name: string) => Promise<void>;
  onDelete: () => void;
}) {
  const { t } = useI18n();
  const { name } = category;
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (editing === null) return;
    if (editing.trim() === name.trim()) return setEditing(null);
    const typed = typedNameProblem(editing);
    if (typed) return setProblem(typed);
    setBusy(true);
    try {
      await onRename(editing.trim());
      setEditing(null);
      setProblem(null);
    } catch (error) {
      setProblem(categoryNameProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') void save();
    else if (event.key === 'Escape') setEditing(null);
    else return;
    // Escape would close the dialog; Enter is the rename's.
    event.preventDefault();
  };

  return (
    <tr>
      <td className="cell-center">
        <input
          type="checkbox"
          checked={selected}
          aria-label={t('categories.selectNamed', { name })}
          onChange={(event) => onSelect(event.target.checked)}
        />
      </td>
      <td>
        {editing === null ? (
          name
        ) : (
          <div className={problem ? 'field field-invalid' : 'field'}>
            <input
              value={editing}
              autoFocus
              disabled={busy}
              aria-label={t('categories.newNameOf', { name })}
              aria-invalid={problem ? true : undefined}
              onChange={(event) => {
                setEditing(event.target.value);
                setProblem(null);
              }}
              onKeyDown={onKeyDown}
            />
            {problem ? (
              <p className="field-error" role="alert">
                {describeProblem(t, problem)}
              </p>
            ) : null}
          </div>
        )}
      </td>
      <td className="numeric">
        <button
          type="button"
          className="link-button"
          aria-label={t('categories.showRules', { name })}
          title={t('categories.showRules', { name })}
          onClick={onShowRules}
        >
          {t('rules.count', { count: category.rules })}
        </button>
      </td>
      <td className="table-actions">
        {editing === null ? (
          <>
            <button
              type="button"
              className="button button-small"
              aria-label={t('categories.renameNamed', { name })}
              onClick={() => setEditing(name)}
            >
              {t('categories.rename')}
            </button>{' '}
            <button
              type="button"
              className="button button-small"
              aria-label={t('categories.deleteNamed', { name })}
              onClick={onDelete}
            >
              {t('categories.delete')}
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button button-small button-primary"
              disabled={busy}
              onClick={() => void save()}
            >
              {t('common.save')}
            </button>{' '}
            <button type="button" className="button button-small" onClick={() => setEditing(null)}>
              {t('common.cancel')}
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
