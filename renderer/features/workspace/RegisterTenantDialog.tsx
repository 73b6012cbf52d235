import { robotLanguageOf } from '../../api/console-client';
import { FormDialog } from '../../components/FormDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../components/Field';
import { useI18n } from '../../i18n/useI18n';
import { TENANT_CHECKS } from './form-checks';
import { useForm } from './useForm';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

const EMPTY = { company: '', username: '', password: '', phoneNumber: '', mail: '' };

export function RegisterTenantDialog({
  onClose,
  onRegistered,
}: {
  onClose: () => void;
  onRegistered: (tenantId: number) => void;
}) {
  const { t, locale } = useI18n();
  const { client, reload } = useWorkspace();
  const form = useForm(EMPTY, TENANT_CHECKS);

  const submit = () =>
    form.submit(async (values) => {
      const { tenantId } = await client.registerTenant(values, robotLanguageOf(locale));
      await reload();
      onRegistered(tenantId);
    });

  return (
    <FormDialog
      title={t('tenant.registerTitle')}
      testId="register-tenant-dialog"
      formId="register-tenant-form"
      submitLabel={t('tenant.register')}
      busy={form.busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <p className="form-intro">{t('tenant.registerIntro')}</p>
      <Field
        label={t('tenant.company')}
        value={form.values.company}
        onChange={(v) => form.set('company', v)}
        error={form.errorOf('company')}
        autoFocus
      />
      <Field
        label={t('user.username')}
        value={form.values.username}
        onChange={(v) => form.set('username', v)}
        error={form.errorOf('username')}
        hint={t('user.usernameHint')}
        autoComplete="off"
      />
      <Field
        label={t('user.password')}
        type="password"
        value={form.values.password}
        onChange={(v) => form.set('password', v)}
        error={form.errorOf('password')}
        hint={t('user.passwordHint')}
        autoComplete="new-password"
      />
      <Field
        label={t('tenant.phoneNumber')}
        value={form.values.phoneNumber}
        onChange={(v) => form.set('phoneNumber', v)}
        error={form.errorOf('phoneNumber')}
        hint={t('tenant.phoneHint')}
        inputMode="tel"
      />
      <Field
        label={t('tenant.mail')}
        type="email"
        value={form.values.mail}
        onChange={(v) => form.set('mail', v)}
        error={form.errorOf('mail')}
      />
      {form.formError ? <ErrorMessage>{form.formError}</ErrorMessage> : null}
    </FormDialog>
  );
}
