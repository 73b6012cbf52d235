import { useId } from 'react';
import { describedBy, FieldMessage } from './FieldMessage';

/** A labelled multi-line text with its hint, or its error, under it. */
export function TextAreaField({
  label,
  value,
  onChange,
  error,
  hint,
  rows = 3,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
  hint?: string;
  rows?: number;
}) {
  const id = useId();
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
      <FieldMessage id={id} error={error} hint={hint} />
    </div>
  );
}
