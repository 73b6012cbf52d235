import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_LAYOUT, moveColumn, normalizeLayout } from './column-layout';
import type { ColumnLayout, MovableColumn } from './column-layout';

const STORAGE_KEY = 'kb-studio.grid-columns';

function readLayout(): ColumnLayout {
  try {
    return normalizeLayout(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null'));
  } catch {
    return DEFAULT_LAYOUT;
  }
}

function storeLayout(layout: ColumnLayout): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(layout));
  } catch {
    // Storage full or denied: the layout lasts for this session.
  }
}

/** The column layout of the grid, remembered across sessions. */
export function useColumnLayout() {
  const [layout, setLayout] = useState<ColumnLayout>(readLayout);

  // A small JSON value: written on every change (a resize too), so nothing is lost on leaving.
  useEffect(() => storeLayout(layout), [layout]);

  const setHidden = useCallback((key: MovableColumn, hidden: boolean) => {
    setLayout((current) => ({
      ...current,
      hidden: hidden
        ? [...current.hidden.filter((k) => k !== key), key]
        : current.hidden.filter((k) => k !== key),
    }));
  }, []);

  const move = useCallback((source: string, target: string) => {
    setLayout((current) => moveColumn(current, source, target));
  }, []);

  const resize = useCallback((key: string, width: number) => {
    setLayout((current) => ({
      ...current,
      widths: { ...current.widths, [key]: Math.round(width) },
    }));
  }, []);

  const reset = useCallback(() => setLayout(DEFAULT_LAYOUT), []);

  return { layout, setHidden, move, resize, reset };
}
