/**
 * Whether a rule answers questions now: switched off, switched on and inside its validity window
 * (from `effectBeignDate` to `effectEndDate`, both included, as the matcher reads them), or
 * switched on but before or after it.
 * @module
 */
export type EffectiveState = 'active' | 'inactive' | 'scheduled' | 'expired';

export const EFFECTIVE_STATES: readonly EffectiveState[] = [
  'active',
  'inactive',
  'scheduled',
  'expired',
];

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
