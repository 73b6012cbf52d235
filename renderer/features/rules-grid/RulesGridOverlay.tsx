import { EmptyState } from '../../components/EmptyState';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Spinner } from '../../components/Spinner';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

/** What the grid area says when it has no rows to show: loading, empty, nothing matches, error. */
export function RulesGridOverlay(props: {
  total: number | null;
  drafts: number;
  filtered: boolean;
  error: unknown;
  onRetry: () => void;
  onClearFilters: () => void;
  onAdd: () => void;
  onImport: () => void;
  onTemplate: () => void;
}) {
  const { t } = useI18n();
  if (props.error !== null && props.total === null) {
    return (
      <div className="grid-overlay">
        <ErrorMessage onRetry={props.onRetry} retryLabel={t('common.retry')}>
          {t('rules.loadFailed', { reason: describeError(t, props.error) })}
        </ErrorMessage>
      </div>
    );
  }
  if (props.total === null) {
    return (
      <div className="grid-overlay">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (props.total > 0 || props.drafts > 0) return null;
  return (
    <div className="grid-overlay">
      {props.filtered ? (
        <EmptyState
          title={t('rules.noMatch')}
          action={
            <button type="button" className="button" onClick={props.onClearFilters}>
              {t('rules.clearFilters')}
            </button>
          }
        >
          {t('rules.noMatchText')}
        </EmptyState>
      ) : (
        <EmptyState
          title={t('rules.emptyTitle')}
          action={
            <>
              <button type="button" className="button button-primary" onClick={props.onAdd}>
                + {t('rules.add')}
              </button>
              <button type="button" className="button" onClick={props.onImport}>
                {t('import.open')}
              </button>
              <button type="button" className="button" onClick={props.onTemplate}>
                {t('export.template')}
              </button>
            </>
          }
        >
          {t('rules.emptyText')}
        </EmptyState>
      )}
    </div>
  );
}
