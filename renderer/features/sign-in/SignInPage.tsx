import { useState } from 'react';
import type { FormEvent } from 'react';
import { ApiError } from '../../api/api-error';
import { signIn } from '../../api/session';
import type { EditorSession } from '../../api/session';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../components/Field';
import { LanguageSwitch } from '../../i18n/LanguageSwitch';
import { useI18n } from '../../i18n/useI18n';
import type { MessageKey } from '../../i18n/types';

/** Why the form is shown again: a message above it. */
export type SignInReason = 'expired' | 'ended' | 'signed-out' | null;

const REASONS: Record<Exclude<SignInReason, null>, MessageKey> = {
  expired: 'signIn.expired',
  ended: 'signIn.ended',
  'signed-out': 'signIn.signedOut',
};

/**
 * The team server's sign-in form: username and password; when they open accounts in several
 * tenants, the service names them and the form asks which (docs/editor.md, "Signing in").
 */
export function SignInPage({
  reason,
  onSignedIn,
}: {
  reason: SignInReason;
  onSignedIn: (session: EditorSession) => void;
}) {
  const { t } = useI18n();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [tenants, setTenants] = useState<{ tenantId: number; company: string }[] | null>(null);
  const [tenantId, setTenantId] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const result = await signIn({
        username: username.trim(),
        password,
        ...(tenants && tenantId !== null ? { tenantId } : {}),
      });
      if (result.status === 'choose-tenant') {
        setTenants(result.tenants);
        setTenantId(result.tenants[0]?.tenantId ?? null);
        return;
      }
      const { token, tenantId: signedTenant, company } = result;
      onSignedIn({ token, username: result.username, tenantId: signedTenant, company });
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.code === 'too-many-sign-ins'
          ? t('signIn.tooMany', { seconds: error.message })
          : error instanceof ApiError && error.code === 'sign-in-failed'
            ? t('signIn.failed')
            : error instanceof Error
              ? error.message
              : String(error),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="center-screen">
      <form
        className="sign-in-form"
        aria-labelledby="sign-in-title"
        onSubmit={(event) => void submit(event)}
      >
        <div className="sign-in-head">
          <h2 id="sign-in-title">{t('signIn.title')}</h2>
          <LanguageSwitch />
        </div>
        <p className="muted">{t('signIn.text')}</p>
        {reason && !problem ? (
          <p className="notice" role="status" data-testid="sign-in-reason">
            {t(REASONS[reason])}
          </p>
        ) : null}
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        <Field
          label={t('signIn.username')}
          value={username}
          onChange={(value) => {
            setUsername(value);
            setTenants(null);
          }}
          autoComplete="username"
          autoFocus
          required
        />
        <Field
          label={t('signIn.password')}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          required
        />
        {tenants ? (
          <div className="field">
            <label htmlFor="sign-in-tenant">{t('signIn.tenant')}</label>
            <p className="muted">{t('signIn.chooseTenant')}</p>
            <select
              id="sign-in-tenant"
              value={tenantId ?? ''}
              onChange={(event) => setTenantId(Number(event.target.value))}
            >
              {tenants.map((tenant) => (
                <option key={tenant.tenantId} value={tenant.tenantId}>
                  #{tenant.tenantId} {tenant.company}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('signIn.submit')}
        </button>
      </form>
    </div>
  );
}
