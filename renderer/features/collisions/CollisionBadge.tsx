import { useI18n } from '../../i18n/useI18n';
import type { RuleCollision } from './collision-index';
import { describeCollision } from './describe-collision';

/** Sentences in the tooltip; the dialog lists them all. */
const TOOLTIP_MAX = 5;

/** The marker of a rule in a collision: its sentences in the tooltip, the dialog on a click. */
export function CollisionBadge({
  collisions,
  onOpen,
}: {
  collisions: readonly RuleCollision[];
  onOpen: () => void;
}) {
  const { t } = useI18n();
  const lines = collisions.slice(0, TOOLTIP_MAX).map((c) => describeCollision(t, c.finding));
  if (collisions.length > TOOLTIP_MAX) lines.push('…');
  const label = t('conflicts.badge', { count: collisions.length });
  return (
    <button
      type="button"
      className="badge badge-warn collision-badge"
      title={`${label}\n${lines.join('\n')}`}
      aria-label={label}
      data-testid="collision-badge"
      // The grid moves its active cell on a mouse down; the click is the badge's own.
      onMouseDown={(event) => event.stopPropagation()}
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
    >
      ⇄
    </button>
  );
}
