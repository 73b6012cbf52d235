import { useCallback, useRef, useState } from 'react';
import type { TryResult } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { findSkippedRules } from './skipped-rules';
import type { SkippedRule } from './skipped-rules';
import { addToHistory, clearHistory, readHistory } from './try-history';

export interface TryOutcome {
  question: string;
  /** Asked as of this time (ISO 8601 with an offset); null: now. */
  asOf: string | null;
  answer: TryResult;
  /** Rules with this very phrasing that were not considered (switched off, out of window). */
  skipped: SkippedRule[];
}

export function useTryQuestion(client: ConsoleClient, ref: RobotRef) {
  const { tenantId, robotId } = ref;
  const [result, setResult] = useState<TryOutcome | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState(() => readHistory(tenantId, robotId));
  const asked = useRef(0);

  const ask = useCallback(
    async (question: string, asOf: string | null) => {
      const turn = ++asked.current;
      setBusy(true);
      setError(null);
      try {
        const robot = { tenantId, robotId };
        const [answer, skipped] = await Promise.all([
          client.tryQuestion(robot, question, asOf ?? undefined),
          // A hint: the answer stands without it.
          findSkippedRules(client, robot, question, asOf).catch(() => []),
        ]);
        if (turn !== asked.current) return;
        setResult({ question, asOf, answer, skipped });
        setHistory(addToHistory(tenantId, robotId, question));
      } catch (caught) {
        if (turn === asked.current) setError(caught);
      } finally {
        if (turn === asked.current) setBusy(false);
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
