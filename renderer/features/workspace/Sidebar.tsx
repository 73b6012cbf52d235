import { useMemo } from 'react';
import { QuestionLogLinks } from '../question-log/QuestionLogLinks';
import type { Route } from '../../lib/workspace/route';
import { useI18n } from '../../i18n/useI18n';
import { useUnpublished } from '../../lib/workspace/useUnpublished';
import { findRobot, useWorkspace } from '../../lib/workspace/useWorkspace';

/** Tenants and their robots; the API access page; registering a tenant. */
export function Sidebar({
  route,
  navigate,
  onRegister,
}: {
  route: Route;
  navigate: (route: Route) => void;
  onRegister: () => void;
}) {
  const { t, formatNumber } = useI18n();
  const state = useWorkspace();
  const { workspace, client } = state;
  const onRobot =
    route.kind === 'robot' ||
    route.kind === 'robot-settings' ||
    route.kind === 'robot-inbox' ||
    route.kind === 'robot-dashboard' ||
    route.kind === 'robot-publishing';
  const activeTenant = route.kind === 'tenant' || onRobot ? route.tenantId : null;
  const activeRobot = onRobot ? route.robotId : null;
  // The open robot's unpublished changes, counted on its publishing link (review mode), read
  // again whenever the workspace is (after every change of rules) and on every move.
  const refresh = useMemo(() => ({ workspace, route }), [workspace, route]);
  const open =
    activeTenant !== null && activeRobot !== null
      ? findRobot(state, activeTenant, activeRobot)
      : undefined;
  const unpublished = useUnpublished(
    client,
    { tenantId: activeTenant ?? 0, robotId: activeRobot ?? '' },
    open?.settings.publishMode === 'review',
    refresh,
  );
  const pending = unpublished?.changes.length ?? 0;

  return (
    <nav className="sidebar" aria-label={t('sidebar.label')}>
      <div className="sidebar-section-title">
        <span>{t('sidebar.tenants')}</span>
        <button
          type="button"
          className="button button-small"
          onClick={onRegister}
          title={t('tenant.registerTitle')}
        >
          + {t('sidebar.register')}
        </button>
      </div>
      {workspace.tenants.length === 0 ? (
        <p className="sidebar-empty">{t('sidebar.noTenants')}</p>
      ) : (
        <ul className="tree" aria-label={t('sidebar.tenants')}>
          {workspace.tenants.map((tenant) => (
            <li key={tenant.tenantId}>
              <button
                type="button"
                className={
                  activeTenant === tenant.tenantId && !activeRobot
                    ? 'tree-tenant active'
                    : 'tree-tenant'
                }
                onClick={() => navigate({ kind: 'tenant', tenantId: tenant.tenantId })}
              >
                <span className="tree-label">{tenant.company}</span>
                <span className="tree-meta">#{tenant.tenantId}</span>
              </button>
              <ul>
                {tenant.robots.map((robot) => {
                  const ref = { tenantId: tenant.tenantId, robotId: robot.robotId };
                  const here = activeTenant === tenant.tenantId && activeRobot === robot.robotId;
                  return (
                    <li key={robot.robotId}>
                      <button
                        type="button"
                        aria-current={here && route.kind === 'robot' ? 'page' : undefined}
                        className={here ? 'tree-robot active' : 'tree-robot'}
                        onClick={() => navigate({ kind: 'robot', ...ref })}
                      >
                        <span className="tree-label">{robot.name}</span>
                        <span className="tree-meta">{formatNumber(robot.ruleCount)}</span>
                      </button>
                      {here ? (
                        <button
                          type="button"
                          aria-current={route.kind === 'robot-settings' ? 'page' : undefined}
                          aria-label={t('robot.settingsNamed', { name: robot.name })}
                          className={
                            route.kind === 'robot-settings'
                              ? 'tree-settings active'
                              : 'tree-settings'
                          }
                          onClick={() => navigate({ kind: 'robot-settings', ...ref })}
                        >
                          {t('robot.settings')}
                        </button>
                      ) : null}
                      {here ? (
                        <QuestionLogLinks route={route} navigate={navigate} robot={ref} />
                      ) : null}
                      {here ? (
                        <button
                          type="button"
                          aria-current={route.kind === 'robot-publishing' ? 'page' : undefined}
                          aria-label={
                            pending > 0
                              ? `${t('robot.publishing')} · ${t('publishing.unpublishedCount', { count: pending })}`
                              : undefined
                          }
                          className={
                            route.kind === 'robot-publishing'
                              ? 'tree-settings active'
                              : 'tree-settings'
                          }
                          onClick={() => navigate({ kind: 'robot-publishing', ...ref })}
                        >
                          {t('robot.publishing')}
                          {pending > 0 && unpublished ? (
                            <span
                              className="badge badge-new tree-count"
                              title={t('publishing.unpublishedCount', { count: pending })}
                              data-testid="unpublished-count"
                            >
                              {formatNumber(pending)}
                              {unpublished.more ? '+' : ''}
                            </span>
                          ) : null}
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <div className="sidebar-footer">
        <button
          type="button"
          className={route.kind === 'api' ? 'sidebar-link active' : 'sidebar-link'}
          onClick={() => navigate({ kind: 'api' })}
        >
          {t('api.title')}
        </button>
        <button
          type="button"
          className={route.kind === 'trash' ? 'sidebar-link active' : 'sidebar-link'}
          onClick={() => navigate({ kind: 'trash' })}
        >
          {t('trash.open')}
        </button>
      </div>
    </nav>
  );
}
