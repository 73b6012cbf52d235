/**
 * Whether a rule answers questions at a given time: switched off, switched on and inside its
 * validity window (from `effectBeignDate` to `effectEndDate`, both included, as the matcher
 * reads them), or switched on but before or after it. The service gives each rule its state now
 * (`state`); the try pane asks as of other times too.
 * @module
 */
import type { RuleState } from '../../../electron/service/console-types';

export type EffectiveState = RuleState;

export interface Windowed {
  active: boolean | null | undefined;
  effectBeignDate: string | null;
  effectEndDate: string | null;
}

export function effectiveState(rule: Windowed, nowMs: number): EffectiveState {
  if (rule.active === false) return 'inactive';
  const begin = rule.effectBeignDate ? Date.parse(rule.effectBeignDate) : NaN;
  const end = rule.effectEndDate ? Date.parse(rule.effectEndDate) : NaN;
  if (nowMs < begin) return 'scheduled';
  if (nowMs > end) return 'expired';
  return 'active';
}
