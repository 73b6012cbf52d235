/** Under a field: its error when it has one, else its hint (ids for aria-describedby). */
export function FieldMessage({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | null | undefined;
  hint?: string | undefined;
}) {
  if (error) {
    return (
      <p className="field-error" id={`${id}-error`} role="alert">
        {error}
      </p>
    );
  }
  return hint ? (
    <p className="field-hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null;
}

/** The id a field's input is described by. */
export function describedBy(id: string, error?: string | null, hint?: string): string | undefined {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}
