import { useState } from 'react';
import { Field } from '../../components/Field';
import { describeProblem } from '../../i18n/describe-problem';
import type { Problem } from '../../api/problem';
import { useI18n } from '../../i18n/useI18n';
import { categoryNameProblem, typedNameProblem } from './category-problem';

/** A name and Add: makes a category (a name the robot has already is refused). */
export function NewCategoryForm({ onCreate }: { onCreate: (name: string) => Promise<unknown> }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const typed = typedNameProblem(name);
    if (typed) return setProblem(typed);
    setBusy(true);
    try {
      await onCreate(name.trim());
      setName('');
      setProblem(null);
    } catch (error) {
      setProblem(categoryNameProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="category-new"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Field
        label={t('categories.newName')}
        value={name}
        onChange={(value) => {
          setName(value);
          setProblem(null);
        }}
        error={problem ? describeProblem(t, problem) : null}
        autoFocus
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        + {t('categories.add')}
      </button>
    </form>
  );
}
