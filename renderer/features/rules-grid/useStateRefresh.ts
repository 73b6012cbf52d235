import { useEffect } from 'react';
import type { GridRow } from '../../lib/rules/grid-row';
import { nextStateChange } from './state-change';

/** The longest a browser timer can wait. */
const MAX_DELAY = 2 ** 31 - 1;
/** Margin for the clocks of the editor and the service. */
const SLACK_MS = 1000;

/**
 * Reads the rules on screen again when one of them changes state with time (a scheduled rule
 * starts, an active one expires): the grid shows the states the service computed when it read
 * them.
 */
export function useStateRefresh(rows: readonly GridRow[], refresh: () => void): void {
  useEffect(() => {
    const now = Date.now();
    const next = nextStateChange(rows, now);
    if (next === null) return;
    const timer = window.setTimeout(refresh, Math.min(MAX_DELAY, next - now + SLACK_MS));
    return () => window.clearTimeout(timer);
  }, [rows, refresh]);
}
