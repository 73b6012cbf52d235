/**
 * Unsaved changes on a screen: while a guard is set, leaving it through the editor's own
 * navigation asks first, in the editor's own dialog, and closing or reloading the tab asks the
 * browser's question.
 * @module
 */
import { useEffect, useState } from 'react';

let guard: ((proceed: () => void) => boolean) | null = null;

/**
 * True when the screen may be left now (no guard). Otherwise the screen asks, and `proceed`
 * leaves if the user agrees.
 */
export function mayLeave(proceed: () => void): boolean {
  return guard ? guard(proceed) : true;
}

export interface LeaveGuard {
  /** A leave waits for the user's answer: the screen shows its question. */
  asking: boolean;
  /** Leaves, losing the changes. */
  leave: () => void;
  /** Stays on the screen. */
  stay: () => void;
}

/** While `active`, leaving the screen waits for the user's answer (`asking`). */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const [pending, setPending] = useState<{ proceed: () => void } | null>(null);
  useEffect(() => {
    if (!active) return;
    const ask = (proceed: () => void) => {
      setPending({ proceed });
      return false;
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    guard = ask;
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      if (guard === ask) guard = null;
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active]);
  return {
    asking: pending !== null,
    leave: () => {
      setPending(null);
      pending?.proceed();
    },
    stay: () => setPending(null),
  };
}
