import { useEffect, useState } from 'react';
import type { DuplicateQuestion } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';

export interface RobotFacts {
  duplicates: DuplicateQuestion[];
  /** Rule id → the phrasings it shares with other rules. */
  sharedByRule: ReadonlyMap<string, string[]>;
}

const EMPTY: RobotFacts = { duplicates: [], sharedByRule: new Map() };

/**
 * Phrasings a robot's rules share, read again (debounced) after every change:
 * `version` counts the changes.
 */
export function useRobotFacts(client: ConsoleClient, ref: RobotRef, version: number): RobotFacts {
  const [facts, setFacts] = useState<RobotFacts>(EMPTY);
  const { tenantId, robotId } = ref;

  useEffect(() => {
    let cancelled = false;
    const timer = window.setTimeout(
      () => {
        const robot = { tenantId, robotId };
        client.duplicates(robot).then(
          ({ duplicates }) => {
            if (cancelled) return;
            const sharedByRule = new Map<string, string[]>();
            for (const duplicate of duplicates) {
              for (const ruleId of duplicate.ruleIds) {
                sharedByRule.set(ruleId, [...(sharedByRule.get(ruleId) ?? []), duplicate.question]);
              }
            }
            setFacts({ duplicates, sharedByRule });
          },
          () => {
            // Facts are hints: the grid works without them, the next change reads them again.
          },
        );
      },
      version === 0 ? 0 : 600,
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [client, tenantId, robotId, version]);

  return facts;
}
