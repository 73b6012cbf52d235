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

/** One turn of the try pane's conversation: a question and the answer the customer got. */
export interface TryTurn {
  question: string;
  answer: string;
}

/** Turns of the conversation kept on screen. */
const TURNS_SHOWN = 6;

const newConversationId = () => `try-${Math.random().toString(36).slice(2, 12)}`;

export function useTryQuestion(client: ConsoleClient, ref: RobotRef) {
  const { tenantId, robotId } = ref;
  const [result, setResult] = useState<TryOutcome | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState(() => readHistory(tenantId, robotId));
  const asked = useRef(0);
  // The pane is one customer: a menu it was shown is followed up by its next question.
  const conversation = useRef(newConversationId());
  const [turns, setTurns] = useState<TryTurn[]>([]);

  const ask = useCallback(
    async (question: string, asOf: string | null) => {
      const turn = ++asked.current;
      setBusy(true);
      setError(null);
      try {
        const robot = { tenantId, robotId };
        const [answer, skipped] = await Promise.all([
          client.tryQuestion(robot, question, asOf ?? undefined, conversation.current),
          // A hint: the answer stands without it.
          findSkippedRules(client, robot, question, asOf).catch(() => []),
        ]);
        if (turn !== asked.current) return;
        setResult({ question, asOf, answer, skipped });
        setTurns((current) =>
          [...current, { question, answer: answer.result.answer }].slice(-TURNS_SHOWN),
        );
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

  /** Starts over as a new customer: no menu is open any more. */
  const newConversation = useCallback(() => {
    conversation.current = newConversationId();
    setTurns([]);
    setResult(null);
  }, []);

  return { result, error, busy, history, ask, clearHistory: clear, turns, newConversation };
}
