import { useCallback, useEffect, useState } from 'react';
import type {
  GateReport,
  PublishMode,
  RulesDiff,
  UnpublishedChanges,
  VersionHistory,
  VersionRecord,
} from '../../../electron/service/publishing-types';
import { ApiError } from '../../api/api-error';
import type { PublishingClient } from '../../api/publishing-client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useToasts } from '../../components/useToasts';
import { actorLabel } from '../../i18n/actor-label';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { rulesToSheet } from '../excel-import/sheet-layout';
import { downloadBlob, writeSpreadsheet } from '../../lib/sheets/sheet-worker-client';
import { AuthorSelect } from './AuthorSelect';
import { DiffView } from './DiffView';
import { ImpactPanel } from './ImpactPanel';
import { UnpublishedList } from './UnpublishedList';

/** A confirmation under way: what it replaces is read when it opens. */
type Asking =
  | { kind: 'rollback'; version: number; unpublished: UnpublishedChanges }
  | { kind: 'discard'; version: number; unpublished: UnpublishedChanges };

/**
 * Publish (behind the test-set gate), discard the draft, the version history, diffs, rollback
 * and export. What the service made a version for is said from its facts, in the editor's
 * language.
 */
export function VersionsPanel({
  api,
  authors,
  author,
  onAuthor,
  robotName,
  publishMode,
  categoryName,
  onPublished,
  impactGatePercent,
  onSaveImpactGate,
  onOpenRule,
  onTry,
}: {
  api: PublishingClient;
  authors: string[];
  author: string;
  onAuthor: (author: string) => void;
  robotName: string;
  publishMode: PublishMode;
  categoryName: (id: string) => string;
  /** The draft or the latest version changed (a publish, a rollback, a discard). */
  onPublished: () => void;
  /** The robot's publish gate on customers' questions (100: off), and how to save it. */
  impactGatePercent: number;
  onSaveImpactGate: (percent: number | null) => Promise<void>;
  onOpenRule: (ruleId: string) => void;
  /** Opens the try pane on a question. */
  onTry: (question: string) => void;
}) {
  const { t, formatTime } = useI18n();
  const toasts = useToasts();
  const [history, setHistory] = useState<VersionHistory | null>(null);
  const [preview, setPreview] = useState<{ diff: RulesDiff; gate: GateReport } | null>(null);
  const [diff, setDiff] = useState<{ title: string; diff: RulesDiff } | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [note, setNote] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [confirmedImpact, setConfirmedImpact] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    const next = await api.history();
    setHistory(next);
    // A preview of a draft that is now the latest version (a rollback, a discard) is stale.
    if (!next.draftChanged) setPreview(null);
  }, [api]);
  useEffect(() => {
    load().catch(setError);
  }, [load]);
  const reload = async () => {
    await load();
    onPublished();
  };

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const check = () =>
    act(async () => {
      setConfirmed(false);
      setPreview(await api.preview());
    });
  const publish = () =>
    act(async () => {
      await api.publish(note, author, confirmed, confirmedImpact);
      setConfirmedImpact(false);
      setPreview(null);
      setNote('');
      await reload();
    });
  const ask = (kind: Asking['kind'], version: number) =>
    act(async () => setAsking({ kind, version, unpublished: await api.unpublished() }));
  const showDiff = (from: number, to: number) =>
    act(async () =>
      setDiff({ title: t('publishing.diffTitle', { from, to }), diff: await api.diff(from, to) }),
    );
  const exportVersion = (version: number) =>
    act(async () => {
      const { rules } = await api.versionRules(version);
      const blob = await writeSpreadsheet([rulesToSheet(t, rules)]);
      downloadBlob(blob, `${robotName.replace(/[\\/:*?"<>|]+/g, '_')}-v${version}.xlsx`);
    });

  /** What the author wrote, else what the service made the version for. */
  const noteOf = (v: VersionRecord): string =>
    v.note !== '' ? v.note : v.modeSwitch ? t(`publishing.modeSwitched.${v.modeSwitch}`) : '';

  const latest = history?.versions[0]?.version ?? null;
  const draftChanged = history?.draftChanged ?? false;
  const blocked = (preview?.gate.nowFailing.length ?? 0) > 0 && !confirmed;
  return (
    <div className="publishing-versions">
      <section className="card" aria-label={t('publishing.publishTitle')}>
        <header className="card-header">
          <h2>{t('publishing.publishTitle')}</h2>
          {history ? (
            <span className={draftChanged ? 'badge badge-new' : 'badge'}>
              {draftChanged ? t('publishing.draftChanged') : t('publishing.draftSame')}
            </span>
          ) : null}
        </header>
        <div className="publish-form">
          <label>
            {t('publishing.note')}
            <input
              value={note}
              maxLength={500}
              onChange={(event) => setNote(event.target.value)}
              aria-label={t('publishing.note')}
            />
          </label>
          <AuthorSelect authors={authors} value={author} onChange={onAuthor} />
          <button
            type="button"
            className="button"
            disabled={busy || !draftChanged}
            onClick={() => void check()}
          >
            {t('publishing.check')}
          </button>
          {publishMode === 'review' && latest !== null && draftChanged ? (
            <button
              type="button"
              className="button button-danger"
              disabled={busy}
              onClick={() => void ask('discard', latest)}
            >
              {t('publishing.discard')}
            </button>
          ) : null}
        </div>
        {history && !draftChanged && latest !== null ? (
          <p className="hint">{t('publishing.nothingToPublish')}</p>
        ) : null}
        {preview && draftChanged ? (
          <div className="publish-preview" data-testid="publish-gate">
            <p>
              {t('publishing.gateSummary', {
                cases: preview.gate.cases,
                failing: preview.gate.failing,
                nowFailing: preview.gate.nowFailing.length,
                nowPassing: preview.gate.nowPassing.length,
              })}
            </p>
            {preview.gate.nowFailing.length > 0 ? (
              <>
                <ul className="gate-failures">
                  {preview.gate.nowFailing.map((c) => (
                    <li key={c.caseId}>
                      <span className="badge badge-warn">{t('tests.nowFailing')}</span> {c.question}
                    </li>
                  ))}
                </ul>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={confirmed}
                    onChange={(event) => setConfirmed(event.target.checked)}
                  />{' '}
                  {t('publishing.confirmFailures')}
                </label>
              </>
            ) : null}
            <DiffView
              diff={preview.diff}
              title={t('publishing.previewDiff')}
              categoryName={categoryName}
            />
            <button
              type="button"
              className="button button-primary"
              disabled={busy || blocked || !draftChanged}
              onClick={() => void publish()}
            >
              {t('publishing.publish')}
            </button>
          </div>
        ) : null}
        {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
        {error instanceof ApiError && error.code === 'publish-impact-too-large' ? (
          <label className="checkbox publish-form">
            <input
              type="checkbox"
              checked={confirmedImpact}
              onChange={(event) => setConfirmedImpact(event.target.checked)}
            />{' '}
            {t('publishing.confirmImpact')}
          </label>
        ) : null}
      </section>
      <ImpactPanel
        api={api}
        versions={history?.versions ?? []}
        gatePercent={impactGatePercent}
        onSaveGate={onSaveImpactGate}
        onOpenRule={onOpenRule}
        onTry={onTry}
      />
      <section className="card" aria-label={t('publishing.history')} data-testid="version-history">
        <header className="card-header">
          <h2>{t('publishing.history')}</h2>
        </header>
        {history && history.versions.length === 0 ? (
          <p className="hint">{t('publishing.noVersions')}</p>
        ) : null}
        <table className="table">
          <thead>
            <tr>
              <th>{t('publishing.version')}</th>
              <th>{t('publishing.time')}</th>
              <th>{t('publishing.author')}</th>
              <th>{t('publishing.note')}</th>
              <th>{t('publishing.changes')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {history?.versions.map((v, i) => (
              <tr key={v.version}>
                <td>
                  v{v.version}
                  {i === 0 ? (
                    <>
                      {' '}
                      <span className="badge badge-added">{t('publishing.current')}</span>
                    </>
                  ) : null}
                </td>
                <td>{formatTime(v.createdAt)}</td>
                <td>{actorLabel(t, v.author)}</td>
                <td>
                  {noteOf(v)}
                  {v.rolledBackTo !== null ? (
                    <span className="badge">
                      {t('publishing.rolledBackTo', { version: v.rolledBackTo })}
                    </span>
                  ) : null}
                  {v.confirmedFailures !== null ? (
                    <span className="badge badge-warn">
                      {t('publishing.publishedOverFailures', {
                        count: (JSON.parse(v.confirmedFailures) as number[]).length,
                      })}
                    </span>
                  ) : null}
                </td>
                <td
                  title={t('publishing.diffCounts', {
                    added: v.added,
                    changed: v.changed,
                    removed: v.removed,
                  })}
                >
                  +{v.added} ~{v.changed} −{v.removed} ({v.rules})
                </td>
                <td className="table-actions">
                  {v.version > 1 ? (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => void showDiff(v.version - 1, v.version)}
                    >
                      {t('publishing.diffPrevious')}
                    </button>
                  ) : null}
                  {i > 0 ? (
                    <button
                      type="button"
                      className="link-button"
                      disabled={busy}
                      onClick={() => void ask('rollback', v.version)}
                    >
                      {t('publishing.rollback')}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => void exportVersion(v.version)}
                  >
                    {t('publishing.export')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {diff ? <DiffView diff={diff.diff} title={diff.title} categoryName={categoryName} /> : null}
      {asking?.kind === 'rollback' ? (
        <ConfirmDialog
          title={t('publishing.rollbackTitle', { version: asking.version })}
          confirmLabel={t('publishing.rollback')}
          danger
          testId="rollback-dialog"
          onConfirm={async () => {
            await api.rollback(asking.version, author);
            setPreview(null);
            await reload();
          }}
          onClose={() => setAsking(null)}
        >
          <p>{t('publishing.rollbackConfirm', { version: asking.version })}</p>
          <Replaced unpublished={asking.unpublished} />
          <AuthorSelect authors={authors} value={author} onChange={onAuthor} />
        </ConfirmDialog>
      ) : null}
      {asking?.kind === 'discard' ? (
        <ConfirmDialog
          title={t('publishing.discardTitle')}
          confirmLabel={t('publishing.discard')}
          danger
          testId="discard-dialog"
          onConfirm={async () => {
            await api.discard();
            setPreview(null);
            await reload();
            toasts.show(t('publishing.discarded', { version: asking.version }));
          }}
          onClose={() => setAsking(null)}
        >
          <p>{t('publishing.discardText', { version: asking.version })}</p>
          <UnpublishedList changes={asking.unpublished.changes} more={asking.unpublished.more} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** The unpublished edits a rollback replaces, or that there are none. */
function Replaced({ unpublished }: { unpublished: UnpublishedChanges }) {
  const { t } = useI18n();
  if (unpublished.changes.length === 0) return <p>{t('publishing.rollbackNoEdits')}</p>;
  return (
    <>
      <p>{t('publishing.rollbackReplaces', { count: unpublished.changes.length })}</p>
      <UnpublishedList changes={unpublished.changes} more={unpublished.more} />
    </>
  );
}
