import { useCallback, useState } from 'react';
import type { FieldCheck } from '../../api/field-check';
import { ApiError } from '../../api/api-error';
import { describeError, describeProblem } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

/**
 * State of a small form: values, live errors once a field was touched (or a submit tried), and
 * the error of the last submit placed next to the field the server named.
 */
export function useForm<K extends string>(
  initial: Record<K, string>,
  checks: Partial<Record<K, FieldCheck>>,
  /** Fields left empty that are not sent (and so not checked), e.g. an unchanged password. */
  optional: readonly NoInfer<K>[] = [],
) {
  const { locale, t } = useI18n();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<K, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const problemOf = useCallback(
    (key: K, value: string): string | null => {
      if (optional.includes(key) && value === '') return null;
      const problem = checks[key]?.(value);
      return problem ? describeProblem(locale, t, problem) : null;
    },
    [checks, locale, optional, t],
  );

  const errorOf = (key: K): string | null =>
    serverErrors[key] ?? (touched[key] ? problemOf(key, values[key]) : null);

  const set = (key: K, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setTouched((current) => ({ ...current, [key]: true }));
    setServerErrors((current) => ({ ...current, [key]: undefined }));
  };

  /** Checks every field; when all are valid, runs `action` and maps its failure to a field. */
  const submit = async (action: (values: Record<K, string>) => Promise<void>) => {
    const keys = Object.keys(values) as K[];
    setTouched(Object.fromEntries(keys.map((key) => [key, true])) as Record<K, boolean>);
    if (keys.some((key) => problemOf(key, values[key]) !== null)) return;
    setBusy(true);
    setFormError(null);
    try {
      await action(values);
    } catch (caught) {
      const message = describeError(locale, t, caught);
      const field = caught instanceof ApiError ? fieldOf(caught, keys) : undefined;
      if (field) setServerErrors((current) => ({ ...current, [field]: message }));
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  };

  return { values, set, errorOf, submit, busy, formError };
}

function fieldOf<K extends string>(error: ApiError, keys: readonly K[]): K | undefined {
  if (error.code === 'username-taken') return keys.find((key) => key === 'username');
  return keys.find((key) => key === error.field);
}
