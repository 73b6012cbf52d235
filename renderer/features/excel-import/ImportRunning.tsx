import { ProgressBar } from '../../components/ProgressBar';
import { useI18n } from '../../i18n/useI18n';
import type { ImportProgress } from './import-runner';

export function ImportRunning({
  progress,
  paused,
  onPause,
  onResume,
  onCancel,
}: {
  progress: ImportProgress;
  paused: boolean;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="import-running">
      <ProgressBar value={progress.done} max={progress.total} label={t('import.progress')} />
      <p className="import-counts" aria-live="polite">
        {t('import.progressText', {
          done: progress.done,
          count: progress.total,
          batch: progress.batch,
          batches: progress.batches,
        })}
      </p>
      <p className="import-counts">
        <span className="ok">{t('import.succeeded', { count: progress.succeeded })}</span>
        {' · '}
        <span className={progress.failed > 0 ? 'bad' : ''}>
          {t('import.failed', { count: progress.failed })}
        </span>
        {paused ? ` · ${t('import.paused')}` : ''}
      </p>
      <div className="button-row">
        {paused ? (
          <button type="button" className="button" onClick={onResume}>
            {t('import.resume')}
          </button>
        ) : (
          <button type="button" className="button" onClick={onPause}>
            {t('import.pause')}
          </button>
        )}
        <button type="button" className="button button-danger" onClick={onCancel}>
          {t('import.cancel')}
        </button>
      </div>
    </div>
  );
}
