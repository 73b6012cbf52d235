import { useCallback, useRef, useState } from 'react';

const LIMIT = 200;

/**
 * Undo and redo stacks of entries applied by `apply` (which talks to the service). One step at
 * a time: a second undo waits for the first to finish.
 */
export function useUndoRedo<E>(apply: (entry: E, direction: 'undo' | 'redo') => Promise<void>) {
  const stacks = useRef<{ undo: E[]; redo: E[]; busy: boolean }>({
    undo: [],
    redo: [],
    busy: false,
  });
  const [counts, setCounts] = useState({ undo: 0, redo: 0 });
  const applyRef = useRef(apply);
  applyRef.current = apply;

  const sync = useCallback(() => {
    const s = stacks.current;
    setCounts({ undo: s.undo.length, redo: s.redo.length });
  }, []);

  const push = useCallback(
    (entry: E) => {
      const s = stacks.current;
      s.undo = [...s.undo.slice(-(LIMIT - 1)), entry];
      s.redo = [];
      sync();
    },
    [sync],
  );

  const step = useCallback(
    async (direction: 'undo' | 'redo') => {
      const s = stacks.current;
      const from = direction === 'undo' ? s.undo : s.redo;
      const entry = from[from.length - 1];
      if (entry === undefined || s.busy) return;
      s.busy = true;
      try {
        await applyRef.current(entry, direction);
        from.pop();
        (direction === 'undo' ? s.redo : s.undo).push(entry);
      } finally {
        s.busy = false;
        sync();
      }
    },
    [sync],
  );

  const clear = useCallback(() => {
    stacks.current = { undo: [], redo: [], busy: false };
    sync();
  }, [sync]);

  return {
    push,
    undo: useCallback(() => step('undo'), [step]),
    redo: useCallback(() => step('redo'), [step]),
    clear,
    canUndo: counts.undo > 0,
    canRedo: counts.redo > 0,
    /** What undo and redo would apply next (their buttons' tooltips say it). */
    nextUndo: counts.undo > 0 ? stacks.current.undo.at(-1) : undefined,
    nextRedo: counts.redo > 0 ? stacks.current.redo.at(-1) : undefined,
  };
}
