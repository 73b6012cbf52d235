import type { TryCandidate } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import type { RuleCollision } from '../collisions/collision-index';
import { describeCollision } from '../collisions/describe-collision';
import type { CollisionCheck } from '../collisions/useCollisions';

/** Candidates looked at: the answer's rule first, then the runners-up the editor sees. */
const CANDIDATES_CHECKED = 5;

/**
 * Says when the rule that answered, or a close candidate, is in a collision: the likely reason
 * for a surprising answer. From the last check (a run after edits is shown as under way).
 */
export function TryCollisions({
  candidates,
  check,
  onOpenRule,
}: {
  candidates: readonly TryCandidate[];
  check: CollisionCheck;
  onOpenRule: (ruleId: string) => void;
}) {
  const { t } = useI18n();
  // Each finding once, though both of its rules are candidates.
  const findings = new Map<string, RuleCollision>();
  for (const candidate of candidates.slice(0, CANDIDATES_CHECKED)) {
    for (const collision of check.byRule.get(candidate.ruleId) ?? []) {
      if (!findings.has(collision.finding)) findings.set(collision.finding, collision);
    }
  }
  if (findings.size === 0) {
    return check.computing && check.report === null ? (
      <p className="hint">{t('conflicts.checking')}</p>
    ) : null;
  }
  return (
    <section
      className="try-collisions"
      aria-label={t('try.collisions')}
      data-testid="try-collisions"
    >
      <h3>
        ⇄ {t('try.collisions')}
        {check.computing ? <span className="hint"> · {t('conflicts.checking')}</span> : null}
      </h3>
      <ul>
        {[...findings.values()].map((collision) => (
          <li key={collision.finding}>
            {describeCollision(t, collision)}{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => onOpenRule(collision.otherRuleId)}
            >
              {t('conflicts.open', { rule: collision.otherRuleName })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
