import type { ReactNode } from 'react';

export function ErrorMessage({
  children,
  onRetry,
  retryLabel,
}: {
  children: ReactNode;
  onRetry?: () => void;
  retryLabel?: string;
}) {
  return (
    <div className="error-message" role="alert">
      <span>{children}</span>
      {onRetry ? (
        <button type="button" className="button button-small" onClick={onRetry}>
          {retryLabel}
        </button>
      ) : null}
    </div>
  );
}
