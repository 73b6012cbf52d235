import { useLayoutEffect, useState } from 'react';
import type { RefObject } from 'react';

/**
 * The inner width (without its scroll bar) of the element `selector` finds in `ref`, or of `ref`
 * itself, kept up to date as it is resized.
 */
export function useInnerWidth(ref: RefObject<HTMLElement | null>, selector?: string): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    const measure = () => {
      const target = (selector && root.querySelector<HTMLElement>(selector)) || root;
      setWidth(target.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(root);
    return () => observer.disconnect();
  }, [ref, selector]);
  return width;
}
