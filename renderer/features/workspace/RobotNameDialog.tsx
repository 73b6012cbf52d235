import type { ConsoleRobot } from '../../../electron/service/console-types';
import { robotLanguageOf } from '../../api/console-client';
import { FormDialog } from '../../components/FormDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../components/Field';
import { useI18n } from '../../i18n/useI18n';
import { ROBOT_NAME_CHECK } from './form-checks';
import { useForm } from './useForm';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

const CHECKS = { name: ROBOT_NAME_CHECK };

/** Creates a robot, or renames one (`robot` given). */
export function RobotNameDialog({
  tenantId,
  robot,
  onClose,
  onCreated,
}: {
  tenantId: number;
  robot?: ConsoleRobot;
  onClose: () => void;
  onCreated?: (robotId: string) => void;
}) {
  const { t, locale } = useI18n();
  const { client, reload } = useWorkspace();
  const form = useForm({ name: robot?.name ?? '' }, CHECKS);

  const submit = () =>
    form.submit(async ({ name }) => {
      if (robot) {
        await client.patchRobot({ tenantId, robotId: robot.robotId }, { name });
        await reload();
        onClose();
      } else {
        const created = await client.createRobot(tenantId, name, robotLanguageOf(locale));
        await reload();
        onCreated?.(created.robotId);
        onClose();
      }
    });

  return (
    <FormDialog
      title={robot ? t('robot.renameTitle') : t('robot.createTitle')}
      testId="robot-dialog"
      formId="robot-form"
      submitLabel={robot ? t('common.save') : t('robot.create')}
      busy={form.busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <Field
        label={t('robot.nameField')}
        value={form.values.name}
        onChange={(v) => form.set('name', v)}
        error={form.errorOf('name')}
        autoFocus
      />
      {form.formError ? <ErrorMessage>{form.formError}</ErrorMessage> : null}
    </FormDialog>
  );
}
