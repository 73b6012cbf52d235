import { useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { EmptyState } from '../../components/EmptyState';
import { SecretValue } from '../../components/SecretValue';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { CurlExample } from './CurlExample';
import { EditorAddressCard } from './EditorAddressCard';

/** Everything an application needs to call the API: address, credentials, robot secrets. */
export function ApiAccessPage() {
  const { t } = useI18n();
  const toasts = useToasts();
  const { workspace, client, reload } = useWorkspace();
  const { customer, baseUrl } = workspace;
  const [rotating, setRotating] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ tenantId: number; robot: ConsoleRobot } | null>(null);

  const rotate = async (tenantId: number, robot: ConsoleRobot) => {
    setRotating(`${tenantId}/${robot.robotId}`);
    try {
      await client.rotateSecret({ tenantId, robotId: robot.robotId });
      await reload();
      toasts.show(t('api.rotated', { name: robot.name }));
    } catch (error) {
      toasts.show(describeError(t, error), { tone: 'error' });
    } finally {
      setRotating(null);
    }
  };

  return (
    <div className="page" data-testid="api-page">
      <header className="page-header">
        <div>
          <h1>{t('api.title')}</h1>
          <p className="page-subtitle">{t('api.intro')}</p>
        </div>
      </header>
      <section className="card" aria-labelledby="credentials-title">
        <header className="card-header">
          <h2 id="credentials-title">{t('api.credentials')}</h2>
        </header>
        <dl className="details details-wide">
          <dt>{t('api.baseUrl')}</dt>
          <dd>
            <code>{baseUrl}</code>{' '}
            <CopyButton text={baseUrl} label={`${t('common.copy')} ${t('api.baseUrl')}`} />
          </dd>
          <dt>customerId</dt>
          <dd>
            <code>{customer.customerId}</code>{' '}
            <CopyButton text={customer.customerId} label={`${t('common.copy')} customerId`} />
          </dd>
          <dt>adminkey</dt>
          <dd>
            <SecretValue label="adminkey" value={customer.adminKey} />
          </dd>
          <dt>adminsecret</dt>
          <dd>
            <SecretValue label="adminsecret" value={customer.adminSecret} />
          </dd>
        </dl>
      </section>
      <EditorAddressCard />
      {workspace.tenants.length === 0 ? (
        <EmptyState title={t('api.noRobots')}>{t('api.noRobotsText')}</EmptyState>
      ) : (
        <section className="card" aria-labelledby="robot-secrets-title">
          <header className="card-header">
            <h2 id="robot-secrets-title">{t('api.robotSecrets')}</h2>
          </header>
          <table className="table">
            <thead>
              <tr>
                <th>{t('api.tenant')}</th>
                <th>{t('robot.name')}</th>
                <th>robotId</th>
                <th>robotsecret</th>
                <th className="table-actions" aria-label={t('common.actions')} />
              </tr>
            </thead>
            <tbody>
              {workspace.tenants.flatMap((tenant) =>
                tenant.robots.map((robot) => (
                  <tr key={`${tenant.tenantId}/${robot.robotId}`}>
                    <td>
                      {tenant.company} <span className="muted">#{tenant.tenantId}</span>
                    </td>
                    <td>{robot.name}</td>
                    <td>
                      <code>{robot.robotId}</code>
                    </td>
                    <td>
                      <SecretValue label={`robotsecret ${robot.name}`} value={robot.robotSecret} />
                    </td>
                    <td className="table-actions">
                      <button
                        type="button"
                        className="button button-small"
                        disabled={rotating === `${tenant.tenantId}/${robot.robotId}`}
                        onClick={() => setAsking({ tenantId: tenant.tenantId, robot })}
                      >
                        {t('api.rotate')}
                      </button>
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </section>
      )}
      <CurlExample />
      {asking ? (
        <ConfirmDialog
          title={t('api.rotate')}
          confirmLabel={t('api.rotate')}
          danger
          onConfirm={async () => rotate(asking.tenantId, asking.robot)}
          onClose={() => setAsking(null)}
        >
          <p>{t('api.rotateConfirm', { name: asking.robot.name })}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
