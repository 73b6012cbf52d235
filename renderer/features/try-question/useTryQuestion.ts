import { useCallback, useState } from 'react';
import type { TryResult } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { addToHistory, clearHistory, readHistory } from './try-history';

export function useTryQuestion(client: ConsoleClient, ref: RobotRef) {
  const { tenantId, robotId } = ref;
  const [result, setResult] = useState<{ question: string; answer: TryResult } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState(() => readHistory(tenantId, robotId));

  const ask = useCallback(
    async (question: string) => {
      setBusy(true);
      setError(null);
      try {
        const answer = await client.tryQuestion({ tenantId, robotId }, question);
        setResult({ question, answer });
        setHistory(addToHistory(tenantId, robotId, question));
      } catch (caught) {
        setError(caught);
      } finally {
        setBusy(false);
      }
    },
    [client, tenantId, robotId],
  );

  const clear = useCallback(() => {
    clearHistory(tenantId, robotId);
    setHistory([]);
  }, [tenantId, robotId]);

  return { result, error, busy, history, ask, clearHistory: clear };
}
