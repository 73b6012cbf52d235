import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import type { QuestionLogPage, QuestionSource } from '../../../electron/service/question-log-types';
import { CSV_COLUMNS, rowOf, toCsv } from '../../../electron/service/question-log-types';
import type { RobotRef } from '../../api/console-client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { LogQuery } from '../../api/question-log-calls';
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

type Outcome = 'answered' | 'recommended' | 'fallback';

/** What the log screen filters by (empty: not at all). Dates are YYYY-MM-DD, UTC days. */
interface LogFilters {
  q: string;
  outcome: '' | Outcome;
  /** The customers' asks (openapi) or the editor's own (the try pane). */
  source: '' | QuestionSource;
  userId: string;
  ruleId: string;
  from: string;
  to: string;
}

const NO_FILTERS: LogFilters = {
  q: '',
  outcome: '',
  source: '',
  userId: '',
  ruleId: '',
  from: '',
  to: '',
};
const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

/** The query of a page: the filters set, and the cursor of the page (null: the newest). */
function logQuery(filters: LogFilters, before: string | null): LogQuery {
  const query: LogQuery = { limit: PAGE_SIZE };
  const q = filters.q.trim();
  if (q) query.q = q;
  if (filters.outcome) query.outcome = filters.outcome;
  if (filters.source) query.source = filters.source;
  if (filters.userId.trim()) query.userId = filters.userId.trim();
  if (filters.ruleId.trim()) query.ruleId = filters.ruleId.trim();
  const from = Date.parse(filters.from);
  if (Number.isFinite(from)) query.from = new Date(from).toISOString();
  // The "to" day is included: entries before the next day.
  const to = Date.parse(filters.to);
  if (Number.isFinite(to)) query.to = new Date(to + DAY_MS).toISOString();
  if (before !== null) query.before = before;
  return query;
}

/**
 * The logged questions, newest first, a page at a time back to the oldest (by cursor), filtered
 * by time, answer, user, rule and text; with export (.xlsx, .csv) and clearing.
 */
