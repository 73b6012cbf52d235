import { useI18n } from '../../i18n/useI18n';
import { effectiveState } from './effective-state';
import type { EditableRule } from './grid-row';

/**
 * The Active switch of a rule, with what it means now: in effect, switched off, or switched on
 * but before or after its validity window.
 */
export function StatusCell({
  rule,
  now,
  tabIndex,
  onToggle,
}: {
  rule: EditableRule;
  now: number;
  tabIndex: number;
  onToggle: () => void;
}) {
  const { t, formatDateTime } = useI18n();
  const state = effectiveState(rule, now);
  const tip =
    state === 'scheduled'
      ? t('state.scheduledTip', { date: formatDateTime(rule.effectBeignDate) })
      : state === 'expired'
        ? t('state.expiredTip', { date: formatDateTime(rule.effectEndDate) })
        : t(state === 'active' ? 'state.activeTip' : 'state.inactiveTip');
  return (
    <span className={`cell-status state-${state}`} title={tip} data-state={state}>
      <input
        type="checkbox"
        checked={rule.active}
        tabIndex={tabIndex}
        aria-label={t('field.active')}
        onChange={onToggle}
      />
      <span className="state-label">{t(`state.${state}`)}</span>
    </span>
  );
}
