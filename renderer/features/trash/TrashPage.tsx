import { useCallback, useEffect, useState } from 'react';
import type { ConsoleTrash } from '../../../electron/service/console-types';
import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Spinner } from '../../components/Spinner';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { shownRobotName } from '../../i18n/robot-name';
import { useI18n } from '../../i18n/useI18n';
import { findTenant, useWorkspace } from '../../lib/workspace/useWorkspace';
import { TrashTable } from './TrashTable';
import type { TrashItem } from './TrashTable';

/**
 * Deleted tenants, robots and administrators, each restorable until it is purged (30 days after
 * its deletion). Deleted rules are in their robot's own trash (the rules view).
 */
export function TrashPage() {
  const { t } = useI18n();
  const toasts = useToasts();
  const state = useWorkspace();
  const { client, reload } = state;
  const [trash, setTrash] = useState<ConsoleTrash | null>(null);
  const [error, setError] = useState<unknown>(null);

  const read = useCallback(async () => {
    try {
      setTrash(await client.trash());
      setError(null);
    } catch (caught) {
      setError(caught);
    }
  }, [client]);

  useEffect(() => {
    void read();
  }, [read]);

  const restore = async (item: TrashItem) => {
    try {
      await item.restore();
      toasts.show(t('trash.restored', { name: item.name }));
    } catch (caught) {
      toasts.show(t('trash.restoreFailed', { reason: describeError(t, caught) }), {
        tone: 'error',
      });
    }
    await Promise.all([read(), reload()]);
  };

  const company = (tenantId: number) => findTenant(state, tenantId)?.company ?? `#${tenantId}`;
  const tenants: TrashItem[] = (trash?.tenants ?? []).map((item) => ({
    key: `t${item.tenantId}`,
    name: item.company,
    deletedAt: item.deletedAt,
    purgeAfter: item.purgeAfter,
    restore: () => client.restoreTenant(item.tenantId),
  }));
  const robots: TrashItem[] = (trash?.robots ?? []).map((item) => ({
    key: `r${item.tenantId}/${item.robotId}`,
    name: shownRobotName(t, item),
    tenant: company(item.tenantId),
    deletedAt: item.deletedAt,
    purgeAfter: item.purgeAfter,
    restore: () => client.restoreRobot(item),
  }));
  const users: TrashItem[] = (trash?.users ?? []).map((item) => ({
    key: `u${item.userId}`,
    name: item.username,
    tenant: company(item.tenantId),
    deletedAt: item.deletedAt,
    purgeAfter: item.purgeAfter,
    restore: () => client.restoreUser(item.tenantId, item.userId),
  }));
  const empty = tenants.length + robots.length + users.length === 0;

  return (
    <div className="page" data-testid="trash-page">
      <header className="page-header">
        <div>
          <h1>{t('trash.title')}</h1>
          <p className="page-subtitle">{t('trash.intro')}</p>
        </div>
      </header>
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      {trash === null && !error ? <Spinner label={t('common.loading')} /> : null}
      {trash !== null && empty ? <EmptyState title={t('trash.empty')} /> : null}
      {tenants.length > 0 ? (
        <TrashTable title={t('trash.tenants')} items={tenants} onRestore={restore} />
      ) : null}
      {robots.length > 0 ? (
        <TrashTable title={t('trash.robots')} items={robots} onRestore={restore} />
      ) : null}
      {users.length > 0 ? (
        <TrashTable title={t('trash.users')} items={users} onRestore={restore} />
      ) : null}
    </div>
  );
}
