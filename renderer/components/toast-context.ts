import { createContext } from 'react';

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'error';
  action?: ToastAction;
}

export interface Toasts {
  show: (message: string, options?: { tone?: Toast['tone']; action?: ToastAction }) => void;
}

export const ToastContext = createContext<Toasts | null>(null);
