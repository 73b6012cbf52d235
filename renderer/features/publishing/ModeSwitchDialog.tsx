import { useEffect, useState } from 'react';
import type {
  PublishMode,
  UnpublishedChanges,
  VersionHistory,
} from '../../../electron/service/publishing-types';
import type { PublishingClient } from '../../api/publishing-client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { AuthorSelect } from './AuthorSelect';
import { UnpublishedList } from './UnpublishedList';

/**
 * Asks before a change of publish mode, saying what it does: to review, the draft answered now
 * is published first (a version credited to the author chosen here); to live, the unpublished
 * changes, listed, are answered at once.
 */
export function ModeSwitchDialog({
  api,
  mode,
  authors,
  author,
  onAuthor,
  onSwitched,
  onClose,
}: {
  api: PublishingClient;
  /** The mode switched to. */
  mode: PublishMode;
  authors: string[];
  author: string;
  onAuthor: (author: string) => void;
  onSwitched: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [state, setState] = useState<{
    history: VersionHistory;
    unpublished: UnpublishedChanges;
  } | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    Promise.all([api.history(), api.unpublished()]).then(
      ([history, unpublished]) => live && setState({ history, unpublished }),
      (failure: unknown) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const next = (state?.history.versions[0]?.version ?? 0) + 1;
  const publishes = state?.history.draftChanged ?? false;
  const changes = state?.unpublished.changes ?? [];
  return (
    <ConfirmDialog
      title={t(`publishing.switchTitle.${mode}`)}
      confirmLabel={t(`publishing.switchConfirm.${mode}`)}
      testId="mode-switch-dialog"
      onConfirm={async () => {
        await api.switchMode(mode, author);
        await onSwitched();
      }}
      onClose={onClose}
    >
      <p>{t(`publishing.switchText.${mode}`)}</p>
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      {state && mode === 'review' && publishes ? (
        <p>{t('publishing.switchPublishes', { version: next })}</p>
      ) : null}
      {state && mode === 'live' && changes.length > 0 ? (
        <>
          <p>{t('publishing.switchGoesLive', { count: changes.length, version: next })}</p>
          <UnpublishedList changes={changes} more={state.unpublished.more} />
        </>
      ) : null}
      {mode === 'review' ? <p className="hint">{t('publishing.settingsLive')}</p> : null}
      {publishes ? <AuthorSelect authors={authors} value={author} onChange={onAuthor} /> : null}
    </ConfirmDialog>
  );
}
