/**
 * Unsaved changes on a screen: while a guard is set, leaving it through the editor's own
 * navigation asks first, and closing or reloading the tab asks the browser's question.
 * @module
 */
import { useEffect } from 'react';

let guard: (() => boolean) | null = null;

/** True when the screen may be left (no guard, or the user agreed to lose the changes). */
export function mayLeave(): boolean {
  return guard ? guard() : true;
}

/** While `active`, asks `question` before the screen is left. */
export function useLeaveGuard(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return;
    const ask = () => window.confirm(question);
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    guard = ask;
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      if (guard === ask) guard = null;
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active, question]);
}
