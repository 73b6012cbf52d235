import { useCallback, useEffect, useState } from 'react';
import type {
  GateReport,
  RulesDiff,
  VersionHistory,
} from '../../../electron/service/publishing-types';
import type { PublishingClient } from '../../api/publishing-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { rulesToSheet } from '../excel-import/sheet-layout';
import { downloadBlob, writeSpreadsheet } from '../../lib/sheets/sheet-worker-client';
import { DiffView } from './DiffView';

/** Publish (behind the test-set gate), the version history, diffs, rollback and export. */
export function VersionsPanel({
  api,
  authors,
  robotName,
}: {
  api: PublishingClient;
  authors: string[];
  robotName: string;
}) {
  const { t, formatTime } = useI18n();
  const [history, setHistory] = useState<VersionHistory | null>(null);
  const [preview, setPreview] = useState<{ diff: RulesDiff; gate: GateReport } | null>(null);
  const [diff, setDiff] = useState<{ title: string; diff: RulesDiff } | null>(null);
  const [note, setNote] = useState('');
  const [author, setAuthor] = useState(authors[0] ?? 'api');
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => setHistory(await api.history()), [api]);
  useEffect(() => {
    reload().catch(setError);
  }, [reload]);

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
      await api.publish(note, author, confirmed);
      setPreview(null);
      setNote('');
      await reload();
    });
  const rollback = (version: number) =>
    act(async () => {
      if (!window.confirm(t('publishing.rollbackConfirm', { version }))) return;
      await api.rollback(version, author);
      await reload();
    });
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

  const blocked = (preview?.gate.nowFailing.length ?? 0) > 0 && !confirmed;
  return (
    <div className="publishing-versions">
      <section className="card" aria-label={t('publishing.publishTitle')}>
        <header className="card-header">
          <h2>{t('publishing.publishTitle')}</h2>
          {history ? (
            <span className={history.draftChanged ? 'badge badge-new' : 'badge'}>
              {history.draftChanged ? t('publishing.draftChanged') : t('publishing.draftSame')}
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
          <label>
            {t('publishing.author')}
            <select value={author} onChange={(event) => setAuthor(event.target.value)}>
              {authors.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="button"
            disabled={busy || !history?.draftChanged}
            onClick={() => void check()}
          >
            {t('publishing.check')}
          </button>
        </div>
        {preview ? (
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
            <DiffView diff={preview.diff} title={t('publishing.previewDiff')} />
            <button
              type="button"
              className="button button-primary"
              disabled={busy || blocked}
              onClick={() => void publish()}
            >
              {t('publishing.publish')}
            </button>
          </div>
        ) : null}
        {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      </section>
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
                <td>{v.author}</td>
                <td>
                  {v.note}
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
                <td>
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
                      onClick={() => void rollback(v.version)}
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
      {diff ? <DiffView diff={diff.diff} title={diff.title} /> : null}
    </div>
  );
}
