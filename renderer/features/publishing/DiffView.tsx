import type { DiffField, FieldChange, RulesDiff } from '../../../electron/service/publishing-types';
import type { MessageKey, Translate } from '../../i18n/types';
import { useI18n } from '../../i18n/useI18n';
import { wordDiff } from './word-diff';
import type { DiffPart } from './word-diff';

/** Each field as the editor's columns and dialogs name it. */
const FIELD_LABELS: Record<DiffField, MessageKey> = {
  ruleName: 'rules.col.ruleName',
  categoryId: 'rules.col.category',
  active: 'field.active',
  allowSimGen: 'conv.allowSimGen',
  effectBegin: 'rules.col.begin',
  effectEnd: 'rules.col.end',
  questions: 'rules.col.questions',
  answer: 'rules.col.answer',
  matchPolicy: 'sheet.policy',
  negativeKeywords: 'sheet.negative',
  menu: 'conv.menu',
};

/** Texts whose changed words are marked. */
const TEXTS: ReadonlySet<DiffField> = new Set(['ruleName', 'answer']);

const POLICIES: Record<string, MessageKey> = {
  similarity: 'conv.policy.similarity',
  exact: 'conv.policy.exact',
  contains: 'conv.policy.contains',
};

const isMenu = (value: unknown): value is { text: string }[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'object' && entry !== null);

/** A field's value in words: names for ids, yes and no, the menu's texts. */
function shown(
  t: Translate,
  field: DiffField,
  value: unknown,
  categoryName: (id: string) => string,
  formatDateTime: (value: string) => string,
): string {
  if (value === null || value === undefined) {
    return field === 'allowSimGen' ? t('publishing.value.default') : '—';
  }
  if (field === 'categoryId' && typeof value === 'string') return categoryName(value);
  if (typeof value === 'boolean') return t(value ? 'publishing.value.yes' : 'publishing.value.no');
  if (field === 'matchPolicy' && typeof value === 'string') {
    const key = POLICIES[value];
    return key ? t(key) : value;
  }
  if ((field === 'effectBegin' || field === 'effectEnd') && typeof value === 'string') {
    return formatDateTime(value);
  }
  if (isMenu(value)) return value.map((entry) => entry.text).join(' | ');
  if (Array.isArray(value)) return value.join(' | ');
  return String(value);
}

function Parts({ parts }: { parts: DiffPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.kind === 'same' ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === 'added' ? (
          <ins key={i} className="diff-word">
            {part.text}
          </ins>
        ) : (
          <del key={i} className="diff-word">
            {part.text}
          </del>
        ),
      )}
    </>
  );
}

function FieldRow({
  change,
  categoryName,
}: {
  change: FieldChange;
  categoryName: (id: string) => string;
}) {
  const { t, locale, formatDateTime } = useI18n();
  const label = t(FIELD_LABELS[change.field]);
  if (TEXTS.has(change.field) && typeof change.from === 'string' && typeof change.to === 'string') {
    const parts = wordDiff(change.from, change.to, locale);
    return (
      <tr>
        <th scope="row">{label}</th>
        <td className="diff-from">
          <Parts parts={parts.from} />
        </td>
        <td className="diff-to">
          <Parts parts={parts.to} />
        </td>
      </tr>
    );
  }
  const text = (value: unknown) => shown(t, change.field, value, categoryName, formatDateTime);
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="diff-from">{text(change.from)}</td>
      <td className="diff-to">{text(change.to)}</td>
    </tr>
  );
}

/**
 * Rules added, removed and changed field by field (the changed words of names and answers
 * marked), with phrasings added and removed.
 */
export function DiffView({
  diff,
  title,
  categoryName,
}: {
  diff: RulesDiff;
  title: string;
  /** A category's name from its id (the rules' category is stored by id). */
  categoryName: (id: string) => string;
}) {
  const { t } = useI18n();
  const empty = diff.added.length + diff.removed.length + diff.changed.length === 0;
  return (
    <section className="card" aria-label={title} data-testid="diff-view">
      <header className="card-header">
        <h2>{title}</h2>
        <span className="hint">
          {t('publishing.diffCounts', {
            added: diff.added.length,
            changed: diff.changed.length,
            removed: diff.removed.length,
          })}
        </span>
      </header>
      {empty ? <p className="hint">{t('publishing.diffEmpty')}</p> : null}
      {diff.changed.length > 0 ? <p className="hint">{t('publishing.diffChangedWords')}</p> : null}
      <ul className="diff-list">
        {diff.added.map((rule) => (
          <li key={`a${rule.ruleId}`}>
            <span className="badge badge-added">{t('publishing.added')}</span> {rule.ruleName}
          </li>
        ))}
        {diff.removed.map((rule) => (
          <li key={`r${rule.ruleId}`}>
            <span className="badge badge-warn">{t('publishing.removed')}</span> {rule.ruleName}
          </li>
        ))}
        {diff.changed.map((rule) => (
          <li key={`c${rule.ruleId}`}>
            <span className="badge">{t('publishing.changed')}</span> {rule.ruleName}
            <table className="table diff-fields">
              <tbody>
                {rule.fields
                  .filter((change) => change.field !== 'questions')
                  .map((change) => (
                    <FieldRow key={change.field} change={change} categoryName={categoryName} />
                  ))}
                {rule.questionsAdded.map((q) => (
                  <tr key={`+${q}`}>
                    <th scope="row">{t('publishing.questionAdded')}</th>
                    <td />
                    <td className="diff-to">
                      <ins className="diff-word">{q}</ins>
                    </td>
                  </tr>
                ))}
                {rule.questionsRemoved.map((q) => (
                  <tr key={`-${q}`}>
                    <th scope="row">{t('publishing.questionRemoved')}</th>
                    <td className="diff-from">
                      <del className="diff-word">{q}</del>
                    </td>
                    <td />
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ul>
    </section>
  );
}
