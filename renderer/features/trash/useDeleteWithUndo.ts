/**
 * Deleting a tenant, a robot or an administrator: the service keeps it in the trash for 30 days,
 * so the toast that says it was deleted offers to undo it at once (the Trash page, later).
 * @module
 */
import { useCallback } from 'react';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

export interface Deletion {
  remove: () => Promise<unknown>;
  restore: () => Promise<unknown>;
  /** What the toast says once deleted, and once restored. */
  deleted: string;
  restored: string;
}

/** Runs a deletion (rejects when it fails, for the confirm dialog to say why). */
export function useDeleteWithUndo(): (deletion: Deletion) => Promise<void> {
  const { t } = useI18n();
  const toasts = useToasts();
  const { reload } = useWorkspace();
  return useCallback(
    async ({ remove, restore, deleted, restored }: Deletion) => {
      await remove();
      await reload();
      const undo = async () => {
        try {
          await restore();
          await reload();
          toasts.show(restored);
        } catch (error) {
          toasts.show(t('trash.restoreFailed', { reason: describeError(t, error) }), {
            tone: 'error',
          });
        }
      };
      toasts.show(deleted, { action: { label: t('rules.undo'), run: () => void undo() } });
    },
    [t, toasts, reload],
  );
}
