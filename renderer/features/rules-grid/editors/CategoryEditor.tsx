import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { RenderEditCellProps } from 'react-data-grid';
import type { ConsoleCategory } from '../../../../electron/service/console-types';
import { describeError, describeProblem } from '../../../i18n/describe-problem';
import { useI18n } from '../../../i18n/useI18n';
import type { EditableRow } from '../../../lib/rules/grid-row';
import { checkCategoryName } from '../../../lib/rules/rule-checks';
import { PopoverEditor } from './PopoverEditor';

type Option =
  | { kind: 'none' }
  | { kind: 'category'; category: ConsoleCategory }
  | { kind: 'create'; name: string };

/** What the list offers for `query`: none, the categories whose name has it, or a new one. */
function optionsFor(categories: readonly ConsoleCategory[], query: string): Option[] {
  const typed = query.trim();
  const needle = typed.toLocaleLowerCase();
  const found = categories.filter((c) => c.name.toLocaleLowerCase().includes(needle));
  const exact = categories.some((c) => c.name.trim() === typed);
  return [
    ...(typed === '' ? [{ kind: 'none' } as const] : []),
    ...found.map((category) => ({ kind: 'category', category }) as const),
    ...(typed !== '' && !exact ? [{ kind: 'create', name: typed } as const] : []),
  ];
}

/**
 * The category of a rule, picked from the robot's categories (a combobox: type to narrow the
 * list, arrows and Enter to pick); a name that is no category yet is offered to be created.
 */
export function CategoryEditor({
  row,
  onRowChange,
  categories,
  onCreate,
}: RenderEditCellProps<EditableRow> & {
  categories: readonly ConsoleCategory[];
  onCreate: (name: string) => Promise<ConsoleCategory>;
}) {
  const { t } = useI18n();
  const id = useId();
  const [query, setQuery] = useState('');
  const options = optionsFor(categories, query);
  const current = options.findIndex((option) =>
    option.kind === 'none'
      ? row.rule.ruleCategoryId === ''
      : option.kind === 'category' && option.category.categoryId === row.rule.ruleCategoryId,
  );
  const [active, setActive] = useState(Math.max(0, current));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const activeIndex = Math.min(active, options.length - 1);

  const pick = (categoryId: string) =>
    onRowChange({ ...row, rule: { ...row.rule, ruleCategoryId: categoryId } }, true);

  const choose = async (option: Option | undefined) => {
    if (!option || busy) return;
    if (option.kind === 'none') return pick('');
    if (option.kind === 'category') return pick(option.category.categoryId);
    const problem = checkCategoryName(option.name);
    if (problem) {
      setError(describeProblem(t, { ...problem, field: 'categoryName' }));
      return;
    }
    setBusy(true);
    try {
      pick((await onCreate(option.name)).categoryId);
    } catch (caught) {
      setError(describeError(t, caught));
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (move !== 0 && options.length > 0) {
      setActive((activeIndex + move + options.length) % options.length);
    } else if (event.key === 'Enter') {
      void choose(options[activeIndex]);
    } else {
      return;
    }
    // The grid would close the editor on Enter and move between cells on the arrows.
    event.preventDefault();
    event.stopPropagation();
  };

  const label = (option: Option) =>
    option.kind === 'none'
      ? t('rules.noCategory')
      : option.kind === 'category'
        ? option.category.name
        : t('categories.createNamed', { name: option.name });

  return (
    <PopoverEditor label={t('rules.col.category')} width={300}>
      <input
        className="popover-input"
        autoFocus
        role="combobox"
        aria-label={t('rules.col.category')}
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={options.length > 0 ? `${id}-${activeIndex}` : undefined}
        placeholder={t('categories.findOrCreate')}
        value={query}
        disabled={busy}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      <ul
        className="combo-list"
        id={`${id}-list`}
        role="listbox"
        aria-label={t('rules.col.category')}
      >
        {options.map((option, i) => (
          <li
            key={option.kind === 'category' ? option.category.categoryId : option.kind}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === activeIndex}
            className={`combo-option combo-${option.kind}${i === current ? ' combo-current' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => void choose(option)}
          >
            {label(option)}
            {option.kind === 'category' ? (
              <span className="muted">{option.category.rules}</span>
            ) : null}
          </li>
        ))}
      </ul>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </PopoverEditor>
  );
}
