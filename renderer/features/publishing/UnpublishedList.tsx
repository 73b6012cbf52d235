import type { UnpublishedChange } from '../../../electron/service/publishing-types';
import { useI18n } from '../../i18n/useI18n';

/** Changes listed before "…and N more". */
const SHOWN = 30;

const BADGES = {
  added: ['badge badge-added', 'publishing.added'],
  changed: ['badge', 'publishing.changed'],
  removed: ['badge badge-warn', 'publishing.removed'],
} as const;

/** The draft's unpublished changes, rule by rule, as a confirmation lists what it replaces. */
export function UnpublishedList({
  changes,
  more,
}: {
  changes: readonly UnpublishedChange[];
  /** The service listed only some: the rest is counted as "at least". */
  more: boolean;
}) {
  const { t } = useI18n();
  const rest = changes.length - SHOWN;
  return (
    <ul className="unpublished-list" data-testid="unpublished-list">
      {changes.slice(0, SHOWN).map((change) => {
        const [badge, label] = BADGES[change.change];
        return (
          <li key={change.ruleId}>
            <span className={badge}>{t(label)}</span> {change.ruleName}
          </li>
        );
      })}
      {rest > 0 || more ? (
        <li className="muted">
          {more
            ? t('publishing.andMoreAtLeast', { count: Math.max(rest, 0) + 1 })
            : t('publishing.andMore', { count: rest })}
        </li>
      ) : null}
    </ul>
  );
}
