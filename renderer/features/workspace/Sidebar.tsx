import { QuestionLogLinks } from '../question-log/QuestionLogLinks';
import type { Route } from '../../lib/workspace/route';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

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
  const { workspace } = useWorkspace();
  const onRobot =
    route.kind === 'robot' ||
    route.kind === 'robot-settings' ||
    route.kind === 'robot-inbox' ||
    route.kind === 'robot-dashboard' ||
    route.kind === 'robot-publishing';
  const activeTenant = route.kind === 'tenant' || onRobot ? route.tenantId : null;
  const activeRobot = onRobot ? route.robotId : null;

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
                          className={
                            route.kind === 'robot-publishing'
                              ? 'tree-settings active'
                              : 'tree-settings'
                          }
                          onClick={() => navigate({ kind: 'robot-publishing', ...ref })}
                        >
                          {t('robot.publishing')}
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
