import type { GridRow } from '../../lib/rules/grid-row';

/**
 * The next time a rule on screen enters or leaves its validity window (ms), or null: the state
 * the service gave it changes then.
 */
export function nextStateChange(rows: readonly GridRow[], now: number): number | null {
  let next = Infinity;
  for (const row of rows) {
    if (row.kind !== 'rule' || row.saved.active === false) continue;
    const begin = row.saved.effectBeignDate ? Date.parse(row.saved.effectBeignDate) : NaN;
    // The window includes its end: the rule expires just after it.
    const end = row.saved.effectEndDate ? Date.parse(row.saved.effectEndDate) + 1 : NaN;
    for (const time of [begin, end]) if (time > now && time < next) next = time;
  }
  return next === Infinity ? null : next;
}
