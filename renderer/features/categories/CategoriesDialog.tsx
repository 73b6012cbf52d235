import { useState } from 'react';
import type { ConsoleCategory } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { toggled } from '../../components/toggled';
import { useToasts } from '../../components/useToasts';
import { useI18n } from '../../i18n/useI18n';
import { CategoryRow } from './CategoryRow';
import { MergeCategoriesDialog } from './MergeCategoriesDialog';
import { NewCategoryForm } from './NewCategoryForm';
import type { Categories } from './useCategories';

/**
 * A robot's categories: each with its number of rules (shown in the grid on a click), created,
 * renamed, several merged into one, deleted (its rules kept, without a category).
 */
export function CategoriesDialog({
  robotName,
  categories,
  onChanged,
  onShowRules,
  onClose,
}: {
  robotName: string;
  categories: Categories;
  /** Rules were filed elsewhere or their category renamed. */
  onChanged: () => void;
  onShowRules: (categoryId: string) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const toasts = useToasts();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<ConsoleCategory | null>(null);
  const [merging, setMerging] = useState(false);
  const { list } = categories;
  const selected = list.filter((category) => picked.has(category.categoryId));

  const select = (categoryId: string, on: boolean) =>
    setPicked((current) => toggled(current, categoryId, on));

  return (
    <Dialog
      title={t('categories.title', { robot: robotName })}
      onClose={onClose}
      wide
      testId="categories-dialog"
      footer={
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      <p className="form-intro category-intro">{t('categories.intro')}</p>
      <NewCategoryForm onCreate={categories.create} />
      {list.length === 0 ? (
        <p className="hint">{t('categories.empty')}</p>
      ) : (
        <>
          <div className="category-actions">
            <span className="muted">
              {selected.length > 0
                ? t('rules.selectedCount', { count: selected.length })
                : t('categories.mergeHint')}
            </span>
            <button
              type="button"
              className="button"
              disabled={selected.length < 2}
              onClick={() => setMerging(true)}
            >
              {t('categories.merge')}
            </button>
          </div>
          <div className="category-scroll">
            <table className="table" aria-label={t('categories.list')}>
              <thead>
                <tr>
                  <th className="cell-center" aria-label={t('categories.select')} />
                  <th>{t('rules.col.category')}</th>
                  <th className="numeric">{t('categories.rules')}</th>
                  <th className="table-actions" aria-label={t('common.actions')} />
                </tr>
              </thead>
              <tbody>
                {list.map((category) => (
                  <CategoryRow
                    key={category.categoryId}
                    category={category}
                    selected={picked.has(category.categoryId)}
                    onSelect={(on) => select(category.categoryId, on)}
                    onShowRules={() => onShowRules(category.categoryId)}
                    onRename={async (name) => {
                      await categories.rename(category.categoryId, name);
                      onChanged();
                    }}
                    onDelete={() => setDeleting(category)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {deleting ? (
        <ConfirmDialog
          title={t('categories.deleteTitle', { name: deleting.name })}
          confirmLabel={t('categories.delete')}
          danger
          onConfirm={async () => {
            const count = await categories.remove(deleting.categoryId);
            select(deleting.categoryId, false);
            onChanged();
            toasts.show(t('categories.deleted', { name: deleting.name, count }));
          }}
          onClose={() => setDeleting(null)}
        >
          <p>
            {deleting.rules === 0
              ? t('categories.deleteEmpty')
              : t('categories.deleteText', { count: deleting.rules })}
          </p>
        </ConfirmDialog>
      ) : null}
      {merging ? (
        <MergeCategoriesDialog
          categories={selected}
          onMerge={async (from, into) => {
            const moved = await categories.merge(from, into.categoryId);
            setPicked(new Set());
            onChanged();
            toasts.show(t('categories.merged', { name: into.name, count: moved }));
          }}
          onClose={() => setMerging(false)}
        />
      ) : null}
    </Dialog>
  );
}
