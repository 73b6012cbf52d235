import { useCallback, useState } from 'react';
import type { FieldCheck } from '../../api/field-check';
import { describeProblem } from '../../i18n/describe-problem';
import type { Problem } from '../../api/problem';
import { problemsOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';

/**
 * State of a small form: values, live errors once a field was touched (or a submit tried), and
 * the error of the last submit placed next to the field the server named. Problems are kept as
 * such and said when shown, so a change of language changes them too.
 */
export function useForm<K extends string>(
  initial: Record<K, string>,
  checks: Partial<Record<K, FieldCheck>>,
  /** Fields left empty that are not sent (and so not checked), e.g. an unchanged password. */
  optional: readonly NoInfer<K>[] = [],
) {
  const { t } = useI18n();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<K, Problem>>>({});
  const [formError, setFormError] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const problemOf = useCallback(
    (key: K, value: string): Problem | null => {
      if (optional.includes(key) && value === '') return null;
      return checks[key]?.(value) ?? null;
    },
    [checks, optional],
  );

  const errorOf = (key: K): string | null => {
    const problem = serverErrors[key] ?? (touched[key] ? problemOf(key, values[key]) : null);
    return problem ? describeProblem(t, problem) : null;
  };

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
      // A body refused for several problems marks each field it names.
      const problems = problemsOfError(caught);
      const marked = problems.filter((problem) => keys.some((key) => key === problem.field));
      setServerErrors((current) => ({
        ...current,
        ...Object.fromEntries(marked.map((problem) => [problem.field, problem])),
      }));
      const unplaced = problems.find((problem) => !marked.includes(problem));
      if (unplaced) setFormError(unplaced);
    } finally {
      setBusy(false);
    }
  };

  return {
    values,
    set,
    errorOf,
    submit,
    busy,
    formError: formError ? describeProblem(t, formError) : null,
  };
}
