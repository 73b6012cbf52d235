import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { ConsoleWorkspace } from '../../../electron/service/console-types';
import type { ConsoleClient } from '../../api/console-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Spinner } from '../../components/Spinner';
import { describeError } from '../../i18n/describe-problem';
import { withShownNames } from '../../i18n/robot-name';
import { useI18n } from '../../i18n/useI18n';
import { WorkspaceContext } from '../../lib/workspace/workspace-context';

/** Loads the workspace once, then on demand; children render only once it is there. */
export function WorkspaceProvider({
  client,
  children,
}: {
  client: ConsoleClient;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const [workspace, setWorkspace] = useState<ConsoleWorkspace | null>(null);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    try {
      setWorkspace(await client.workspace());
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [client]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // Robots as the editor shows them: the name registration gave, in the editor's language.
  const shown = useMemo(
    () =>
      workspace && {
        ...workspace,
        tenants: workspace.tenants.map((tenant) => ({
          ...tenant,
          robots: withShownNames(t, tenant.robots),
        })),
      },
    [workspace, t],
  );

  if (!shown) {
    return (
      <div className="center-screen">
        {error ? (
          <ErrorMessage onRetry={() => void reload()} retryLabel={t('common.retry')}>
            {t('workspace.loadFailed', { reason: describeError(t, error) })}
          </ErrorMessage>
        ) : (
          <Spinner label={t('common.loading')} />
        )}
      </div>
    );
  }
  return (
    <WorkspaceContext.Provider value={{ client, workspace: shown, reload }}>
      {children}
    </WorkspaceContext.Provider>
  );
}
