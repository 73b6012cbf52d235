import { useCallback, useEffect, useState } from 'react';
import type { RefObject } from 'react';
import type { DataGridHandle } from 'react-data-grid';
import type { GridRow } from '../../lib/rules/grid-row';

const NAME_COLUMN = 2;
const HIGHLIGHT_MS = 2500;

/**
 * Brings a rule into view once the rows of the expected query hold it: scrolls to it, makes its
 * name cell active and highlights the row for a moment.
 */
export function useLocateRule(
  gridRef: RefObject<DataGridHandle | null>,
  rows: GridRow[],
  rowsKey: string,
  loading: boolean,
  onNotFound: () => void,
) {
  const [target, setTarget] = useState<{ ruleId: string; key: string } | null>(null);
  const [located, setLocated] = useState<string | null>(null);

  useEffect(() => {
    if (!target || target.key !== rowsKey) return;
    const rowIdx = rows.findIndex((row) => row.kind === 'rule' && row.key === target.ruleId);
    if (rowIdx < 0) {
      if (!loading) {
        setTarget(null);
        onNotFound();
      }
      return;
    }
    setTarget(null);
    setLocated(target.ruleId);
    const grid = gridRef.current;
    grid?.scrollToCell({ rowIdx, idx: NAME_COLUMN });
    grid?.setActivePosition({ rowIdx, idx: NAME_COLUMN }, { shouldFocus: true });
  }, [target, rows, rowsKey, loading, gridRef, onNotFound]);

  useEffect(() => {
    if (!located) return;
    const timer = window.setTimeout(() => setLocated(null), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [located]);

  const locate = useCallback((ruleId: string, key: string) => setTarget({ ruleId, key }), []);
  return { locate, located };
}
