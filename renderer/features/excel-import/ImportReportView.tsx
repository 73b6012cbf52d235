import { useI18n } from '../../i18n/useI18n';
import { failureReason } from './failure-reason';
import type { ImportReport } from './import-runner';

const LISTED = 500;

export function ImportReportView({
  report,
  onDownloadFailed,
}: {
  report: ImportReport;
  onDownloadFailed: () => void;
}) {
  const { t, formatNumber } = useI18n();
  const failed = report.failures.length + report.notSent.length;
  return (
    <div className="import-report" data-testid="import-report">
      <p className="import-report-title" role="status">
        {report.cancelled ? t('import.reportCancelled') : t('import.reportDone')}
      </p>
      <dl className="stats">
        <div>
          <dt>{t('import.statRows')}</dt>
          <dd data-testid="report-total">{formatNumber(report.total)}</dd>
        </div>
        <div>
          <dt>{t('import.statCreated')}</dt>
          <dd className="ok" data-testid="report-created">
            {formatNumber(report.succeeded)}
          </dd>
        </div>
        <div>
          <dt>{t('import.statFailed')}</dt>
          <dd className={report.failures.length > 0 ? 'bad' : ''} data-testid="report-failed">
            {formatNumber(report.failures.length)}
          </dd>
        </div>
        {report.notSent.length > 0 ? (
          <div>
            <dt>{t('import.statNotSent')}</dt>
            <dd>{formatNumber(report.notSent.length)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('import.statTime')}</dt>
          <dd>
            {t('import.seconds', {
              s: formatNumber(report.elapsedMs / 1000, { maximumFractionDigits: 1 }),
            })}
          </dd>
        </div>
      </dl>
      {report.failures.length > 0 || report.warnings.length > 0 ? (
        <div className="preview-scroll report-table">
          <table className="table" aria-label={t('import.failures')}>
            <thead>
              <tr>
                <th className="numeric">{t('import.colRow')}</th>
                <th>{t('rules.col.ruleName')}</th>
                <th>{t('import.colReason')}</th>
              </tr>
            </thead>
            <tbody>
              {[...report.failures, ...report.warnings].slice(0, LISTED).map((failure, i) => (
                <tr key={`${failure.sheetRow}-${i}`}>
                  <td className="numeric">{failure.sheetRow}</td>
                  <td className="report-name" title={failure.ruleName}>
                    {failure.ruleName}
                  </td>
                  <td>{failureReason(t, failure)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {failed > 0 ? (
        <button type="button" className="button" onClick={onDownloadFailed}>
          {t('import.downloadFailed', { count: failed })}
        </button>
      ) : null}
    </div>
  );
}
