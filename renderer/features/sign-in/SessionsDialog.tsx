import { useCallback, useEffect, useState } from 'react';
import type { ConsoleSession } from '../../../electron/service/console-types';
import type { ConsoleClient } from '../../api/console-client';
import { Dialog } from '../../components/Dialog';
import { DialogActions } from '../../components/DialogActions';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Spinner } from '../../components/Spinner';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

/**
 * The signed-in administrator's open sessions on a team server (docs/api.md, "Signing in"):
 * where and when each was opened, one ended, or all of them (this one too: `onSignedOut`).
 */
export function SessionsDialog({
  client,
  onClose,
  onSignedOut,
}: {
  client: ConsoleClient;
  onClose: () => void;
  onSignedOut: () => void;
}) {
  const { t, formatDateTime } = useI18n();
  const [sessions, setSessions] = useState<ConsoleSession[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const read = useCallback(async () => {
    try {
      setSessions((await client.call<{ sessions: ConsoleSession[] }>('GET', '/sessions')).sessions);
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [client]);

  useEffect(() => {
    void read();
  }, [read]);

  async function act(run: () => Promise<unknown>, after: () => void | Promise<void>) {
    setBusy(true);
    try {
      await run();
      await after();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  const end = (session: ConsoleSession) =>
    act(() => client.call('DELETE', `/sessions/${encodeURIComponent(session.sessionId)}`), read);
  const endAll = () => act(() => client.call('POST', '/sign-out-everywhere'), onSignedOut);

  return (
    <Dialog
      title={t('sessions.title')}
      onClose={onClose}
      wide
      testId="sessions-dialog"
      footer={
        <DialogActions
          leave="close"
          onClose={onClose}
          actionLabel={t('sessions.signOutEverywhere')}
          onAction={() => void endAll()}
          disabled={busy || sessions === null}
          danger
        />
      }
    >
      <p className="muted">{t('sessions.intro')}</p>
      {error ? (
        <ErrorMessage onRetry={() => void read()} retryLabel={t('common.retry')}>
          {describeError(t, error)}
        </ErrorMessage>
      ) : null}
      {sessions === null && !error ? <Spinner label={t('common.loading')} /> : null}
      {sessions ? (
        <table className="table" aria-label={t('sessions.title')}>
          <thead>
            <tr>
              <th>{t('sessions.signedInAt')}</th>
              <th>{t('sessions.lastSeenAt')}</th>
              <th>{t('sessions.address')}</th>
              <th>{t('sessions.browser')}</th>
              <th className="table-actions" aria-label={t('common.actions')} />
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.sessionId} data-testid="session-row">
                <td>{formatDateTime(session.signedInAt)}</td>
                <td>{formatDateTime(session.lastSeenAt)}</td>
                <td>{session.address}</td>
                <td className="muted" title={session.userAgent}>
                  {session.userAgent.length > 60
                    ? `${session.userAgent.slice(0, 59)}…`
                    : session.userAgent}
                </td>
                <td className="table-actions">
                  {session.current ? (
                    <span className="muted">{t('sessions.current')}</span>
                  ) : (
                    <button
                      type="button"
                      className="button button-small"
                      disabled={busy}
                      onClick={() => void end(session)}
                    >
                      {t('sessions.signOut')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Dialog>
  );
}
