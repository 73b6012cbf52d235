import { Fragment, useCallback, useEffect, useState } from 'react';
import type {
  RunComparison,
  TestCaseInput,
  TestCaseView,
  TestRun,
  TestRunHead,
} from '../../../electron/service/publishing-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import type { PublishingClient, Target } from '../../api/publishing-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import {
  downloadBlob,
  parseSpreadsheet,
  writeSpreadsheet,
} from '../../lib/sheets/sheet-worker-client';
import { CaseForm } from './CaseForm';
import { draftOfCase, EMPTY_CASE } from './case-form';
import { FailedCaseActions } from './FailedCaseActions';
import { runLabel } from './run-label';
import { casesFromSheet, casesToSheet } from './test-set-sheet';

/**
 * The robot's test cases (added and changed in their form, the rule picked by name), runs with
 * progress, their results (a failed case with what to do about it) and a comparison.
 */
export function TestSetPanel({
  api,
  client,
  robotRef,
  onOpenRule,
}: {
  api: PublishingClient;
  client: ConsoleClient;
  robotRef: RobotRef;
  /** Shows a rule in the robot's grid. */
  onOpenRule: (ruleId: string) => void;
}) {
  const { t, formatDateTime } = useI18n();
  const [cases, setCases] = useState<TestCaseView[]>([]);
  const [runs, setRuns] = useState<TestRunHead[]>([]);
  const [run, setRun] = useState<TestRun | null>(null);
  const [comparison, setComparison] = useState<RunComparison | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [target, setTarget] = useState<Target>('draft');
  const [editing, setEditing] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    // Both at once: a list shown before the other arrives would let a form act on half a reload.
    const [loaded, history] = await Promise.all([api.cases(), api.runs()]);
    setCases(loaded.cases);
    setRuns(history.runs);
  }, [api]);
  useEffect(() => {
    reload().catch(setError);
  }, [reload]);

  const guard = (work: () => Promise<void>) => {
    setError(null);
    work().catch(setError);
  };

  const add = async (input: TestCaseInput) => {
    await api.addCases([input]);
    await reload();
  };
  const update = async (caseId: number, input: TestCaseInput) => {
    await api.updateCase(caseId, input);
    await reload();
  };
  const edit = (caseId: number) => {
    setEditing(caseId);
    // The list of cases is above the run: bring the form into view.
    window.requestAnimationFrame(() =>
      document
        .querySelector(`[data-testid="case-edit-${caseId}"]`)
        ?.scrollIntoView({ block: 'center' }),
    );
  };
  const caseNamed = new Map(cases.map((c) => [c.caseId, c]));

  const [sheetNote, setSheetNote] = useState('');
  const importSheet = (file: File) =>
    guard(async () => {
      const read = casesFromSheet(t, (await parseSpreadsheet(file))[0]);
      if (read.problems.length > 0) {
        setSheetNote(
          t('tests.sheetProblems', { rows: read.problems.map((p) => p.row).join(', ') }),
        );
        return;
      }
      if (read.cases.length === 0) return;
      const added = await api.addCases(read.cases);
      setSheetNote(t('tests.imported', { count: added.cases.length }));
      await reload();
    });
  const exportSheet = () =>
    guard(async () => {
      downloadBlob(await writeSpreadsheet([casesToSheet(t, cases)]), t('tests.sheetFile'));
    });

  const runAll = () =>
    guard(async () => {
      let job = await api.startRun(target);
      setProgress({ done: job.done, total: job.total });
      while (job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 150));
        job = await api.job(job.jobId);
        setProgress({ done: job.done, total: job.total });
      }
      setProgress(null);
      if (job.state === 'failed') throw new Error(job.message);
      setRun(await api.run(job.runId));
      setComparison(null);
      await reload();
    });

  const compareLastTwo = () =>
    guard(async () => {
      const [b, a] = runs;
      if (a && b) setComparison(await api.compare(a.runId, b.runId));
    });

  /** What a run asked, in words: the draft, the published version, or a version's number. */
  const labelOf = (run: TestRunHead) => runLabel(t, run, formatDateTime(run.createdAt));

  return (
    <div className="test-set">
      <section className="card" aria-label={t('tests.cases')} data-testid="test-cases">
        <header className="card-header">
          <h2>{t('tests.cases')}</h2>
          <div className="toolbar-group">
            <span className="hint">{t('tests.count', { count: cases.length })}</span>
            <label className="button button-small">
              {t('tests.importSheet')}
              <input
                type="file"
                accept=".xlsx,.xls,.csv"
                hidden
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) importSheet(file);
                }}
              />
            </label>
            <button
              type="button"
              className="button button-small"
              disabled={cases.length === 0}
              onClick={exportSheet}
            >
              {t('tests.exportSheet')}
            </button>
          </div>
        </header>
        {sheetNote ? <p className="hint">{sheetNote}</p> : null}
        <CaseForm
          client={client}
          robotRef={robotRef}
          initial={EMPTY_CASE}
          submitLabel={t('tests.add')}
          onSubmit={add}
          testId="case-add"
        />
        <table className="table">
          <thead>
            <tr>
              <th>{t('tests.question')}</th>
              <th>{t('tests.expect')}</th>
              <th>{t('tests.ruleName')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {cases.map((c) =>
              editing === c.caseId ? (
                <tr key={c.caseId} className="case-editing">
                  <td colSpan={4}>
                    <CaseForm
                      client={client}
                      robotRef={robotRef}
                      initial={draftOfCase(c)}
                      submitLabel={t('common.save')}
                      onSubmit={async (input) => {
                        await update(c.caseId, input);
                        setEditing(null);
                      }}
                      onCancel={() => setEditing(null)}
                      testId={`case-edit-${c.caseId}`}
                    />
                  </td>
                </tr>
              ) : (
                <tr key={c.caseId}>
                  <td>{c.question}</td>
                  <td>{t(`tests.expect.${c.expect}`)}</td>
                  <td>{c.ruleName ?? (c.ruleId ? t('tests.ruleGone') : '—')}</td>
                  <td className="table-actions">
                    <button type="button" className="link-button" onClick={() => edit(c.caseId)}>
                      {t('common.edit')}
                    </button>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() =>
                        guard(async () => {
                          await api.deleteCases([c.caseId]);
                          await reload();
                        })
                      }
                    >
                      {t('tests.delete')}
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </section>
      <section className="card" aria-label={t('tests.run')} data-testid="test-run">
        <header className="card-header">
          <h2>{t('tests.run')}</h2>
          <div className="toolbar-group">
            <select
              aria-label={t('tests.against')}
              value={String(target)}
              onChange={(event) => setTarget(event.target.value as Target)}
            >
              <option value="draft">{t('tests.draft')}</option>
              <option value="published">{t('tests.published')}</option>
            </select>
            <button
              type="button"
              className="button button-primary"
              disabled={progress !== null || cases.length === 0}
              onClick={runAll}
            >
              {t('tests.runAll')}
            </button>
            <button
              type="button"
              className="button"
              disabled={runs.length < 2}
              onClick={compareLastTwo}
            >
              {t('tests.compareLast')}
            </button>
          </div>
        </header>
        {progress ? (
          <ProgressBar value={progress.done} max={progress.total} label={t('tests.running')} />
        ) : null}
        {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
        {run ? (
          <>
            <p data-testid="run-summary">
              {t('tests.summary', {
                passed: run.summary.passed,
                failed: run.summary.failed,
                nowFailing: run.summary.nowFailing,
                nowPassing: run.summary.nowPassing,
                ms: run.summary.ms,
              })}
            </p>
            <table className="table">
              <thead>
                <tr>
                  <th>{t('tests.question')}</th>
                  <th>{t('tests.status')}</th>
                  <th>{t('tests.change')}</th>
                  <th>{t('tests.score')}</th>
                  <th>{t('tests.got')}</th>
                </tr>
              </thead>
              <tbody>
                {run.results.map((r) => (
                  <Fragment key={r.caseId}>
                    <tr className={r.status === 'failed' ? 'row-failed' : undefined}>
                      <td>{r.question}</td>
                      <td>
                        <span
                          className={
                            r.status === 'failed' ? 'badge badge-warn' : 'badge badge-added'
                          }
                        >
                          {t(`tests.status.${r.status}`)}
                        </span>
                      </td>
                      <td>{t(`tests.change.${r.change}`)}</td>
                      <td>{r.score.toFixed(2)}</td>
                      <td>
                        {t(`tests.kind.${r.got.kind}`)}
                        {r.status === 'failed' && r.got.ruleName ? `: ${r.got.ruleName}` : ''}
                      </td>
                    </tr>
                    {r.status === 'failed' && caseNamed.has(r.caseId) ? (
                      <tr className="row-failed row-actions">
                        <td colSpan={5}>
                          <FailedCaseActions
                            client={client}
                            robotRef={robotRef}
                            result={r}
                            expectedName={caseNamed.get(r.caseId)?.ruleName ?? null}
                            onUpdate={(input) => update(r.caseId, input)}
                            onEdit={() => edit(r.caseId)}
                            onOpenRule={onOpenRule}
                          />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
        {comparison ? (
          <div data-testid="run-comparison">
            <h3>{t('tests.comparison', { a: labelOf(comparison.a), b: labelOf(comparison.b) })}</h3>
            {comparison.differences.length === 0 ? (
              <p className="hint">{t('tests.noDifferences')}</p>
            ) : null}
            <ul>
              {comparison.differences.map((d) => (
                <li key={d.caseId}>
                  {d.question}: {d.a ? t(`tests.status.${d.a.status}`) : '—'} →{' '}
                  {d.b ? t(`tests.status.${d.b.status}`) : '—'}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <h3>{t('tests.runs')}</h3>
        <ul className="run-list">
          {runs.map((head) => (
            <li key={head.runId}>
              <button
                type="button"
                className="link-button"
                onClick={() => guard(async () => setRun(await api.run(head.runId)))}
              >
                {labelOf(head)} ·{' '}
                {t('tests.passedOf', { passed: head.summary.passed, total: head.summary.total })}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
