import type { ConsoleUser } from '../../../electron/service/console-types';
import { FormDialog } from '../../components/FormDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../components/Field';
import { useI18n } from '../../i18n/useI18n';
import { USER_CHECKS } from './form-checks';
import { useForm } from './useForm';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

/** Adds an administrator, or edits one (`user` given: a blank password is left unchanged). */
export function UserDialog({
  tenantId,
  user,
  onClose,
}: {
  tenantId: number;
  user?: ConsoleUser;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const { client, reload } = useWorkspace();
  const form = useForm(
    { username: user?.username ?? '', password: '' },
    USER_CHECKS,
    user ? ['password'] : [],
  );

  const submit = () =>
    form.submit(async ({ username, password }) => {
      if (user) {
        await client.updateUser(tenantId, user.userId, {
          ...(username !== user.username ? { username } : {}),
          ...(password !== '' ? { password } : {}),
          role: 'ADMIN',
        });
      } else {
        await client.addUser(tenantId, { username, password, role: 'ADMIN' });
      }
      await reload();
      onClose();
    });

  return (
    <FormDialog
      title={user ? t('user.editTitle', { name: user.username }) : t('user.addTitle')}
      testId="user-dialog"
      formId="user-form"
      submitLabel={t('common.save')}
      busy={form.busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <Field
        label={t('user.username')}
        value={form.values.username}
        onChange={(v) => form.set('username', v)}
        error={form.errorOf('username')}
        hint={t('user.usernameHint')}
        autoComplete="off"
        autoFocus
      />
      <Field
        label={t('user.password')}
        type="password"
        value={form.values.password}
        onChange={(v) => form.set('password', v)}
        error={form.errorOf('password')}
        hint={user ? t('user.passwordKeep') : t('user.passwordHint')}
        autoComplete="new-password"
      />
      <p className="form-intro">{t('user.roleAdmin')}</p>
      {form.formError ? <ErrorMessage>{form.formError}</ErrorMessage> : null}
    </FormDialog>
  );
}
