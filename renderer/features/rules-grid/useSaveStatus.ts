import { useCallback, useState } from 'react';

/** Writes in flight and the time of the last one that succeeded, for the save indicator. */
export function useSaveStatus() {
  const [inFlight, setInFlight] = useState(0);
  const [savedAt, setSavedAt] = useState<number | null>(null);

  const track = useCallback(async <T>(write: () => Promise<T>): Promise<T> => {
    setInFlight((n) => n + 1);
    try {
      const result = await write();
      setSavedAt(Date.now());
      return result;
    } finally {
      setInFlight((n) => n - 1);
    }
  }, []);

  return { saving: inFlight > 0, savedAt, track };
}
