/**
 * "What changes for customers": the customers' logged questions replayed against two editions
 * (the published version and the draft by default, or any two versions), counted by kind of
 * change with their asks, the most asked of each one click from its rule and from the try pane;
 * and the publish gate on that share, set beside the test-set gate. On a large log the replay
 * takes a while: it runs as a job on the service, polled here with its progress.
 * @module
 */
import { useEffect, useRef, useState } from 'react';
import type {
  ImpactAnswer,
  ImpactReport,
  VersionRecord,
} from '../../../electron/service/publishing-types';
import { IMPACT_KINDS } from '../../../electron/service/publishing-types';
import { ApiError } from '../../api/api-error';
import type { Target } from '../../api/publishing-client';
import type { PublishingClient } from '../../api/publishing-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

const DEFAULT_DAYS = 7;

const percentOf = (share: number) => `${Math.round(share * 1000) / 10}%`;

const parseTarget = (value: string): Target =>
  value === 'draft' || value === 'published' ? value : Number(value);

export function ImpactPanel({
  api,
  versions,
  gatePercent,
  onSaveGate,
  onOpenRule,
  onTry,
}: {
  api: PublishingClient;
  versions: readonly VersionRecord[];
  /** The robot's `impactGatePercent` (100: off). */
  gatePercent: number;
  /** Saves the gate (null: off). */
  onSaveGate: (percent: number | null) => Promise<void>;
  onOpenRule: (ruleId: string) => void;
  onTry: (question: string) => void;
}) {
  const { t } = useI18n();
  const [from, setFrom] = useState<string>('published');
  const [to, setTo] = useState<string>('draft');
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [report, setReport] = useState<ImpactReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [gateOn, setGateOn] = useState(gatePercent < 100);
  const [gateValue, setGateValue] = useState(gatePercent < 100 ? gatePercent : 10);
  const [gateNote, setGateNote] = useState<string | null>(null);

  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [stopped, setStopped] = useState<'cancelled' | 'failed' | null>(null);
  // Polling stops when the panel goes (the job carries on, and is kept for a while).
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const run = async () => {
    setBusy(true);
    setError(null);
    setStopped(null);
    try {
      const fromTarget = parseTarget(from);
      const toTarget = parseTarget(to);
      let job = await api.startImpact(fromTarget, toTarget, days);
      while (job.state === 'running' && mounted.current) {
        setProgress({ done: job.done, total: job.total });
        await new Promise((resolve) => setTimeout(resolve, 250));
        try {
          job = await api.impactJob(job.jobId);
        } catch (caught) {
          // A job lives on the node that runs it: behind a team server's load balancer a poll can
          // reach another node (or the node restarted). The preview is then asked in one request.
          if (!(caught instanceof ApiError && caught.code === 'impact-job-not-found')) throw caught;
          setProgress(null);
          const report = await api.impact(fromTarget, toTarget, days);
          job = { jobId: job.jobId, state: 'done', done: job.total, total: job.total, report };
        }
      }
      if (job.state === 'done') setReport(job.report);
      else if (job.state !== 'running') {
        setReport(null);
        setStopped(job.state);
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setProgress(null);
      setBusy(false);
    }
  };
  const saveGate = async () => {
    setError(null);
    try {
      await onSaveGate(gateOn ? gateValue : null);
      setGateNote(t('impact.gateSaved'));
    } catch (caught) {
      setError(caught);
    }
  };

  const options = (edges: string) => (
    <>
      <option value={edges}>{t(edges === 'draft' ? 'impact.draft' : 'impact.published')}</option>
      {versions.map((v) => (
        <option key={v.version} value={String(v.version)}>
          v{v.version}
        </option>
      ))}
    </>
  );
  const answerLabel = (answer: ImpactAnswer) =>
    answer.ruleId === null ? t('impact.noAnswer') : (answer.ruleName ?? answer.ruleId);

  return (
    <section className="card impact-panel" aria-label={t('impact.title')} data-testid="impact">
      <header className="card-header">
        <h2>{t('impact.title')}</h2>
      </header>
      <p className="hint">{t('impact.intro')}</p>
      <div className="publish-form">
        <label>
          {t('impact.from')}
          <select value={from} onChange={(event) => setFrom(event.target.value)}>
            {options('published')}
          </select>
        </label>
        <label>
          {t('impact.to')}
          <select value={to} onChange={(event) => setTo(event.target.value)}>
            {options('draft')}
          </select>
        </label>
        <label>
          {t('impact.days')}
          <input
            type="number"
            min={1}
            max={90}
            value={days}
            onChange={(event) =>
              setDays(Math.min(90, Math.max(1, Math.round(Number(event.target.value) || 1))))
            }
          />
        </label>
        <button type="button" className="button" disabled={busy} onClick={() => void run()}>
          {busy ? t('impact.running') : t('impact.run')}
        </button>
      </div>
      {progress ? (
        <div className="impact-progress" data-testid="impact-progress">
          <ProgressBar value={progress.done} max={progress.total} label={t('impact.running')} />
          <p className="hint">
            {progress.total === 0
              ? t('impact.reading')
              : t('impact.progress', { done: progress.done, total: progress.total })}
          </p>
        </div>
      ) : null}
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      {stopped ? (
        <ErrorMessage>
          {t(stopped === 'cancelled' ? 'impact.cancelled' : 'impact.failed')}
        </ErrorMessage>
      ) : null}
      {report ? (
        <div className="impact-report" data-testid="impact-report">
          {report.asks === 0 ? (
            <p>{t('impact.none', { days: report.days })}</p>
          ) : (
            <>
              <p data-testid="impact-summary">
                {t('impact.summary', {
                  changed: report.changed.asks,
                  asks: report.asks,
                  days: report.days,
                  share: percentOf(report.changed.share),
                  questions: report.changed.questions,
                })}
              </p>
              {report.capped ? (
                <p className="hint">
                  {t('impact.capped', {
                    cap: report.cap,
                    questions: report.questions,
                    replayedAsks: report.replayedAsks,
                    asks: report.asks,
                  })}
                </p>
              ) : null}
              <table className="table impact-kinds">
                <thead>
                  <tr>
                    <th>{t('impact.kind')}</th>
                    <th>{t('impact.questions')}</th>
                    <th>{t('impact.asks')}</th>
                    <th>{t('impact.share')}</th>
                  </tr>
                </thead>
                <tbody>
                  {IMPACT_KINDS.map((name) => (
                    <tr key={name} data-testid={`impact-${name}`}>
                      <td>{t(`impact.kind.${name}`)}</td>
                      <td>{report.kinds[name].questions}</td>
                      <td>{report.kinds[name].asks}</td>
                      <td>{percentOf(report.kinds[name].share)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {IMPACT_KINDS.filter((name) => report.kinds[name].examples.length > 0).map((name) => (
                <div key={name} className="impact-examples">
                  <h3>
                    {t(`impact.kind.${name}`)} · {t('impact.examples')}
                  </h3>
                  <ul className="diff-list">
                    {report.kinds[name].examples.map((example) => {
                      const ruleId = example.after.ruleId ?? example.before.ruleId;
                      return (
                        <li key={example.question}>
                          <strong>{example.question}</strong>{' '}
                          <span className="badge">
                            {t('impact.askedTimes', { count: example.asks })}
                          </span>{' '}
                          <span className="hint">
                            {answerLabel(example.before)} → {answerLabel(example.after)}
                          </span>{' '}
                          {ruleId !== null ? (
                            <button
                              type="button"
                              className="link-button"
                              onClick={() => onOpenRule(ruleId)}
                            >
                              {t('impact.openRule')}
                            </button>
                          ) : null}{' '}
                          <button
                            type="button"
                            className="link-button"
                            onClick={() => onTry(example.question)}
                          >
                            {t('impact.try')}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                </div>
              ))}
            </>
          )}
        </div>
      ) : null}
      <div className="publish-form impact-gate" data-testid="impact-gate">
        <label className="checkbox">
          <span>
            <input
              type="checkbox"
              checked={gateOn}
              onChange={(event) => setGateOn(event.target.checked)}
            />{' '}
            {t('impact.gate')}{' '}
            <input
              type="number"
              min={0}
              max={99}
              step={0.5}
              disabled={!gateOn}
              value={gateValue}
              aria-label={t('impact.gate')}
              onChange={(event) =>
                setGateValue(Math.min(99, Math.max(0, Number(event.target.value) || 0)))
              }
            />
            {t('impact.gateAfter')}
          </span>
        </label>
        <button type="button" className="button" onClick={() => void saveGate()}>
          {t('impact.gateSave')}
        </button>
      </div>
      <p className="hint">
        {gateNote ??
          (gatePercent < 100 ? t('impact.gateOn', { percent: gatePercent }) : t('impact.gateOff'))}
      </p>
    </section>
  );
}
