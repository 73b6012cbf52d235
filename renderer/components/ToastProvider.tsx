import { useCallback, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/useI18n';
import { ToastContext } from './toast-context';
import type { Toast, Toasts } from './toast-context';

const LIFETIME_MS = 6000;

/** Short messages at the bottom right; an error stays until dismissed. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback<Toasts['show']>(
    (message, options) => {
      const id = nextId.current++;
      const toast: Toast = {
        id,
        message,
        tone: options?.tone ?? 'info',
        ...(options?.action ? { action: options.action } : {}),
      };
      setToasts((list) => [...list.slice(-3), toast]);
      if (toast.tone !== 'error') window.setTimeout(() => dismiss(id), LIFETIME_MS);
    },
    [dismiss],
  );

  const value = useMemo(() => ({ show }), [show]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast-${toast.tone}`}
            role={toast.tone === 'error' ? 'alert' : 'status'}
          >
            <span>{toast.message}</span>
            {toast.action ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  toast.action?.run();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
            <button
              type="button"
              className="icon-button"
              aria-label={t('common.dismiss')}
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
