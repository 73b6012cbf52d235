import { useState } from 'react';
import type { ConsoleRobot, ConsoleUser } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { useI18n } from '../../i18n/useI18n';
import { DeleteRobotDialog } from '../trash/DeleteRobotDialog';
import { useDeleteWithUndo } from '../trash/useDeleteWithUndo';
import type { Route } from '../../lib/workspace/route';
import { RobotNameDialog } from './RobotNameDialog';
import { UserDialog } from './UserDialog';
import { findTenant, useWorkspace } from '../../lib/workspace/useWorkspace';

type Editing =
  | { kind: 'add-user' }
  | { kind: 'edit-user'; user: ConsoleUser }
  | { kind: 'add-robot' }
  | { kind: 'rename-robot'; robot: ConsoleRobot }
  | { kind: 'delete-user'; user: ConsoleUser }
  | { kind: 'delete-robot'; robot: ConsoleRobot }
  | { kind: 'delete-tenant' }
  | null;

/** One tenant: its details, administrators and robots. */
export function TenantPage({
  tenantId,
  navigate,
}: {
  tenantId: number;
  navigate: (route: Route) => void;
}) {
  const { t, formatDateTime, formatNumber } = useI18n();
  const state = useWorkspace();
  const tenant = findTenant(state, tenantId);
  const [editing, setEditing] = useState<Editing>(null);
  const deleteWithUndo = useDeleteWithUndo();
  const { client } = state;

  if (!tenant) {
    return (
      <EmptyState title={t('tenant.notFound')}>{t('tenant.notFoundText', { tenantId })}</EmptyState>
    );
  }

  return (
    <div className="page" data-testid="tenant-page">
      <header className="page-header">
        <div>
          <h1>{tenant.company}</h1>
          <p className="page-subtitle">
            {t('tenant.summary', {
              tenantId: tenant.tenantId,
              created: formatDateTime(tenant.createdAt),
            })}
          </p>
        </div>
        <button
          type="button"
          className="button button-danger"
          onClick={() => setEditing({ kind: 'delete-tenant' })}
        >
          {t('tenant.delete')}
        </button>
      </header>
      <dl className="details">
        <dt>{t('tenant.mail')}</dt>
        <dd>{tenant.mail}</dd>
        <dt>{t('tenant.phoneNumber')}</dt>
        <dd>{tenant.phoneNumber}</dd>
      </dl>

      <section className="card" aria-labelledby="admins-title">
        <header className="card-header">
          <h2 id="admins-title">{t('user.title')}</h2>
          <button type="button" className="button" onClick={() => setEditing({ kind: 'add-user' })}>
            + {t('user.add')}
          </button>
        </header>
        <table className="table" aria-label={t('user.title')}>
          <thead>
            <tr>
              <th>{t('user.username')}</th>
              <th>{t('user.role')}</th>
              <th className="table-actions" aria-label={t('common.actions')} />
            </tr>
          </thead>
          <tbody>
            {tenant.users.map((user) => (
              <tr key={user.userId}>
                <td>{user.username}</td>
                <td>{user.role === 'ADMIN' ? t('user.roleAdminName') : user.role}</td>
                <td className="table-actions">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('user.editNamed', { name: user.username })}
                    onClick={() => setEditing({ kind: 'edit-user', user })}
                  >
                    {t('common.edit')}
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('user.deleteNamed', { name: user.username })}
                    onClick={() => setEditing({ kind: 'delete-user', user })}
                  >
                    {t('common.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card" aria-labelledby="robots-title">
        <header className="card-header">
          <h2 id="robots-title">{t('robot.title')}</h2>
          <button
            type="button"
            className="button"
            onClick={() => setEditing({ kind: 'add-robot' })}
          >
            + {t('robot.create')}
          </button>
        </header>
        <table className="table" aria-label={t('robot.title')}>
          <thead>
            <tr>
              <th>{t('robot.name')}</th>
              <th>{t('robot.id')}</th>
              <th className="numeric">{t('robot.rules')}</th>
              <th className="table-actions" aria-label={t('common.actions')} />
            </tr>
          </thead>
          <tbody>
            {tenant.robots.map((robot) => (
              <tr key={robot.robotId}>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => navigate({ kind: 'robot', tenantId, robotId: robot.robotId })}
                  >
                    {robot.name}
                  </button>
                </td>
                <td>
                  <code>{robot.robotId}</code>
                </td>
                <td className="numeric">{formatNumber(robot.ruleCount)}</td>
                <td className="table-actions">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('robot.settingsNamed', { name: robot.name })}
                    onClick={() =>
                      navigate({ kind: 'robot-settings', tenantId, robotId: robot.robotId })
                    }
                  >
                    {t('robot.settings')}
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('robot.renameNamed', { name: robot.name })}
                    onClick={() => setEditing({ kind: 'rename-robot', robot })}
                  >
                    {t('robot.rename')}
                  </button>{' '}
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('robot.deleteNamed', { name: robot.name })}
                    onClick={() => setEditing({ kind: 'delete-robot', robot })}
                  >
                    {t('common.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {editing?.kind === 'add-user' ? (
        <UserDialog tenantId={tenantId} onClose={() => setEditing(null)} />
      ) : null}
      {editing?.kind === 'edit-user' ? (
        <UserDialog tenantId={tenantId} user={editing.user} onClose={() => setEditing(null)} />
      ) : null}
      {editing?.kind === 'add-robot' ? (
        <RobotNameDialog
          tenantId={tenantId}
          onClose={() => setEditing(null)}
          onCreated={(robotId) => navigate({ kind: 'robot', tenantId, robotId })}
        />
      ) : null}
      {editing?.kind === 'delete-user' ? (
        <ConfirmDialog
          title={t('user.deleteTitle', { name: editing.user.username })}
          confirmLabel={t('user.deleteConfirm')}
          danger
          onClose={() => setEditing(null)}
          onConfirm={() =>
            deleteWithUndo({
              remove: () => client.deleteUser(tenantId, editing.user.userId),
              restore: () => client.restoreUser(tenantId, editing.user.userId),
              deleted: t('user.deleted', { name: editing.user.username }),
              restored: t('trash.restored', { name: editing.user.username }),
            })
          }
        >
          <p>{t('user.deleteText')}</p>
          <p>{t('trash.keptText')}</p>
        </ConfirmDialog>
      ) : null}
      {editing?.kind === 'delete-robot' ? (
        <DeleteRobotDialog
          tenantId={tenantId}
          robot={editing.robot}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {editing?.kind === 'delete-tenant' ? (
        <ConfirmDialog
          title={t('tenant.deleteTitle', { name: tenant.company })}
          confirmLabel={t('tenant.deleteConfirm')}
          danger
          onClose={() => setEditing(null)}
          onConfirm={async () => {
            await deleteWithUndo({
              remove: () => client.deleteTenant(tenantId),
              restore: () => client.restoreTenant(tenantId),
              deleted: t('tenant.deleted', { name: tenant.company }),
              restored: t('trash.restored', { name: tenant.company }),
            });
            navigate({ kind: 'home' });
          }}
        >
          <p>{t('tenant.deleteText')}</p>
          <p>{t('trash.keptText')}</p>
        </ConfirmDialog>
      ) : null}
      {editing?.kind === 'rename-robot' ? (
        <RobotNameDialog
          tenantId={tenantId}
          robot={editing.robot}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
