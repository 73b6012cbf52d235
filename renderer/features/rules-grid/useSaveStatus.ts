import { useCallback, useRef, useState } from 'react';

/**
 * Writes in flight and the time of the last one that succeeded, for the save indicator; and a
 * wait for the writes in flight, so that an undo pressed right after an edit undoes that edit.
 */
export function useSaveStatus() {
  const [inFlight, setInFlight] = useState(0);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const writes = useRef(new Set<Promise<unknown>>());

  const track = useCallback(async <T>(write: () => Promise<T>): Promise<T> => {
    setInFlight((n) => n + 1);
    const run = write();
    writes.current.add(run);
    try {
      const result = await run;
      setSavedAt(Date.now());
      return result;
    } finally {
      writes.current.delete(run);
      setInFlight((n) => n - 1);
    }
  }, []);

  /** Resolves once no write is in flight and their callers have recorded what they did. */
  const settled = useCallback(async (): Promise<void> => {
    while (writes.current.size > 0) await Promise.allSettled([...writes.current]);
    // A macrotask: the callers' own continuations (their undo entries) run first.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }, []);

  return { saving: inFlight > 0, savedAt, track, settled };
}
