import { useCallback, useEffect, useRef, useState } from 'react';
import type { RobotCollisions } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { collisionsByRule } from './collision-index';
import type { CollisionsByRule } from './collision-index';

export interface CollisionCheck {
  /** The last finished check; null until the first one is back. */
  report: RobotCollisions | null;
  byRule: CollisionsByRule;
  /** A check is under way, or waits for the edits to settle: the report may be behind. */
  computing: boolean;
  failed: boolean;
}

/**
 * After the last edit, the check waits this long before it runs again: a run asks every
 * phrasing of the robot (seconds on a large one), so typing in the grid must not start runs.
 */
export const RECHECK_AFTER_MS = 2500;
/**
 * A failed check (the service busy, a request cut) is tried again by itself, later each time, a
 * few times in a row: the ⚠ otherwise stayed until the next edit, and an import is followed by
 * no edit.
 */
export const RETRY_AFTER_MS = [5_000, 15_000, 45_000];

const EMPTY: CollisionsByRule = new Map();
const NO_CHECK = { report: null, byRule: EMPTY, failed: false };

/**
 * The robot's collision check, run when the view opens and again after edits (`version` counts
 * them), one run at a time (edits during a run ask for one more); the previous report stays on
 * screen meanwhile.
 */
export function useCollisions(
  client: ConsoleClient,
  ref: RobotRef,
  version: number,
): CollisionCheck {
  const key = `${ref.tenantId}/${ref.robotId}`;
  const [state, setState] = useState<Omit<CollisionCheck, 'computing'> & { key: string }>({
    ...NO_CHECK,
    key,
  });
  const [running, setRunning] = useState(false);
  const [waiting, setWaiting] = useState(true);
  const live = useRef({ ref, mounted: true, busy: false, again: false, failures: 0 });
  live.current.ref = ref;

  useEffect(() => {
    const l = live.current;
    l.mounted = true;
    return () => {
      l.mounted = false;
    };
  }, []);

  const run = useCallback(() => {
    const l = live.current;
    if (l.busy) {
      l.again = true;
      return;
    }
    l.busy = true;
    l.again = false;
    setRunning(true);
    const asked = l.ref;
    const askedKey = `${asked.tenantId}/${asked.robotId}`;
    client
      .collisions(asked)
      .then(
        (report) => {
          l.failures = 0;
          if (l.mounted)
            setState({ report, byRule: collisionsByRule(report), failed: false, key: askedKey });
        },
        () => {
          // A hint, not the grid: a failed run keeps the last report; the next edit, or the
          // retry, tries again.
          const retryAfter = RETRY_AFTER_MS[l.failures];
          l.failures += 1;
          if (!l.mounted) return;
          setState((s) => ({ ...s, failed: true }));
          if (retryAfter !== undefined)
            window.setTimeout(() => {
              const now = `${l.ref.tenantId}/${l.ref.robotId}`;
              if (l.mounted && now === askedKey) run();
            }, retryAfter);
        },
      )
      .finally(() => {
        l.busy = false;
        if (!l.mounted) return;
        if (l.again) run();
        else setRunning(false);
      });
  }, [client]);

  useEffect(() => {
    live.current.failures = 0;
  }, [key]);

  useEffect(() => {
    setWaiting(true);
    const timer = window.setTimeout(
      () => {
        setWaiting(false);
        run();
      },
      version === 0 ? 0 : RECHECK_AFTER_MS,
    );
    return () => window.clearTimeout(timer);
  }, [run, key, version]);

  // Another robot's report is not shown while this one's is computed.
  const shown = state.key === key ? state : { ...NO_CHECK, key };
  return {
    report: shown.report,
    byRule: shown.byRule,
    failed: shown.failed,
    computing: running || waiting,
  };
}
