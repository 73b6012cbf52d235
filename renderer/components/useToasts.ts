import { useContext } from 'react';
import { ToastContext } from './toast-context';
import type { Toasts } from './toast-context';

export function useToasts(): Toasts {
  const toasts = useContext(ToastContext);
  if (!toasts) throw new Error('useToasts outside ToastProvider');
  return toasts;
}
