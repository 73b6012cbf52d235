import type { RuleState } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import type { EditableRow } from '../../lib/rules/grid-row';

/**
 * The Active switch of a rule, with what the service says it means now: in effect, switched off,
 * or switched on but before or after its validity window. A new rule has no state yet.
 */
export function StatusCell({
  row,
  tabIndex,
  onToggle,
}: {
  row: EditableRow;
  tabIndex: number;
  onToggle: () => void;
}) {
  const { t, formatDateTime } = useI18n();
  const saved = row.kind === 'rule' ? row.saved : null;
  const state: RuleState | null = saved?.state ?? null;
  const tip =
    state === 'scheduled'
      ? t('state.scheduledTip', { date: formatDateTime(saved?.effectBeignDate) })
      : state === 'expired'
        ? t('state.expiredTip', { date: formatDateTime(saved?.effectEndDate) })
        : state === 'active'
          ? t('state.activeTip')
          : state === 'inactive'
            ? t('state.inactiveTip')
            : undefined;
  return (
    <span
      className={state ? `cell-status state-${state}` : 'cell-status'}
      title={tip}
      data-state={state ?? undefined}
    >
      <input
        type="checkbox"
        checked={row.rule.active}
        tabIndex={tabIndex}
        aria-label={t('field.active')}
        onChange={onToggle}
      />
      {state ? <span className="state-label">{t(`state.${state}`)}</span> : null}
    </span>
  );
}
