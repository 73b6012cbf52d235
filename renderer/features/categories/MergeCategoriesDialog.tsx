import { useId, useState } from 'react';
import type { ConsoleCategory } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useI18n } from '../../i18n/useI18n';

/** Merges the selected categories into the one kept (by default, the one with most rules). */
export function MergeCategoriesDialog({
  categories,
  onMerge,
  onClose,
}: {
  categories: readonly ConsoleCategory[];
  onMerge: (from: string[], into: ConsoleCategory) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const largest = [...categories].sort((a, b) => b.rules - a.rules)[0];
  const [into, setInto] = useState(largest?.categoryId ?? '');
  const kept = categories.find((c) => c.categoryId === into);
  return (
    <ConfirmDialog
      title={t('categories.mergeTitle', { count: categories.length })}
      confirmLabel={t('categories.mergeConfirm')}
      testId="merge-dialog"
      onConfirm={async () => {
        if (!kept) return;
        const from = categories.map((c) => c.categoryId).filter((c) => c !== into);
        await onMerge(from, kept);
      }}
      onClose={onClose}
    >
      <div className="field">
        <label htmlFor={id}>{t('categories.mergeInto')}</label>
        <select id={id} value={into} onChange={(event) => setInto(event.target.value)}>
          {categories.map((category) => (
            <option key={category.categoryId} value={category.categoryId}>
              {category.name} ({t('rules.count', { count: category.rules })})
            </option>
          ))}
        </select>
      </div>
      <p>{t('categories.mergeText', { name: kept?.name ?? '' })}</p>
    </ConfirmDialog>
  );
}
