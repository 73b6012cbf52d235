import { useEffect, useState } from 'react';
import type { DeletedConsoleRule } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Spinner } from '../../components/Spinner';
import { toggled } from '../../components/toggled';
import { actorLabel } from '../../i18n/actor-label';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

/** The 30 days a deleted rule can be restored (the service purges it then). */
const GRACE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * A robot's deleted rules, most recent first: the ones picked go back to the grid at their old
 * place (`rules/restore`), for 30 days after their deletion.
 */
export function RuleTrashDialog({
  client,
  robotRef,
  robotName,
  onRestored,
  onClose,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  robotName: string;
  onRestored: (count: number) => void;
  onClose: () => void;
}) {
  const { t, formatDateTime } = useI18n();
  const [rules, setRules] = useState<DeletedConsoleRule[] | null>(null);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const { tenantId, robotId } = robotRef;

  useEffect(() => {
    let cancelled = false;
    client.ruleTrash({ tenantId, robotId }).then(
      ({ rules: deleted }) => {
        if (!cancelled) setRules(deleted);
      },
      (caught: unknown) => {
        if (!cancelled) setError(caught);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [client, tenantId, robotId]);

  const toggle = (ruleId: string, on: boolean) =>
    setPicked((current) => toggled(current, ruleId, on));

  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      const { restored } = await client.restoreRules({ tenantId, robotId }, [...picked]);
      onRestored(restored);
      onClose();
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('ruleTrash.title', { robot: robotName })}
      onClose={onClose}
      wide
      testId="rule-trash-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy || picked.size === 0}
            onClick={() => void restore()}
          >
            {t('ruleTrash.restore', { count: picked.size })}
          </button>
        </>
      }
    >
      <p className="form-intro category-intro">{t('ruleTrash.intro')}</p>
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      {rules === null && !error ? <Spinner label={t('common.loading')} /> : null}
      {rules !== null && rules.length === 0 ? <p>{t('ruleTrash.empty')}</p> : null}
      {rules !== null && rules.length > 0 ? (
        <div className="category-scroll">
          <table className="table" aria-label={t('ruleTrash.list')}>
            <thead>
              <tr>
                <th aria-label={t('categories.select')} />
                <th>{t('rules.col.ruleName')}</th>
                <th>{t('rules.col.questions')}</th>
                <th>{t('trash.deletedAt')}</th>
                <th>{t('ruleTrash.deletedBy')}</th>
                <th>{t('trash.purgeAfter')}</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.ruleId}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('ruleTrash.selectNamed', { name: rule.ruleName })}
                      checked={picked.has(rule.ruleId)}
                      onChange={(event) => toggle(rule.ruleId, event.target.checked)}
                    />
                  </td>
                  <td>{rule.ruleName}</td>
                  <td className="cell-text">{rule.questions[0] ?? ''}</td>
                  <td>{formatDateTime(rule.deletedAt)}</td>
                  <td>{actorLabel(t, rule.updatedBy)}</td>
                  <td>{formatDateTime(Date.parse(rule.deletedAt) + GRACE_MS)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Dialog>
  );
}
