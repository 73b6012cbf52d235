import type { ConsoleRobot } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { useDeleteWithUndo } from './useDeleteWithUndo';

/** Asks before deleting a robot (its rules go with it, to the trash for 30 days); Undo after. */
export function DeleteRobotDialog({
  tenantId,
  robot,
  onDeleted,
  onClose,
}: {
  tenantId: number;
  robot: ConsoleRobot;
  onDeleted?: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { client } = useWorkspace();
  const deleteWithUndo = useDeleteWithUndo();
  const ref = { tenantId, robotId: robot.robotId };
  return (
    <ConfirmDialog
      title={t('robot.deleteTitle', { name: robot.name })}
      confirmLabel={t('robot.deleteConfirm')}
      danger
      onClose={onClose}
      onConfirm={async () => {
        await deleteWithUndo({
          remove: () => client.deleteRobot(ref),
          restore: () => client.restoreRobot(ref),
          deleted: t('robot.deleted', { name: robot.name }),
          restored: t('trash.restored', { name: robot.name }),
        });
        onDeleted?.();
      }}
    >
      <p>{t('robot.deleteText', { count: robot.ruleCount })}</p>
      <p>{t('trash.keptText')}</p>
    </ConfirmDialog>
  );
}
