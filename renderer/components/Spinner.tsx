/**
 * A busy indicator. `compact` shows the dot alone (the label is still read out and shown on
 * hover): for places where a label appearing and going would move what is around it.
 */
export function Spinner({ label, compact = false }: { label: string; compact?: boolean }) {
  return (
    <span className="spinner" role="status" aria-live="polite" title={compact ? label : undefined}>
      <span className="spinner-dot" aria-hidden="true" />
      {compact ? <span className="visually-hidden">{label}</span> : label}
    </span>
  );
}
