import { useId, useState } from 'react';
import { useI18n } from '../../i18n/useI18n';

export interface TrashItem {
  key: string;
  name: string;
  /** The company of the tenant it belongs to (robots and administrators). */
  tenant?: string;
  deletedAt: string;
  purgeAfter: string;
  restore: () => Promise<unknown>;
}

/** One kind of deleted thing: name, tenant, when deleted, until when restorable. */
export function TrashTable({
  title,
  items,
  onRestore,
}: {
  title: string;
  items: readonly TrashItem[];
  onRestore: (item: TrashItem) => Promise<void>;
}) {
  const { t, formatDateTime } = useI18n();
  const titleId = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const withTenant = items.some((item) => item.tenant !== undefined);
  return (
    <section className="card" aria-labelledby={titleId}>
      <header className="card-header">
        <h2 id={titleId}>{title}</h2>
      </header>
      <table className="table" aria-label={title}>
        <thead>
          <tr>
            <th>{t('trash.name')}</th>
            {withTenant ? <th>{t('trash.tenant')}</th> : null}
            <th>{t('trash.deletedAt')}</th>
            <th>{t('trash.purgeAfter')}</th>
            <th className="table-actions" aria-label={t('common.actions')} />
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.key}>
              <td>{item.name}</td>
              {withTenant ? <td>{item.tenant}</td> : null}
              <td>{formatDateTime(item.deletedAt)}</td>
              <td>{formatDateTime(item.purgeAfter)}</td>
              <td className="table-actions">
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('trash.restoreNamed', { name: item.name })}
                  disabled={busy !== null}
                  onClick={() => {
                    setBusy(item.key);
                    void onRestore(item).finally(() => setBusy(null));
                  }}
                >
                  {t('trash.restore')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
