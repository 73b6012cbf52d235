import { useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * A cell editor that needs more room than the cell: a panel over the cell, rendered in a portal
 * (React events still reach the grid's cell, so a click inside does not close the editor).
 */
export function PopoverEditor({
  children,
  width = 420,
  label,
}: {
  children: ReactNode;
  width?: number;
  label: string;
}) {
  const anchor = useRef<HTMLSpanElement>(null);
  const [position, setPosition] = useState<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const cell = anchor.current?.parentElement;
    if (!cell) return;
    const rect = cell.getBoundingClientRect();
    const left = Math.max(8, Math.min(rect.left, window.innerWidth - width - 8));
    const top = Math.max(8, Math.min(rect.top, window.innerHeight - 360));
    setPosition({ left, top });
  }, [width]);

  return (
    <>
      <span ref={anchor} className="popover-anchor" />
      {position
        ? createPortal(
            <div
              className="cell-popover"
              role="dialog"
              aria-label={label}
              style={{ left: position.left, top: position.top, width }}
            >
              {children}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
