import { useEffect, useRef } from 'react';

/**
 * Keyboard shortcuts on the window. Keys are written like `mod+z`, `mod+shift+z`, `alt+i`,
 * `delete`, `insert`, `f1`, `?` (`mod` is Ctrl, or ⌘ on macOS). Shortcuts marked `typing: false`
 * are skipped while the focus is in a text field or a cell editor.
 */
export type Hotkeys = Record<string, { run: () => void; typing?: boolean }>;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(target.type))
  );
}

export function keyOf(event: KeyboardEvent): string {
  const mac = navigator.platform.toLowerCase().includes('mac');
  const parts: string[] = [];
  if (mac ? event.metaKey : event.ctrlKey) parts.push('mod');
  if (event.altKey) parts.push('alt');
  if (event.shiftKey && event.key.length > 1) parts.push('shift');
  if (event.shiftKey && event.key.length === 1 && /[a-z]/i.test(event.key)) parts.push('shift');
  const key = event.code.startsWith('Key')
    ? event.code.slice(3).toLowerCase()
    : event.key.toLowerCase();
  parts.push(key);
  return parts.join('+');
}

export function useHotkeys(hotkeys: Hotkeys, enabled = true): void {
  const ref = useRef(hotkeys);
  ref.current = hotkeys;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const combo = keyOf(event);
      const hotkey = ref.current[combo];
      if (!hotkey) return;
      // A plain character typed on a grid cell starts editing it; it is not a shortcut there.
      if (combo.length === 1 && event.target instanceof Element && event.target.closest('.rdg')) {
        return;
      }
      if (hotkey.typing === false && isTyping(event.target)) return;
      if (document.querySelector('dialog[open]') && !hotkey.typing) return;
      event.preventDefault();
      hotkey.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
