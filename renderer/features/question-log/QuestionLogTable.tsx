import { useCallback, useEffect, useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import type { QuestionLogPage } from '../../../electron/service/question-log-types';
import { CSV_COLUMNS, rowOf, toCsv } from '../../../electron/service/question-log-types';
import type { RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { downloadBlob, writeSpreadsheet } from '../../lib/sheets/sheet-worker-client';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { RetentionForm } from './RetentionForm';
import { fetchWholeLog } from './export-log';
import { downloadName } from '../../lib/files/download-names';

const outcomeKey = (answerType: string, module: string) =>
  module === 'NONE'
    ? 'qlog.fallback'
    : answerType === 'RECOMMEND'
      ? 'qlog.recommended'
      : 'qlog.answered';

/** The latest logged questions, with export (.xlsx, .csv) and clearing. */
export function QuestionLogTable({ robotRef, robot }: { robotRef: RobotRef; robot: ConsoleRobot }) {
  const { t, formatTime } = useI18n();
  const { client } = useWorkspace();
  const toasts = useToasts();
  const [page, setPage] = useState<QuestionLogPage | null>(null);
  const [q, setQ] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      client
        .questionLog(robotRef, { limit: 50, ...(q ? { q } : {}) })
        .then(setPage, () => undefined),
    [client, robotRef, q],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const fail = (error: unknown) => toasts.show(describeError(t, error), { tone: 'error' });

  const exportAs = async (format: 'xlsx' | 'csv') => {
    setBusy(true);
    try {
      const entries = await fetchWholeLog(client, robotRef);
      const rows = entries.map((entry) => rowOf(entry).map(String));
      const blob =
        format === 'xlsx'
          ? await writeSpreadsheet([{ name: 'questions', rows: [[...CSV_COLUMNS], ...rows] }])
          : new Blob([toCsv(entries)], { type: 'text/csv;charset=utf-8' });
      downloadBlob(blob, downloadName(t, 'questions', robot.name, format));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const clear = async () => {
    if (!window.confirm(t('qlog.clearConfirm', { robot: robot.name }))) return;
    try {
      const { removed } = await client.clearQuestionLog(robotRef);
      toasts.show(t('qlog.cleared', { count: removed }));
      await load();
    } catch (error) {
      fail(error);
    }
  };

  return (
    <section className="card qlog-card" aria-labelledby="qlog-title" data-testid="question-log">
      <header className="card-header qlog-header">
        <h2 id="qlog-title">
          {t('qlog.title')} <span className="muted">({page?.total ?? 0})</span>
        </h2>
        <div className="button-row">
          <input
            type="search"
            className="qlog-search"
            aria-label={t('qlog.search')}
            placeholder={t('qlog.search')}
            value={q}
            onChange={(event) => setQ(event.target.value)}
          />
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() => void exportAs('xlsx')}
          >
            {t('qlog.exportXlsx')}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() => void exportAs('csv')}
          >
            {t('qlog.exportCsv')}
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => void clear()}
          >
            {t('qlog.clear')}
          </button>
        </div>
      </header>
      <RetentionForm robotRef={robotRef} robot={robot} />
      {page && page.entries.length > 0 ? (
        <div className="qlog-scroll">
          <table className="report-table qlog-table">
            <thead>
              <tr>
                <th>{t('qlog.time')}</th>
                <th>{t('qlog.user')}</th>
                <th>{t('qlog.question')}</th>
                <th>{t('qlog.outcome')}</th>
                <th>{t('qlog.score')}</th>
                <th>{t('qlog.source')}</th>
                <th>{t('qlog.version')}</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry, i) => (
                <tr key={`${entry.at}-${i}`}>
                  <td>{formatTime(entry.at)}</td>
                  <td>{entry.userId}</td>
                  <td>
                    {entry.question}
                    {entry.menuEntry !== null ? (
                      <span className="badge qlog-chosen">
                        {t('qlog.menuEntry', { number: entry.menuEntry })}
                      </span>
                    ) : null}
                    {entry.chosenFrom !== null ? (
                      <span className="badge qlog-chosen">
                        {t('qlog.chosenFrom', { question: entry.chosenFrom })}
                      </span>
                    ) : null}
                  </td>
                  <td>{t(outcomeKey(entry.answerType, entry.module))}</td>
                  <td>{entry.score.toFixed(2)}</td>
                  <td>{entry.source === 'try' ? t('qlog.sourceTry') : t('qlog.sourceApi')}</td>
                  <td>
                    {entry.version === null
                      ? t('qlog.draft')
                      : t('qlog.versionNumber', { version: entry.version })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted qlog-empty">{t('qlog.empty')}</p>
      )}
    </section>
  );
}