export function QuestionLogTable({ robotRef, robot }: { robotRef: RobotRef; robot: ConsoleRobot }) {
  const { t, formatTime, formatDateTime, formatNumber } = useI18n();
  const { client } = useWorkspace();
  const toasts = useToasts();
  /** The page shown, with the query it answers: kept on screen while the next one loads. */
  const [shown, setShown] = useState<{ key: string; page: QuestionLogPage } | null>(null);
  const [filters, setFilters] = useState<LogFilters>(NO_FILTERS);
  /** The cursors of the pages shown so far: the last is the current page's (null: the newest). */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [busy, setBusy] = useState(false);
  const [clearing, setClearing] = useState(false);
  const cursor = cursors.at(-1) ?? null;
  const query = logQuery(filters, cursor);
  const queryKey = JSON.stringify(query);
  const page = shown?.page ?? null;
  /** Until the page asked for arrives, "older" would step from the previous page's cursor. */
  const loading = shown?.key !== queryKey;

  const latestKey = useRef(queryKey);
  latestKey.current = queryKey;

  const load = useCallback(() => {
    const asked = JSON.parse(queryKey) as LogQuery;
    return client.questionLog(robotRef, asked).then(
      (answer) => {
        // A slower answer to an earlier query never replaces a later one's.
        if (latestKey.current === queryKey) setShown({ key: queryKey, page: answer });
      },
      () => undefined,
    );
  }, [client, robotRef, queryKey]);
  useEffect(() => {
    void load();
  }, [load]);

  const filter = (change: Partial<LogFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setCursors([null]);
  };
  const older = () => {
    const next = loading ? null : page?.next;
    if (next) setCursors((current) => [...current, next]);
  };
  const newer = () =>
    setCursors((current) => (current.length > 1 ? current.slice(0, -1) : current));

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

  /** Asked first in the editor's own dialog, which says a failure itself. */
  const clear = async () => {
    const { removed } = await client.clearQuestionLog(robotRef);
    toasts.show(t('qlog.cleared', { count: removed }));
    setCursors([null]);
    await load();
  };

  return (
    <section
      className="card qlog-card"
      aria-labelledby="qlog-title"
      aria-busy={loading}
      data-testid="question-log"
    >
      <header className="card-header qlog-header">
        <h2 id="qlog-title">
          {t('qlog.title')}{' '}
          {page && page.total !== null ? <span className="muted">({page.total})</span> : null}
        </h2>
        <div className="button-row">
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
            onClick={() => setClearing(true)}
          >
            {t('qlog.clear')}
          </button>
        </div>
      </header>
      <RetentionForm robotRef={robotRef} robot={robot} />
      {page?.lost ? (
        <p className="qlog-lost" role="alert" data-testid="qlog-lost">
          {t('qlog.lost', {
            count: page.lost.count,
            since: formatDateTime(page.lost.since),
            until: formatDateTime(page.lost.until),
          })}
        </p>
      ) : null}
      <div className="qlog-filters" role="group" aria-label={t('qlog.filters')}>
        <input
          type="search"
          className="qlog-search"
          aria-label={t('qlog.search')}
          placeholder={t('qlog.search')}
          value={filters.q}
          onChange={(event) => filter({ q: event.target.value })}
        />
        <select
          aria-label={t('qlog.outcome')}
          value={filters.outcome}
          onChange={(event) => {
            const value = event.target.value;
            filter({
              outcome:
                value === 'answered' || value === 'recommended' || value === 'fallback'
                  ? value
                  : '',
            });
          }}
        >
          <option value="">{t('qlog.outcomeAll')}</option>
          <option value="answered">{t('qlog.answered')}</option>
          <option value="recommended">{t('qlog.recommended')}</option>
          <option value="fallback">{t('qlog.fallback')}</option>
        </select>
        <select
          aria-label={t('qlog.source')}
          value={filters.source}
          onChange={(event) => {
            const value = event.target.value;
            filter({ source: value === 'api' || value === 'try' ? value : '' });
          }}
        >
          <option value="">{t('qlog.sourceAll')}</option>
          <option value="api">{t('qlog.sourceApi')}</option>
          <option value="try">{t('qlog.sourceTry')}</option>
        </select>
        <input
          type="search"
          aria-label={t('qlog.userId')}
          placeholder={t('qlog.userId')}
          value={filters.userId}
          onChange={(event) => filter({ userId: event.target.value })}
        />
        <input
          type="search"
          aria-label={t('qlog.ruleId')}
          placeholder={t('qlog.ruleId')}
          value={filters.ruleId}
          onChange={(event) => filter({ ruleId: event.target.value })}
        />
        <label>
          {t('qlog.from')}{' '}
          <input
            type="date"
            value={filters.from}
            onChange={(event) => filter({ from: event.target.value })}
          />
        </label>
        <label>
          {t('qlog.to')}{' '}
          <input
            type="date"
            value={filters.to}
            onChange={(event) => filter({ to: event.target.value })}
          />
        </label>
      </div>
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
                  {/* The try pane's conversation id (try-…) is internal: the editor asked. */}
                  <td>
                    {entry.source === 'try' ? (
                      <span className="muted" data-testid="qlog-try-user">
                        {t('qlog.tryUser')}
                      </span>
                    ) : (
                      entry.userId
                    )}
                  </td>
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
      {clearing ? (
        <ConfirmDialog
          title={t('qlog.clear')}
          confirmLabel={t('qlog.clear')}
          danger
          onConfirm={clear}
          onClose={() => setClearing(false)}
        >
          <p>{t('qlog.clearConfirm', { robot: robot.name })}</p>
        </ConfirmDialog>
      ) : null}
      <nav className="button-row qlog-pager" aria-label={t('qlog.title')}>
        <button
          type="button"
          className="button button-small"
          disabled={cursors.length <= 1}
          onClick={() => setCursors([null])}
        >
          {t('qlog.newest')}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={cursors.length <= 1}
          onClick={newer}
        >
          {t('qlog.newer')}
        </button>
        <span className="muted" data-testid="qlog-page">
          {t('qlog.pageNumber', { page: cursors.length })}
        </span>
        <button
          type="button"
          className="button button-small"
          disabled={loading || !page?.next}
          onClick={older}
        >
          {t('qlog.older')}
        </button>
        {!loading && page && page.next === null && page.entries.length > 0 ? (
          <span className="muted">{t('qlog.oldestReached')}</span>
        ) : null}
        {/* A text search reads a bounded part of the log a page (decision 97). */}
        {!loading && page?.searched && page.next !== null ? (
          <span className="muted" data-testid="qlog-searched">
            {t('qlog.searchedPart', {
              entries: formatNumber(page.searched.entries),
              of: formatNumber(page.searched.of),
            })}
          </span>
        ) : null}
      </nav>
    </section>
  );
}
